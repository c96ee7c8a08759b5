// A read's messages handed to the decoder as one batch (the native websocket transport): many
// frames written at once, or cut in the middle of a frame or of its header, give exactly the
// figures that the same messages give read one at a time (the Qt transport, which hands each
// message alone, on the same bytes in one write): counts, bytes, sequence checks, latencies, the inspector's messages in
// order; a bad message inside a batch is counted and the others stay exact. Trade messages read
// in a batch give the same last trade price as read one at a time.

#include "../common/TestRegistry.h"
#include "IntegrationSupport.h"

#include <QtCore/QCryptographicHash>
#include <QtCore/QDateTime>
#include <QtCore/QTimer>
#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>

using namespace streamscope;
using namespace streamscope::testing;

namespace {

constexpr int kMessages = 300;
constexpr int kBad = 150; // where the bad message goes, in the rows that have one

// A websocket server on 127.0.0.1 that answers the handshake and then, once told to, writes
// the chunks it holds, `gapMs` apart.
class ChunkPeer : public QObject {
public:
    ChunkPeer()
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = m_server.nextPendingConnection())
                connect(s, &QTcpSocket::readyRead, this, [this, s] { onReadyRead(s); });
        });
    }
    bool listen() { return m_server.listen(QHostAddress::LocalHost); }
    quint16 port() const { return m_server.serverPort(); }
    bool open() const { return m_socket; }
    void send(const QList<QByteArray> &chunks, int gapMs)
    {
        m_chunks = chunks;
        m_gapMs = gapMs;
        writeNext();
    }
    bool done() const { return m_chunks.isEmpty(); }

private:
    // Every websocket handshake is answered; the first connection open gets the chunks.
    void onReadyRead(QTcpSocket *s)
    {
        QByteArray &request = m_requests[s];
        if (request.endsWith("\r\n\r\n")) {
            s->readAll(); // the client's frames: read and ignored
            return;
        }
        request += s->readAll();
        if (!request.contains("\r\n\r\n"))
            return;
        QByteArray key;
        for (const QByteArray &line : request.split('\n'))
            if (line.toLower().startsWith("sec-websocket-key:"))
                key = line.mid(qsizetype(qstrlen("sec-websocket-key:"))).trimmed();
        request = "\r\n\r\n";
        if (key.isEmpty())
            return; // not a websocket (the venue's REST probe of the server time): left unanswered
        const QByteArray accept =
            QCryptographicHash::hash(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11", QCryptographicHash::Sha1).toBase64();
        s->write("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                 "Sec-WebSocket-Accept: "
                 + accept + "\r\n\r\n");
        if (!m_socket)
            m_socket = s;
    }
    void writeNext()
    {
        if (m_chunks.isEmpty() || !m_socket)
            return;
        m_socket->write(m_chunks.takeFirst());
        m_socket->flush();
        if (!m_chunks.isEmpty())
            QTimer::singleShot(m_gapMs, this, [this] { writeNext(); });
    }

    QTcpServer m_server;
    QPointer<QTcpSocket> m_socket;
    QHash<QTcpSocket *, QByteArray> m_requests;
    QList<QByteArray> m_chunks;
    int m_gapMs = 0;
};

QByteArray frame(const QByteArray &payload)
{
    QByteArray f;
    f.append(char(0x81));
    if (payload.size() < 126) {
        f.append(char(payload.size()));
    } else {
        f.append(char(126));
        f.append(char(payload.size() >> 8));
        f.append(char(payload.size() & 0xff));
    }
    return f + payload;
}

// Binance depth updates of one symbol, numbered 1, 2, 3... (a lost or doubled one is a gap),
// and, with `bad`, a message that is not JSON among them.
QList<QByteArray> messages(bool bad)
{
    // Event times a little in the past: every message has a latency.
    const qint64 eventMs = QDateTime::currentMSecsSinceEpoch() - 2 * kMessages;
    QList<QByteArray> out;
    for (int i = 1; i <= kMessages; ++i) {
        out << QStringLiteral("{\"e\":\"depthUpdate\",\"E\":%1,\"s\":\"BTCUSDT\",\"U\":%2,\"u\":%2,"
                              "\"b\":[[\"64000.%3\",\"1.5\"]],\"a\":[]}")
                   .arg(eventMs + i)
                   .arg(i)
                   .arg(i % 100, 2, 10, QLatin1Char('0'))
                   .toUtf8();
        if (bad && i == kBad)
            out << QByteArray("{\"e\":\"depthUpdate\",\"E\":1764700000000,\"s\":\"BTCUSDT\",\"x\":\"unclosed}");
    }
    return out;
}

// Binance aggregate trades of one symbol, the price rising by 0.01 each: the last is 64003.00.
QList<QByteArray> trades()
{
    const qint64 eventMs = QDateTime::currentMSecsSinceEpoch() - 2 * kMessages;
    QList<QByteArray> out;
    for (int i = 1; i <= kMessages; ++i)
        out << QStringLiteral("{\"e\":\"aggTrade\",\"E\":%1,\"s\":\"BTCUSDT\",\"a\":%2,\"p\":\"%3.%4\",\"q\":\"0.5\","
                              "\"f\":%2,\"l\":%2,\"T\":%1,\"m\":false,\"M\":true}")
                   .arg(eventMs + i)
                   .arg(i)
                   .arg(64000 + i / 100)
                   .arg(i % 100, 2, 10, QLatin1Char('0'))
                   .toUtf8();
    return out;
}
constexpr qint64 kLastTradePrice = 6400300000000; // 64003.00 in units of 10^-8

// How the frames are written: all at once, or in two writes 100 ms apart, cut a third of the
// way in, in the middle of a frame's payload or of its header.
enum class Split { OneWrite, MidPayload, MidHeader };

QList<QByteArray> chunksOf(const QList<QByteArray> &msgs, Split split)
{
    QList<QByteArray> frames;
    for (const QByteArray &m : msgs)
        frames << frame(m);
    const QByteArray all = frames.join();
    if (split == Split::OneWrite)
        return {all};
    // The frame that the cut falls in: its third byte (a 16-bit length's first byte) or the
    // middle of its payload.
    qsizetype at = 0;
    for (int i = 0; i < frames.size() / 3; ++i)
        at += frames[i].size();
    at += split == Split::MidHeader ? 2 : frames[frames.size() / 3].size() / 2;
    return {all.left(at), all.mid(at)};
}

struct BatchOutcome {
    StreamSnapshot snapshot;
    QList<QByteArray> inspected;
};

// `lastTrades`: the instruments whose last trade price the stream reads (none: it reads none).
BatchOutcome run(WebSocketClient client, const QList<QByteArray> &msgs, Split split,
                 const QSet<QString> &lastTrades = {})
{
    BatchOutcome out;
    ChunkPeer peer;
    if (!peer.listen())
        return out;
    Engine engine;
    StreamConfig c = wsStream(QStringLiteral("batch"), peer.port(), QStringLiteral("ws"));
    c.transport = client;
    c.book = false; // no order book, so no REST snapshot to fetch
    const StreamId id = engine.addStream(c);
    engine.setInspecting(id, true);
    if (!lastTrades.isEmpty())
        engine.setLastTradeInstruments(id, lastTrades, {});
    if (!QTest::qWaitFor([&] { return peer.open(); }, scaledMs(10000)))
        return out;
    QTest::qWait(100); // the inspector's command reaches the worker before the data
    peer.send(chunksOf(msgs, split), 100);
    const auto total = quint64(msgs.size());
    // The inspector is handed a message after every counter has taken it: once the last
    // message is inspected, the snapshot is whole (counting `messages` alone could read it
    // between two counters).
    const auto inspectedAll = [&] {
        for (const InspectedMessage &m : engine.takeInspected(id))
            out.inspected << m.text;
        return peer.done() && quint64(out.inspected.size()) >= total;
    };
    if (!QTest::qWaitFor(inspectedAll, scaledMs(20000)))
        return out;
    // The last trade is published on the worker's next tick.
    if (!lastTrades.isEmpty()
        && !QTest::qWaitFor(
            [&] {
                const QVector<LastTrade> got = engine.snapshot(id).lastTrades;
                return got.size() == 1 && got.first().trades == total;
            },
            scaledMs(10000)))
        return out;
    out.snapshot = engine.snapshot(id, true);
    inspectedAll(); // none may follow
    return out;
}

} // namespace

class TestNativeBatch : public QObject {
    Q_OBJECT
private slots:
    void sameAsOneAtATime_data();
    void sameAsOneAtATime();
    void lastTradeSameAsOneAtATime();
};

void TestNativeBatch::sameAsOneAtATime_data()
{
    QTest::addColumn<int>("split"); // Split
    QTest::addColumn<bool>("bad");
    QTest::newRow("one write") << int(Split::OneWrite) << false;
    QTest::newRow("one write, a bad message inside") << int(Split::OneWrite) << true;
    QTest::newRow("cut in a frame's payload") << int(Split::MidPayload) << false;
    QTest::newRow("cut in a frame's header, a bad message inside") << int(Split::MidHeader) << true;
}

void TestNativeBatch::sameAsOneAtATime()
{
    QFETCH(int, split);
    QFETCH(bool, bad);
    const QList<QByteArray> msgs = messages(bad);
    const BatchOutcome native = run(WebSocketClient::Native, msgs, Split(split));
    const BatchOutcome qt = run(WebSocketClient::Qt, msgs, Split::OneWrite);
    for (const BatchOutcome *o : {&native, &qt}) {
        const StreamSnapshot &s = o->snapshot;
        QCOMPARE(s.messages, quint64(msgs.size()));
        QCOMPARE(s.dataMessages, quint64(msgs.size()));
        QCOMPARE(s.parseErrors, quint64(bad ? 1 : 0));
        QCOMPARE(s.gaps, quint64(0));
        QCOMPARE(s.latency.count, quint64(kMessages));
        QCOMPARE(o->inspected, msgs);
    }
    QCOMPARE(native.snapshot.bytes, qt.snapshot.bytes);
    QCOMPARE(native.snapshot.lastParseError, qt.snapshot.lastParseError);
    QCOMPARE(native.snapshot.latency.count, qt.snapshot.latency.count);
    QCOMPARE(native.snapshot.controlMessages, qt.snapshot.controlMessages);
}

void TestNativeBatch::lastTradeSameAsOneAtATime()
{
    const QList<QByteArray> msgs = trades();
    const QSet<QString> wanted{QStringLiteral("BTC-USDT")};
    const BatchOutcome native = run(WebSocketClient::Native, msgs, Split::OneWrite, wanted);
    const BatchOutcome qt = run(WebSocketClient::Qt, msgs, Split::OneWrite, wanted);
    for (const BatchOutcome *o : {&native, &qt}) {
        QCOMPARE(o->snapshot.messages, quint64(kMessages));
        QCOMPARE(o->snapshot.lastTrades.size(), 1);
        const LastTrade &t = o->snapshot.lastTrades.first();
        QCOMPARE(t.instrument, QStringLiteral("BTCUSDT"));
        QCOMPARE(t.trades, quint64(kMessages));
        QCOMPARE(t.price, kLastTradePrice);
    }
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestNativeBatch)
#include "tst_nativebatch.moc"
