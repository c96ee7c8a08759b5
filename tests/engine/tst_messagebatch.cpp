// MessageDecoder's batch (beginBatch(), decodeInBatch()): the messages of one read laid out as
// the native websocket reader leaves them (frame headers between them) decode to exactly what
// each decodes to alone, bad ones included, and the good ones of a run are read from the batch.

#include "../common/TestRegistry.h"
#include "protocol/MessageDecoder.h"
#include "venues/VenueRegistry.h"

#include <QtTest/QtTest>

#include <cstring>
#include <string>
#include <vector>

using streamscope::DecodedFields;
using streamscope::DecodeSpec;
using streamscope::MessageDecoder;
using streamscope::MessageView;
using streamscope::ReceiveBuffer;

namespace {

const DecodeSpec &binance()
{
    return streamscope::VenueRegistry::entryOf(streamscope::Venue("binance")).decodeSpec();
}

QByteArray aggTrade(int i)
{
    return QStringLiteral("{\"stream\":\"btcusdt@aggTrade\",\"data\":{\"e\":\"aggTrade\",\"E\":%1,\"s\":\"BTCUSDT\","
                          "\"a\":%2,\"p\":\"64000.10\",\"q\":\"0.01\",\"f\":1,\"l\":2,\"T\":%1,\"m\":true}}")
        .arg(1764700000000LL + i)
        .arg(1000 + i)
        .toUtf8();
}

QByteArray depth(int i)
{
    return QStringLiteral("{\"e\":\"depthUpdate\",\"E\":%1,\"s\":\"ETHUSDT\",\"U\":%2,\"u\":%3,\"b\":[[\"1.5\",\"2\"]],"
                          "\"a\":[]}")
        .arg(1764700000000LL + i)
        .arg(10 * i)
        .arg(10 * i + 9)
        .toUtf8();
}

// What one decode gave, its views copied out.
struct BatchResult {
    bool ok = false;
    QString error;
    qint64 eventTime = 0, first = 0, final = 0, trade = 0;
    QByteArray eventType, symbol, stream;

    bool operator==(const BatchResult &o) const
    {
        return ok == o.ok && error == o.error && eventTime == o.eventTime && first == o.first && final == o.final
            && trade == o.trade && eventType == o.eventType && symbol == o.symbol && stream == o.stream;
    }
};

QByteArray bytesOf(std::string_view v)
{
    return QByteArray(v.data(), qsizetype(v.size()));
}

BatchResult resultOf(bool ok, const DecodedFields &f, const MessageDecoder &decoder)
{
    return BatchResult{ok,
                       ok ? QString() : decoder.lastError(),
                       f.eventTime,
                       f.firstUpdateId,
                       f.finalUpdateId,
                       f.tradeId,
                       bytesOf(f.eventType),
                       bytesOf(f.symbol),
                       bytesOf(f.stream)};
}

// Each message alone, in a buffer of its own.
QList<BatchResult> alone(const QList<QByteArray> &messages, bool identity)
{
    MessageDecoder decoder;
    QList<BatchResult> out;
    for (const QByteArray &m : messages) {
        ReceiveBuffer buffer;
        const MessageView view = buffer.copy(m.constData(), m.size());
        DecodedFields f;
        const bool ok = decoder.decode(view, {}, f, binance(), identity);
        out.append(resultOf(ok, f, decoder));
    }
    return out;
}

// The messages in one buffer as a websocket read holds them: a frame header before each (its
// bytes as a server writes them), then decoded as one batch, each asked for in order.
struct Batch {
    ReceiveBuffer buffer;
    std::vector<MessageView> views;

    explicit Batch(const QList<QByteArray> &messages)
    {
        std::string bytes;
        std::vector<std::size_t> at;
        for (const QByteArray &m : messages) {
            bytes += m.size() < 126 ? std::string{char(0x81), char(m.size())}
                                    : std::string{char(0x81), char(126), char(m.size() >> 8), char(m.size() & 0xff)};
            at.push_back(bytes.size());
            bytes.append(m.constData(), std::size_t(m.size()));
        }
        char *base = buffer.reserve(bytes.size());
        std::memcpy(base, bytes.data(), bytes.size());
        for (qsizetype i = 0; i < messages.size(); ++i)
            views.push_back(MessageView{base + at[std::size_t(i)], messages[i].size(), messages[i].size(), true});
    }

    QList<BatchResult> decode(MessageDecoder &decoder, bool identity, const QList<int> &skip = {})
    {
        QList<BatchResult> out;
        decoder.beginBatch(views.data(), qsizetype(views.size()));
        for (qsizetype i = 0; i < qsizetype(views.size()); ++i) {
            if (skip.contains(int(i))) {
                out.append(BatchResult{});
                continue;
            }
            DecodedFields f;
            const bool ok = decoder.decodeInBatch(i, {}, f, binance(), identity);
            out.append(resultOf(ok, f, decoder));
        }
        decoder.endBatch();
        return out;
    }
};

} // namespace

class TestMessageBatch : public QObject {
    Q_OBJECT
private slots:
    void sameAsAlone_data();
    void sameAsAlone();
    void leftOutMessagesAreSkipped();
    void messagesStayIntact();
};

void TestMessageBatch::sameAsAlone_data()
{
    QTest::addColumn<QList<QByteArray>>("messages");
    QTest::addColumn<int>("fromBatch"); // how many are read from the batch
    QList<QByteArray> trades;
    QList<QByteArray> mixed;
    for (int i = 0; i < 50; ++i) {
        trades << aggTrade(i);
        mixed << (i % 3 ? aggTrade(i) : depth(i));
    }
    QTest::newRow("50 trades") << trades << 50;
    QTest::newRow("trades and depth updates") << mixed << 50;
    QTest::newRow("one message") << QList<QByteArray>{aggTrade(1)} << 0;

    // A bad message inside: counted with the error it has alone; the others exact. A run with
    // a message that is no whole document (a string or a bracket left open) is not read from
    // the batch at all: iterate_many's stage 1 cuts off what follows the run's last whole
    // document and guesses the boundaries before it (fuzz_messagebatch).
    QList<QByteArray> bad = trades;
    bad[20] = R"({"e":"aggTrade","E":1764700000000,"s":"BTCUSDT","x":"unclosed})";
    QTest::newRow("an unclosed string inside") << bad << 0;
    bad = trades.mid(0, 2);
    bad << R"({"op":"status":"list-7"})"
        << R"({"error":{"code":2 , "s"0000000000"})";
    QTest::newRow("a missing comma before a string left open") << bad << 0;
    bad = trades;
    bad[20] = R"({"e":"aggTrade","E":1764700000000,"s":"BTCUSDT"}})";
    QTest::newRow("a bracket too many inside") << bad << 20;
    bad = trades;
    bad[20] = R"({"e":"aggTrade","E":"soon","s":"BTCUSDT"})";
    QTest::newRow("a field of the wrong type inside") << bad << 20;
    bad = trades;
    bad[49] = R"({"e":"aggTrade","E":1764700000000,"s":"BTCUSDT"} {})";
    QTest::newRow("trailing content at the end") << bad << 49;
    // Found by fuzz_messagebatch: trailing content that is no whole document (here a bracket
    // too many) is cut off by stage 1, so the last document seemed to end the run.
    bad = trades;
    bad[49] = R"({"e":"aggTrade","E":1764700000000,"s":"BTCUSDT"}ull,"p":"1"}})";
    QTest::newRow("trailing content that is no document, at the end") << bad << 0;
    bad = trades;
    bad[0] = R"({"e":"aggTrade","E":1764700000000,"s":"BTCUSDT")";
    QTest::newRow("the first one cut short") << bad << 49;

    // Messages a batch leaves to decode(): not an object, or too long; the rest form runs.
    QList<QByteArray> others = trades;
    others[10] = R"([{"e":"aggTrade","E":1764700000000,"s":"BTCUSDT"}])";
    others[11] = " " + aggTrade(11);
    others[30] = aggTrade(30).chopped(1) + QByteArray(R"(,"pad":")") + QByteArray(2100, 'x') + "\"}";
    QTest::newRow("an array, a leading space, a long message") << others << 47;
}

void TestMessageBatch::sameAsAlone()
{
    QFETCH(QList<QByteArray>, messages);
    QFETCH(int, fromBatch);
    for (bool identity : {false, true}) {
        const QList<BatchResult> expected = alone(messages, identity);
        Batch batch(messages);
        MessageDecoder decoder;
        const QList<BatchResult> got = batch.decode(decoder, identity);
        QCOMPARE(got.size(), expected.size());
        for (qsizetype i = 0; i < got.size(); ++i) {
            QVERIFY2(got[i] == expected[i],
                     qPrintable(QStringLiteral("message %1: %2 (%3) against %4 (%5)")
                                    .arg(i)
                                    .arg(got[i].ok)
                                    .arg(got[i].error)
                                    .arg(expected[i].ok)
                                    .arg(expected[i].error)));
        }
        QCOMPARE(decoder.batchDecoded(), quint64(fromBatch));
    }
}

// Messages not asked for (a heartbeat, a response) are stepped over in the batch.
void TestMessageBatch::leftOutMessagesAreSkipped()
{
    QList<QByteArray> messages;
    for (int i = 0; i < 20; ++i)
        messages << (i % 4 ? aggTrade(i) : depth(i));
    const QList<BatchResult> expected = alone(messages, false);
    Batch batch(messages);
    MessageDecoder decoder;
    const QList<int> skip{0, 5, 6, 19};
    const QList<BatchResult> got = batch.decode(decoder, false, skip);
    for (qsizetype i = 0; i < got.size(); ++i)
        if (!skip.contains(int(i)))
            QVERIFY2(got[i] == expected[i], qPrintable(QString::number(i)));
    QCOMPARE(decoder.batchDecoded(), quint64(messages.size() - skip.size()));
}

// The batch writes only between messages: every message is left as it came.
void TestMessageBatch::messagesStayIntact()
{
    QList<QByteArray> messages;
    for (int i = 0; i < 30; ++i)
        messages << aggTrade(i);
    Batch batch(messages);
    MessageDecoder decoder;
    batch.decode(decoder, true);
    for (qsizetype i = 0; i < messages.size(); ++i)
        QCOMPARE(QByteArray(batch.views[std::size_t(i)].data, batch.views[std::size_t(i)].size), messages[i]);
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestMessageBatch)
#include "tst_messagebatch.moc"
