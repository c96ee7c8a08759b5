// WebSocketFrameReader: the native transport's reader of server frames (RFC 6455 §5), fed
// bytes directly, no socket. Each row is read whole, cut at every byte (short rows), a byte at
// a time and in random splits; every way must hand the same messages, pings and pongs in the
// same order and end the same way, with each message padded in the receive buffer.

#include "../common/TestRegistry.h"
#include "protocol/ReceiveBuffer.h"
#include "transport/WebSocketClientWire.h"
#include "transport/WebSocketFrameReader.h"

#include <QtCore/QRandomGenerator>
#include <QtCore/QtEndian>
#include <QtTest/QtTest>

using namespace streamscope;
using Status = WebSocketFrameReader::Status;

namespace {

using Events = QList<QByteArray>;
constexpr qsizetype kLimit = 100000; // the rows' max_message_bytes

// A frame as a server writes it, correct or not.
QByteArray frame(quint8 opcode, const QByteArray &payload, bool fin = true, quint8 rsv = 0, quint32 maskKey = 0)
{
    QByteArray f;
    f.append(char((fin ? ws::kFin : 0) | rsv | opcode));
    const quint8 mask = maskKey ? ws::kMaskBit : 0;
    const qsizetype len = payload.size();
    if (len < 126) {
        f.append(char(mask | len));
    } else if (len <= 0xffff) {
        f.append(char(mask | 126));
        const quint16 be = qToBigEndian(quint16(len));
        f.append(reinterpret_cast<const char *>(&be), 2);
    } else {
        f.append(char(mask | 127));
        const quint64 be = qToBigEndian(quint64(len));
        f.append(reinterpret_cast<const char *>(&be), 8);
    }
    QByteArray body = payload;
    if (maskKey) {
        const quint32 be = qToBigEndian(maskKey);
        f.append(reinterpret_cast<const char *>(&be), 4);
        for (qsizetype i = 0; i < body.size(); ++i)
            body[i] = char(body[i] ^ reinterpret_cast<const char *>(&be)[i & 3]);
    }
    return f + body;
}
QByteArray text(const QByteArray &payload, bool fin = true)
{
    return frame(ws::kOpText, payload, fin);
}
QByteArray more(const QByteArray &payload, bool fin = true)
{
    return frame(ws::kOpContinuation, payload, fin);
}
QByteArray closeFrame(quint16 code, const QByteArray &reason = {})
{
    QByteArray p(2, Qt::Uninitialized);
    qToBigEndian(code, p.data());
    return frame(ws::kOpClose, p + reason);
}
// A header with a length in the form given, whatever the length.
QByteArray header16(quint16 length)
{
    QByteArray h("\x81\x7e", 2);
    const quint16 be = qToBigEndian(length);
    return h + QByteArray(reinterpret_cast<const char *>(&be), 2);
}
QByteArray header64(quint64 length)
{
    QByteArray h("\x81\x7f", 2);
    const quint64 be = qToBigEndian(length);
    return h + QByteArray(reinterpret_cast<const char *>(&be), 8);
}

// What one reading gave: events in order ("text:...", "binary:<hex>", "ping:...", "pong"),
// how it ended ("ok", "closed 1000 bye", "failed 1002"), and whether every view was padded in
// the buffer.
struct Result {
    Events events;
    QByteArray end;
    bool viewsInBuffer = true;
    QList<bool> zeroCopy; // per message: its bytes lay where the socket's bytes were written
};

class Recorder final : public WebSocketFrameReader::Handler {
public:
    explicit Recorder(ReceiveBuffer &buffer)
        : m_buffer(buffer)
    {
    }
    bool onMessage(const MessageView &m, bool binary) override
    {
        const QByteArray bytes(m.data, m.size);
        result.events << (binary ? "binary:" + bytes.toHex() : "text:" + bytes);
        const char *begin = m_buffer.data();
        const char *end = begin + m_buffer.allocated();
        if (!m.padded || !m.isWhole() || m.data < begin || m.data + m.size + qsizetype(ReceiveBuffer::kPadding) > end)
            result.viewsInBuffer = false;
        result.zeroCopy << (m.data >= readStart && m.data + m.size <= readEnd);
        return stopAfter < 0 || result.events.size() < stopAfter;
    }
    void onPing(const char *payload, qsizetype len) override { result.events << "ping:" + QByteArray(payload, len); }
    void onPong() override { result.events << "pong"; }

    Result result;
    int stopAfter = -1;
    const char *readStart = nullptr; // the current read, in the buffer
    const char *readEnd = nullptr;

private:
    ReceiveBuffer &m_buffer;
};

QByteArray endText(const WebSocketFrameReader &reader, Status status)
{
    switch (status) {
    case Status::Closed: return "closed " + QByteArray::number(reader.closeCode()) + ' ' + reader.closeReason();
    case Status::Failed: return "failed " + QByteArray::number(reader.errorCode());
    case Status::Stopped: return "stopped";
    default: return "ok";
    }
}

// Reads `wire` in parts of the sizes `nextSize` gives.
template<typename NextSize>
Result read(const QByteArray &wire, NextSize &&nextSize, qsizetype limit = kLimit)
{
    ReceiveBuffer buffer;
    WebSocketFrameReader reader(buffer, limit);
    Recorder recorder(buffer);
    Status status = Status::Ok;
    qsizetype pos = 0;
    while (pos < wire.size() && status == Status::Ok) {
        const qsizetype n = std::min(nextSize(), wire.size() - pos);
        char *at = reader.prepare(n);
        std::memcpy(at, wire.constData() + pos, std::size_t(n));
        recorder.readStart = buffer.data();
        recorder.readEnd = at + n;
        status = reader.parse(n, recorder);
        pos += n;
    }
    recorder.result.end = endText(reader, status);
    if (status == Status::Ok && pos == wire.size() && reader.pendingBytes() > 0)
        recorder.result.end += " pending";
    return recorder.result;
}

Result readWhole(const QByteArray &wire, qsizetype limit = kLimit)
{
    return read(
        wire, [&] { return wire.size(); }, limit);
}

} // namespace

class TestWebSocketFrameReader : public QObject {
    Q_OBJECT
private slots:
    void frames_data();
    void frames();
    void messageInOneReadIsNotCopied();
    void messageCutByReadsIsJoinedOnce();
    void invalidUtf8FailsAtTheFragmentThatHasIt();
    void oversizedIsRefusedAtItsHeader();
    void stopsWhenTheHandlerSaysSo();
    void resetStartsAfresh();
};

void TestWebSocketFrameReader::frames_data()
{
    QTest::addColumn<QByteArray>("wire");
    QTest::addColumn<Events>("events");
    QTest::addColumn<QByteArray>("end");

    const QByteArray ok = "ok";
    const auto failed = [](int code) { return "failed " + QByteArray::number(code); };
    const auto closed = [](int code, const QByteArray &reason = {}) {
        return "closed " + QByteArray::number(code) + ' ' + reason;
    };
    const QByteArray agg = R"({"e":"aggTrade","E":1700000000000,"s":"BTCUSDT","a":1})";

    // Data.
    QTest::newRow("one text message") << text(agg) << Events{"text:" + agg} << ok;
    QTest::newRow("two messages in one read") << text("{}") + text("[1]") << Events{"text:{}", "text:[1]"} << ok;
    QTest::newRow("empty text") << text("") << Events{"text:"} << ok;
    QTest::newRow("binary") << frame(ws::kOpBinary, QByteArray("\x00\xff", 2)) << Events{"binary:00ff"} << ok;
    QTest::newRow("16-bit length") << text(QByteArray(300, 'a')) << Events{"text:" + QByteArray(300, 'a')} << ok;
    QTest::newRow("64-bit length") << text(QByteArray(70000, 'b')) << Events{"text:" + QByteArray(70000, 'b')} << ok;
    QTest::newRow("half a frame") << text(agg).left(10) << Events{} << QByteArray("ok pending");

    // Fragmentation (§5.4), with control frames between fragments (§5.5).
    QTest::newRow("three fragments") << text("{\"a\":", false) + more("12", false) + more("3}")
                                     << Events{"text:{\"a\":123}"} << ok;
    QTest::newRow("empty fragments") << text("", false) + more("", false) + more("x") + text("y")
                                     << Events{"text:x", "text:y"} << ok;
    QTest::newRow("ping between fragments")
        << text("ab", false) + frame(ws::kOpPing, "p1") + more("cd", false) + frame(ws::kOpPong, "") + more("ef")
        << Events{"ping:p1", "pong", "text:abcdef"} << ok;
    QTest::newRow("binary fragments") << frame(ws::kOpBinary, "\x01", false) + more("\x02") << Events{"binary:0102"}
                                      << ok;
    QTest::newRow("character cut between fragments")
        << text("\xe2", false) + more("\x82", false) + more("\xac") << Events{QByteArray("text:\xe2\x82\xac")} << ok;
    QTest::newRow("four-byte character cut")
        << text("x\xf0\x9d", false) + more("\x84\x9e") << Events{QByteArray("text:x\xf0\x9d\x84\x9e")} << ok;
    QTest::newRow("continuation without a message") << more("x") << Events{} << failed(1002);
    QTest::newRow("new message inside a fragmented one") << text("a", false) + text("b") << Events{} << failed(1002);
    QTest::newRow("message before a violation is delivered")
        << text("ok") + more("x") << Events{"text:ok"} << failed(1002);

    // Control frames.
    QTest::newRow("ping and pong") << frame(ws::kOpPing, "hello") + frame(ws::kOpPong, "x") + text("{}")
                                   << Events{"ping:hello", "pong", "text:{}"} << ok;
    QTest::newRow("ping of 125 bytes") << frame(ws::kOpPing, QByteArray(125, 'p'))
                                       << Events{"ping:" + QByteArray(125, 'p')} << ok;
    QTest::newRow("ping of 126 bytes") << frame(ws::kOpPing, QByteArray(126, 'p')) << Events{} << failed(1002);
    QTest::newRow("fragmented ping") << frame(ws::kOpPing, "x", false) << Events{} << failed(1002);
    QTest::newRow("fragmented close") << frame(ws::kOpClose, "", false) << Events{} << failed(1002);

    // Frames no server may send.
    QTest::newRow("masked frame") << frame(ws::kOpText, agg, true, 0, 0x9e3779b9u) << Events{} << failed(1002);
    QTest::newRow("masked ping") << frame(ws::kOpPing, "x", true, 0, 1) << Events{} << failed(1002);
    for (quint8 rsv : {quint8(0x40), quint8(0x20), quint8(0x10)})
        QTest::newRow(qPrintable(QStringLiteral("RSV bit 0x%1").arg(rsv, 0, 16)))
            << frame(ws::kOpText, "x", true, rsv) << Events{} << failed(1002);
    for (quint8 op : {3, 4, 5, 6, 7, 0xb, 0xc, 0xd, 0xe, 0xf})
        QTest::newRow(qPrintable(QStringLiteral("reserved opcode 0x%1").arg(op, 0, 16)))
            << frame(op, "x") << Events{} << failed(1002);
    QTest::newRow("length with the top bit") << header64(quint64(1) << 63) << Events{} << failed(1002);
    QTest::newRow("16-bit form for a short length") << header16(5) + "hello" << Events{} << failed(1002);
    QTest::newRow("64-bit form for a 16-bit length")
        << header64(300) + QByteArray(300, 'x') << Events{} << failed(1002);
    QTest::newRow("HTTP after the handshake") << QByteArray("HTTP/1.1 200 OK\r\n\r\n") << Events{} << failed(1002);

    // UTF-8 (§8.1), checked with simdjson's validator.
    QTest::newRow("invalid UTF-8") << text("{\"s\":\"\xff\xfe\"}") << Events{} << failed(1007);
    QTest::newRow("overlong encoding") << text("\xc0\xaf") << Events{} << failed(1007);
    QTest::newRow("surrogate") << text("\xed\xa0\x80") << Events{} << failed(1007);
    QTest::newRow("beyond U+10FFFF") << text("\xf4\x90\x80\x80") << Events{} << failed(1007);
    QTest::newRow("character cut at the message's end") << text("ab\xe2\x82") << Events{} << failed(1007);
    QTest::newRow("bad byte across a fragment boundary")
        << text("\xe2\x82", false) + more("(") << Events{} << failed(1007);
    QTest::newRow("fragmented message never finished a character")
        << text("{\"s\":\"\xe2\x82", false) + more("\"}") << Events{} << failed(1007);
    QTest::newRow("binary is not checked") << frame(ws::kOpBinary, "\xff") << Events{"binary:ff"} << ok;

    // Size limit (the stream's max_message_bytes): the limit itself passes.
    QTest::newRow("message at the limit")
        << text(QByteArray(kLimit, 'm')) << Events{"text:" + QByteArray(kLimit, 'm')} << ok;
    QTest::newRow("message over the limit") << text(QByteArray(kLimit + 1, 'm')) << Events{} << failed(1009);
    QTest::newRow("fragments over the limit")
        << text(QByteArray(kLimit / 2, 'f'), false) + more(QByteArray(kLimit / 2, 'f'), false) + more("x") << Events{}
        << failed(1009);
    QTest::newRow("declared 2^63-1, nothing sent") << header64((quint64(1) << 63) - 1) << Events{} << failed(1009);

    // Close (§5.5.1, §7.4).
    QTest::newRow("close without a code") << frame(ws::kOpClose, "") << Events{} << closed(1005);
    QTest::newRow("close 1000 with a reason")
        << text("{}") + closeFrame(1000, "bye") << Events{"text:{}"} << closed(1000, "bye");
    QTest::newRow("bytes after the close are not read") << closeFrame(1001) + text("late") << Events{} << closed(1001);
    for (quint16 code : {1003, 1007, 1011, 1012, 1014, 3000, 4999})
        QTest::newRow(qPrintable(QStringLiteral("close code %1").arg(code)))
            << closeFrame(code) << Events{} << closed(code);
    for (quint16 code : {0, 999, 1004, 1005, 1006, 1015, 1016, 2000, 2999, 5000, 65535})
        QTest::newRow(qPrintable(QStringLiteral("close code %1 refused").arg(code)))
            << closeFrame(code) << Events{} << failed(1002);
    QTest::newRow("one-byte close payload") << frame(ws::kOpClose, "\x03") << Events{} << failed(1002);
    QTest::newRow("close reason not UTF-8") << closeFrame(1000, "bye \xff") << Events{} << failed(1007);
    QTest::newRow("close reason of 123 bytes")
        << closeFrame(4000, QByteArray(123, 'r')) << Events{} << closed(4000, QByteArray(123, 'r'));
}

// Whole, cut anywhere, a byte at a time, in random splits: the same events, the same end.
void TestWebSocketFrameReader::frames()
{
    QFETCH(QByteArray, wire);
    QFETCH(Events, events);
    QFETCH(QByteArray, end);

    const Result whole = readWhole(wire);
    QCOMPARE(whole.events, events);
    QCOMPARE(whole.end, end);
    QVERIFY(whole.viewsInBuffer);

    if (wire.size() <= 2048) {
        for (qsizetype cut = 1; cut < wire.size(); ++cut) {
            bool first = true;
            const Result r = read(wire, [&] {
                const qsizetype n = first ? cut : wire.size();
                first = false;
                return n;
            });
            QVERIFY2(r.events == events && r.end == end, qPrintable(QStringLiteral("cut at %1").arg(cut)));
            QVERIFY(r.viewsInBuffer);
        }
        const Result bytewise = read(wire, [] { return qsizetype(1); });
        QCOMPARE(bytewise.events, events);
        QCOMPARE(bytewise.end, end);
        QVERIFY(bytewise.viewsInBuffer);
    }
    QRandomGenerator rng(quint32(qHash(wire)));
    for (int round = 0; round < 20; ++round) {
        const Result r = read(wire, [&] { return qsizetype(1 + rng.bounded(rng.bounded(2) ? 16 : 4096)); });
        QCOMPARE(r.events, events);
        QCOMPARE(r.end, end);
        QVERIFY(r.viewsInBuffer);
    }
}

// A message whole in one read, fragmented or not, is handed where the read put it.
void TestWebSocketFrameReader::messageInOneReadIsNotCopied()
{
    const QByteArray wire = text("{}") + text("{\"a\":", false) + frame(ws::kOpPing, "p") + more("1}");
    const Result r = readWhole(wire);
    QCOMPARE(r.events, (Events{"text:{}", "ping:p", "text:{\"a\":1}"}));
    QCOMPARE(r.zeroCopy, (QList<bool>{true, true}));
}

// A message that the reads cut is kept by the reader (pendingBytes) and handed once, padded
// in the receive buffer.
void TestWebSocketFrameReader::messageCutByReadsIsJoinedOnce()
{
    const QByteArray payload(5000, 'z');
    const QByteArray wire = text(payload.left(2000), false) + more(payload.mid(2000));
    ReceiveBuffer buffer;
    WebSocketFrameReader reader(buffer, kLimit);
    Recorder recorder(buffer);
    qsizetype pos = 0;
    for (qsizetype n : {qsizetype(1), qsizetype(1000), qsizetype(3000), wire.size()}) {
        n = std::min(n, wire.size() - pos);
        char *at = reader.prepare(n);
        std::memcpy(at, wire.constData() + pos, std::size_t(n));
        recorder.readStart = buffer.data();
        recorder.readEnd = at + n;
        QCOMPARE(reader.parse(n, recorder), Status::Ok);
        pos += n;
        if (pos < wire.size())
            QVERIFY(reader.pendingBytes() > 0);
    }
    QCOMPARE(recorder.result.events, Events{"text:" + payload});
    QVERIFY(recorder.result.viewsInBuffer);
    QCOMPARE(reader.pendingBytes(), qsizetype(0));
}

// Bad UTF-8 in the first fragment fails there, before the message ends.
void TestWebSocketFrameReader::invalidUtf8FailsAtTheFragmentThatHasIt()
{
    ReceiveBuffer buffer;
    WebSocketFrameReader reader(buffer, kLimit);
    Recorder recorder(buffer);
    const QByteArray first = text("ok \xff more", false);
    char *at = reader.prepare(first.size());
    std::memcpy(at, first.constData(), std::size_t(first.size()));
    QCOMPARE(reader.parse(first.size(), recorder), Status::Failed);
    QCOMPARE(reader.errorCode(), quint16(1007));
    QVERIFY(!reader.errorText().isEmpty());
    QVERIFY(recorder.result.events.isEmpty());
    QCOMPARE(reader.parse(0, recorder), Status::Failed); // and stays failed
}

// The limit is checked on the header: nothing of an oversized payload needs to arrive.
void TestWebSocketFrameReader::oversizedIsRefusedAtItsHeader()
{
    const Result r = read(
        header16(2000), [] { return qsizetype(4); }, 1000);
    QCOMPARE(r.end, QByteArray("failed 1009"));
}

// The handler stops the reading (the connection was dropped): nothing after that message.
void TestWebSocketFrameReader::stopsWhenTheHandlerSaysSo()
{
    ReceiveBuffer buffer;
    WebSocketFrameReader reader(buffer, kLimit);
    Recorder recorder(buffer);
    recorder.stopAfter = 1;
    const QByteArray wire = text("1") + text("2") + frame(ws::kOpPing, "p");
    char *at = reader.prepare(wire.size());
    std::memcpy(at, wire.constData(), std::size_t(wire.size()));
    QCOMPARE(reader.parse(wire.size(), recorder), Status::Stopped);
    QCOMPARE(recorder.result.events, Events{"text:1"});
}

void TestWebSocketFrameReader::resetStartsAfresh()
{
    ReceiveBuffer buffer;
    WebSocketFrameReader reader(buffer, kLimit);
    Recorder recorder(buffer);
    const QByteArray cut = text("abc", false) + QByteArray("\x80", 1);
    char *at = reader.prepare(cut.size());
    std::memcpy(at, cut.constData(), std::size_t(cut.size()));
    QCOMPARE(reader.parse(cut.size(), recorder), Status::Ok);
    QVERIFY(reader.pendingBytes() > 0);
    reader.reset();
    QCOMPARE(reader.pendingBytes(), qsizetype(0));
    const QByteArray fresh = text("new");
    at = reader.prepare(fresh.size());
    std::memcpy(at, fresh.constData(), std::size_t(fresh.size()));
    QCOMPARE(reader.parse(fresh.size(), recorder), Status::Ok);
    QCOMPARE(recorder.result.events, Events{"text:new"});
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestWebSocketFrameReader)
#include "tst_websocketframereader.moc"
