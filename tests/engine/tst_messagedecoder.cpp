// MessageDecoder: the fields StreamScope reads from venue data messages, and its answer to
// malformed JSON.

#include "../common/TestRegistry.h"
#include "protocol/MessageDecoder.h"
#include "venues/VenueRegistry.h"
#include "venues/betfair/BetfairFields.h"

#include <QtTest/QtTest>

#include <simdjson.h>

#include <cstring>
#include <string>
#include <tuple>

using streamscope::DecodedFields;
using streamscope::DecodeSpec;
using streamscope::MessageDecoder;
using streamscope::MessageView;
using streamscope::ReceiveBuffer;

namespace {

constexpr qint64 kNone = DecodedFields::kNone;

// The venues whose specs the rows use, by number (an int data column).
constexpr int kGeneric = 0;
constexpr int kBinance = 1;
constexpr int kBetfair = 2;
const DecodeSpec &specOf(int venue)
{
    static const char *const kNames[] = {"generic", "binance", "betfair"};
    return streamscope::VenueRegistry::entryOf(streamscope::Venue(kNames[venue])).decodeSpec();
}
const DecodeSpec &generic()
{
    return specOf(kGeneric);
}

QByteArray bytes(std::string_view v)
{
    return QByteArray(v.data(), qsizetype(v.size()));
}

QString noError()
{
    return QString::fromLatin1(simdjson::error_message(simdjson::SUCCESS));
}

// One row of decode_data(): what the message must decode to.
void row(const char *name, const QByteArray &message, const QByteArray &pointer, bool ok, qint64 eventTime,
         const QByteArray &eventType = {}, const QByteArray &symbol = {},
         const QList<qint64> &updateIds = {kNone, kNone, kNone})
{
    QTest::newRow(name) << message << pointer << ok << eventTime << eventType << symbol << updateIds;
}

// Compares the decoded fields; a mismatch fails the test, and the caller must stop on
// QTest::currentTestFailed(), since a QCOMPARE here returns only from this helper.
void checkFields(const DecodedFields &f, qint64 eventTime, const QByteArray &eventType, const QByteArray &symbol,
                 const QList<qint64> &updateIds)
{
    QCOMPARE(qint64(f.eventTime), eventTime);
    QCOMPARE(bytes(f.eventType), eventType);
    QCOMPARE(bytes(f.symbol), symbol);
    QCOMPARE((QList<qint64>{f.firstUpdateId, f.finalUpdateId, f.prevFinalUpdateId}), updateIds);
}

// Records what decodeLevels() hands over, as "b:price:qty" / "a:price:qty", "id:N", "sum:N",
// "event", "symbol:X", "kind:X".
class LevelLog final : public MessageDecoder::LevelSink {
    static QString text(std::string_view v) { return QString::fromUtf8(v.data(), qsizetype(v.size())); }

public:
    bool level(bool ask, std::string_view price, std::string_view qty) override
    {
        log << QStringLiteral("%1:%2:%3").arg(ask ? QLatin1Char('a') : QLatin1Char('b')).arg(text(price), text(qty));
        return true;
    }
    void updateId(std::int64_t id) override { log << QStringLiteral("id:%1").arg(id); }
    void checksum(std::uint32_t value) override { log << QStringLiteral("sum:%1").arg(value); }
    void beginEvent() override { log << QStringLiteral("event"); }
    void eventText(bool symbol, std::string_view value) override
    {
        log << (symbol ? QStringLiteral("symbol:") : QStringLiteral("kind:")) + LevelLog::text(value);
    }
    QStringList log;
};

} // namespace

class tst_MessageDecoder : public QObject {
    Q_OBJECT

private slots:
    void decodeLevels_data();
    void decodeLevels();
    void decode_data();
    void decode();
    void recoversAfterFailure_data();
    void recoversAfterFailure();
    void largerThanInitialBuffer_data();
    void largerThanInitialBuffer();
    void decodesInPlace();
    void messageFollowedByAnotherStaysIntact();
    void venueFields_data();
    void venueFields();
    void withoutIdentity_data();
    void withoutIdentity();
    void withSymbol_data();
    void withSymbol();
    void longMessages_data();
    void longMessages();
    void longMessageAfterAMiss();
    void headOnlyAgreesWithWhole_data();
    void headOnlyAgreesWithWhole();
    void headOnlyWithPointer();
    void longMessageWithPointer_data();
    void longMessageWithPointer();
    void errorSaysWhatWentWrong_data();
    void errorSaysWhatWentWrong();
    void eventTimeBeyondInt64_data();
    void eventTimeBeyondInt64();
    void specGivenAsData_data();
    void specGivenAsData();
};

void tst_MessageDecoder::decode_data()
{
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<QByteArray>("pointer");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<qint64>("eventTime");
    QTest::addColumn<QByteArray>("eventType");
    QTest::addColumn<QByteArray>("symbol");
    QTest::addColumn<QList<qint64>>("updateIds"); // U, u, pu

    const QByteArray none;

    // Binance, raw streams.
    row("Binance aggTrade",
        "{\"e\":\"aggTrade\",\"E\":1672515782136,\"s\":\"BTCUSDT\",\"a\":12345,\"p\":\"0.001\",\"q\":\"100\","
        "\"f\":100,\"l\":105,\"T\":1672515782137,\"m\":true,\"M\":true}",
        none, true, 1672515782136, "aggTrade", "BTCUSDT");
    row("Binance kline, nested k not read",
        "{\"e\":\"kline\",\"E\":1672515782136,\"s\":\"BTCUSDT\",\"k\":{\"t\":1672515780000,\"T\":1672515839999,"
        "\"s\":\"ETHUSDT\",\"i\":\"1m\",\"f\":100,\"L\":200,\"o\":\"1\",\"c\":\"2\",\"h\":\"3\",\"l\":\"0.5\","
        "\"v\":\"10\",\"n\":100,\"x\":false,\"q\":\"1\",\"V\":\"2\",\"Q\":\"3\",\"B\":\"0\"}}",
        none, true, 1672515782136, "kline", "BTCUSDT");
    row("escaped names are unescaped", "{\"e\":\"agg\\u0054rade\",\"E\":1,\"s\":\"A\\\"B\" }", none, true, 1,
        "aggTrade", "A\"B");
    row("names followed by whitespace", "{\"e\" : \"trade\"\n ,\"E\":1,\"s\":\"X\"\t}", none, true, 1, "trade", "X");
    row("event type that is not a string", "{\"e\":5,\"E\":1}", none, false, kNone);
    row("Binance E with whitespace", " {\n  \"e\" : \"trade\" ,\n  \"E\" : 17 \n}\n", none, true, 17, "trade");
    row("Binance E as a float", "{\"E\":1672515782136.75}", none, true, 1672515782136);
    row("Binance E as a string of digits", "{\"E\":\"1672515782136\"}", none, true, 1672515782136);
    // Times of plain digits are read eight at a time (MessageDecoderReaders.h); every length,
    // and what ends them, must read as simdjson reads them.
    row("E of one digit", "{\"E\":7}", none, true, 7);
    row("E of four digits, then a key", "{\"E\":1234,\"e\":\"x\"}", none, true, 1234, "x");
    row("E of eight digits", "{\"E\":12345678}", none, true, 12345678);
    row("E of nine digits", "{\"E\":123456789}", none, true, 123456789);
    row("E of 16 digits", "{\"E\":1672515782136123}", none, true, 1672515782136123);
    row("E of 17 digits", "{\"E\":12345678901234567}", none, true, 12345678901234567);
    row("E of 18 digits", "{\"E\":123456789012345678}", none, true, 123456789012345678);
    row("E of 19 digits", "{\"E\":1672515782136123456}", none, true, 1672515782136123456);
    row("E of eight digits and an exponent", "{\"E\":12345678e1}", none, true, 123456780);
    row("E of 13 digits, then whitespace", "{\"E\":1672515782136 \n,\"e\":\"x\"}", none, true, 1672515782136, "x");
    row("E zero", "{\"E\":0}", none, true, 0);
    row("E negative", "{\"E\":-5}", none, true, -5);
    row("E of digits then a letter", "{\"E\":1672515782136x}", none, false, kNone);
    row("depth diff spot",
        "{\"e\":\"depthUpdate\",\"E\":1672515782136,\"s\":\"BNBBTC\",\"U\":157,\"u\":160,"
        "\"b\":[[\"0.0024\",\"10\"]],\"a\":[[\"0.0026\",\"100\"]]}",
        none, true, 1672515782136, "depthUpdate", "BNBBTC", {157, 160, kNone});
    row("depth diff futures",
        "{\"e\":\"depthUpdate\",\"E\":1672515782136,\"T\":1672515782130,\"s\":\"BTCUSDT\",\"U\":390497796,"
        "\"u\":390497878,\"pu\":390497794,\"b\":[[\"7403.89\",\"0.002\"]],\"a\":[[\"7405.96\",\"3.340\"]]}",
        none, true, 1672515782136, "depthUpdate", "BTCUSDT", {390497796, 390497878, 390497794});
    row("partial depth has no event time",
        "{\"lastUpdateId\":160,\"bids\":[[\"0.0024\",\"10\"]],\"asks\":[[\"0.0026\",\"100\"]]}", none, true, kNone);
    row("ticker array, raw stream",
        "[{\"e\":\"24hrTicker\",\"E\":1672515782100,\"s\":\"BTCUSDT\",\"c\":\"1\"},"
        "{\"e\":\"24hrTicker\",\"E\":1672515782200,\"s\":\"ETHUSDT\",\"c\":\"2\"}]",
        none, true, 1672515782100, "24hrTicker", "BTCUSDT");
    row("empty array", "[]", none, true, kNone);

    // Binance, combined streams.
    row("combined aggTrade",
        "{\"stream\":\"btcusdt@aggTrade\",\"data\":{\"e\":\"aggTrade\",\"E\":1672515782136,\"s\":\"BTCUSDT\","
        "\"a\":12345,\"p\":\"0.001\",\"q\":\"100\",\"T\":1672515782137}}",
        none, true, 1672515782136, "aggTrade", "BTCUSDT");
    row("combined depth diff",
        "{\"stream\":\"bnbbtc@depth@100ms\",\"data\":{\"e\":\"depthUpdate\",\"E\":1672515782136,\"s\":\"BNBBTC\","
        "\"U\":157,\"u\":160,\"b\":[],\"a\":[]}}",
        none, true, 1672515782136, "depthUpdate", "BNBBTC", {157, 160, kNone});
    row("combined partial depth",
        "{\"stream\":\"bnbbtc@depth20\",\"data\":{\"lastUpdateId\":160,\"bids\":[],\"asks\":[]}}", none, true, kNone);
    row("combined serverShutdown",
        "{\"stream\":\"!serverShutdown\",\"data\":{\"e\":\"serverShutdown\",\"E\":1672515782136}}", none, true,
        1672515782136, "serverShutdown");
    row("combined ticker array takes the first E",
        "{\"stream\":\"!ticker@arr\",\"data\":[{\"e\":\"24hrTicker\",\"E\":1672515782100,\"s\":\"BTCUSDT\"},"
        "{\"e\":\"24hrTicker\",\"E\":1672515782200,\"s\":\"ETHUSDT\"}]}",
        none, true, 1672515782100, "24hrTicker", "BTCUSDT");
    row("combined empty array", "{\"stream\":\"!ticker@arr\",\"data\":[]}", none, true, kNone);

    // Betfair.
    row("Betfair mcm pt",
        "{\"op\":\"mcm\",\"id\":2,\"clk\":\"AEYAVAA7\",\"pt\":1449855401068,"
        "\"mc\":[{\"id\":\"1.120684740\",\"rc\":[{\"id\":47972,\"ltp\":2.52}]}]}",
        none, true, 1449855401068);
    row("Betfair heartbeat pt",
        "{\"op\":\"mcm\",\"id\":2,\"clk\":\"AIEBAJ4BAIEB\",\"pt\":1449855402068,\"ct\":\"HEARTBEAT\"}", none, true,
        1449855402068);
    row("Betfair status has no pt",
        "{\"op\":\"status\",\"id\":1,\"statusCode\":\"SUCCESS\",\"connectionClosed\":false}", none, true, kNone);

    // A configured JSON pointer.
    row("pointer /ts, integer", "{\"ts\":1700000000123,\"E\":5}", "/ts", true, 1700000000123);
    row("pointer /ts, float", "{\"x\":1,\"ts\":1700000000123.9}", "/ts", true, 1700000000123);
    row("pointer /ts, string of digits", "{\"ts\":\"1700000000123\"}", "/ts", true, 1700000000123);
    row("pointer /ts, microseconds", "{\"ts\":1700000000123456}", "/ts", true, 1700000000123456);
    row("pointer /data/E", "{\"stream\":\"a@b\",\"data\":{\"e\":\"trade\",\"E\":1672515782136}}", "/data/E", true,
        1672515782136);
    row("pointer into an array", "{\"trades\":[{\"t\":1},{\"t\":2}]}", "/trades/1/t", true, 2);
    row("pointer with an escaped slash", "{\"a/b\":{\"c\":77}}", "/a~1b/c", true, 77);
    row("pointer to a missing field", "{\"x\":1}", "/ts", true, kNone);
    row("pointer past the end of an array", "{\"t\":[1]}", "/t/3", true, kNone);
    row("pointer to a string that is not a number", "{\"ts\":\"soon\"}", "/ts", false, kNone);
    row("pointer to an object", "{\"ts\":{}}", "/ts", false, kNone);
    // Found by fuzz_messagedecoder: simdjson compares a pointer's key with the raw key for the
    // pointer's length, so a key holding '"' matched across quotes ("a" here), and past the
    // message into the buffer's padding, where it depended on an earlier message's bytes.
    row("pointer whose key holds a quote matches nothing", "{\"a\":1,\"b\":5}", "/a\":1,\"b", true, kNone);
    row("pointer whose key holds a backslash matches nothing", "{\"a\\\"\":3}", "/a\\", true, kNone);

    // Malformed JSON.
    row("truncated", "{\"e\":\"aggTrade\",\"E\":1672515782136,\"s\":\"BTC", none, false, kNone);
    row("truncated after a value", "{\"e\":\"aggTrade\",\"E\":1672515782136", none, false, kNone);
    row("garbage", "not json at all", none, false, kNone);
    row("unclosed string", "{\"e\":\"aggTrade", none, false, kNone);
    row("trailing garbage", "{\"e\":\"aggTrade\",\"E\":1672515782136} garbage", none, false, kNone);
    row("trailing garbage after a message without E", "{\"lastUpdateId\":160} x", none, false, kNone);
    row("trailing garbage after a combined message", "{\"stream\":\"a@b\",\"data\":{\"E\":1672515782136}}{\"x\":1}",
        none, false, kNone);
    row("trailing garbage after an array", "[{\"E\":1}] x", none, false, kNone);
    row("missing colon", "{\"e\" \"aggTrade\"}", none, false, kNone);
    row("empty", "", none, false, kNone);
    row("a second document", "{\"E\":1}\n{\"E\":2}", none, false, kNone);
    // A combined trade is read up to its trade id; the rest must still close properly.
    row("combined aggTrade cut short",
        "{\"stream\":\"a@aggTrade\",\"data\":{\"e\":\"aggTrade\",\"E\":1,\"s\":\"X\",\"a\":7,\"p\":\"1\"", none, false,
        kNone);
    row("combined aggTrade with an unclosed array after the id",
        "{\"stream\":\"a@aggTrade\",\"data\":{\"e\":\"aggTrade\",\"E\":1,\"s\":\"X\",\"a\":7,\"p\":[\"1\"}}", none,
        false, kNone);
    row("combined aggTrade followed by trailing content",
        "{\"stream\":\"a@aggTrade\",\"data\":{\"e\":\"aggTrade\",\"E\":1,\"s\":\"X\",\"a\":7,\"p\":\"1\"}} x", none,
        false, kNone);
    row("trailing brace", "{\"E\":1}}", none, false, kNone);

    // Scalars are no events but valid JSON; broken scalars are not.
    row("scalar number", "42", none, true, kNone);
    row("scalar string", "\"text\"", none, true, kNone);
    row("scalar true", "true", none, true, kNone);
    row("scalar null", "null", none, true, kNone);
    row("two scalars", "42 43", none, false, kNone);
    row("broken null", "nul", none, false, kNone);
    row("broken number", "-", none, false, kNone);
    row("E is an object", "{\"E\":{\"t\":1}}", none, false, kNone);
    row("U is a string", "{\"e\":\"depthUpdate\",\"E\":1,\"U\":\"157\"}", none, false, kNone);
}

void tst_MessageDecoder::decode()
{
    QFETCH(QByteArray, message);
    QFETCH(QByteArray, pointer);
    QFETCH(bool, ok);
    QFETCH(qint64, eventTime);
    QFETCH(QByteArray, eventType);
    QFETCH(QByteArray, symbol);
    QFETCH(QList<qint64>, updateIds);

    ReceiveBuffer buffer;

    MessageDecoder decoder;
    DecodedFields fields;
    const bool decoded =
        decoder.decode(buffer.copy(message.constData(), message.size()), pointer.toStdString(), fields, generic());
    if (decoded != ok)
        QFAIL(qPrintable(QStringLiteral("decode returned %1 (%2)").arg(decoded).arg(decoder.lastError())));
    if (!ok) {
        QVERIFY(!decoder.lastError().isEmpty());
        QVERIFY2(decoder.lastError() != noError(), qPrintable(decoder.lastError()));
        return;
    }
    checkFields(fields, eventTime, eventType, symbol, updateIds);
}

void tst_MessageDecoder::recoversAfterFailure_data()
{
    QTest::addColumn<QByteArray>("bad");

    QTest::newRow("after truncated") << QByteArray("{\"e\":\"aggTrade\",\"E\":16725");
    QTest::newRow("after garbage") << QByteArray("\x01\x02garbage\xff");
    QTest::newRow("after unclosed string") << QByteArray("{\"e\":\"aggTrade");
    QTest::newRow("after trailing garbage") << QByteArray("{\"E\":1} }");
    QTest::newRow("after a wrong type") << QByteArray("{\"E\":true}");
}

void tst_MessageDecoder::recoversAfterFailure()
{
    QFETCH(QByteArray, bad);

    const QByteArray good = "{\"stream\":\"bnbbtc@depth\",\"data\":{\"e\":\"depthUpdate\",\"E\":1672515782136,"
                            "\"s\":\"BNBBTC\",\"U\":157,\"u\":160,\"b\":[],\"a\":[]}}";
    ReceiveBuffer buffer;
    MessageDecoder decoder; // one decoder, as on a worker: the parser is reused
    DecodedFields fields;
    for (int round = 0; round < 3; ++round) {
        QVERIFY(!decoder.decode(buffer.copy(bad.constData(), bad.size()), {}, fields, generic()));
        QVERIFY(decoder.lastError() != noError());
        QVERIFY2(decoder.decode(buffer.copy(good.constData(), good.size()), {}, fields, generic()),
                 qPrintable(decoder.lastError()));
        checkFields(fields, 1672515782136, "depthUpdate", "BNBBTC", {157, 160, kNone});
        if (QTest::currentTestFailed())
            return;
    }
}

void tst_MessageDecoder::largerThanInitialBuffer_data()
{
    QTest::addColumn<int>("padBytes");

    QTest::newRow("just under 64 KiB") << 64 * 1024 - 200;
    QTest::newRow("64 KiB") << 64 * 1024;
    QTest::newRow("200 KiB") << 200 * 1024;
    QTest::newRow("3 MiB") << 3 * 1024 * 1024;
}

void tst_MessageDecoder::largerThanInitialBuffer()
{
    QFETCH(int, padBytes);

    ReceiveBuffer buffer;

    MessageDecoder decoder;
    const std::size_t initial = buffer.allocated();
    QCOMPARE(initial, std::size_t(64 * 1024));
    DecodedFields fields;

    // A small message first, so the big one follows a parse at the initial size.
    const QByteArray small = "{\"e\":\"trade\",\"E\":1}";
    QVERIFY(decoder.decode(buffer.copy(small.constData(), small.size()), {}, fields, generic()));
    QCOMPARE(qint64(fields.eventTime), qint64(1));

    // The fields come after the padding, so the whole message must be read.
    const QByteArray big = "{\"pad\":\"" + QByteArray(padBytes, 'p')
        + "\",\"e\":\"depthUpdate\",\"E\":1672515782136,\"s\":\"BTCUSDT\",\"U\":5,\"u\":9}";
    QVERIFY2(decoder.decode(buffer.copy(big.constData(), big.size()), {}, fields, generic()),
             qPrintable(decoder.lastError()));
    checkFields(fields, 1672515782136, "depthUpdate", "BTCUSDT", {5, 9, kNone});
    if (QTest::currentTestFailed())
        return;
    QVERIFY(buffer.allocated() >= std::size_t(big.size()) + simdjson::SIMDJSON_PADDING);

    // Truncated big message: an error, not a read past the end.
    QVERIFY(!decoder.decode(buffer.copy(big.constData(), big.size() - 3), {}, fields, generic()));

    // And small ones still decode in the grown buffer.
    QVERIFY(decoder.decode(buffer.copy(small.constData(), small.size()), {}, fields, generic()));
    QCOMPARE(qint64(fields.eventTime), qint64(1));
    QCOMPARE(bytes(fields.eventType), QByteArray("trade"));
}

void tst_MessageDecoder::decodesInPlace()
{
    // Transports write into the worker's receive buffer once and the decoder reads it there.
    ReceiveBuffer buffer;
    MessageDecoder decoder;
    const QByteArray message = "{\"op\":\"mcm\",\"id\":2,\"clk\":\"AAAA\",\"pt\":1449855400048,\"ct\":\"SUB_IMAGE\"}";
    char *at = buffer.reserve(std::size_t(message.size()));
    QCOMPARE(at, buffer.data());
    std::memcpy(at, message.constData(), std::size_t(message.size()));
    DecodedFields fields;
    QVERIFY(decoder.decode(MessageView{at, message.size(), message.size(), true}, {}, fields, generic()));
    QCOMPARE(qint64(fields.eventTime), qint64(1449855400048));

    // Fields are reset on every call: nothing leaks from the previous message.
    const QByteArray plain = "{\"x\":1}";
    QVERIFY(decoder.decode(buffer.copy(plain.constData(), plain.size()), {}, fields, generic()));
    checkFields(fields, kNone, {}, {}, {kNone, kNone, kNone});
    if (QTest::currentTestFailed())
        return;
}

// Two messages side by side in the receive buffer, as a transport that writes a batch lays
// them out: decoding the first reads and writes past its end (simdjson's padding) and puts
// back what it wrote, so the second is intact and decodes as well.
void tst_MessageDecoder::messageFollowedByAnotherStaysIntact()
{
    ReceiveBuffer buffer;
    MessageDecoder decoder;
    const QByteArray first = "{\"e\":\"trade\",\"E\":1700000000001}";
    const QByteArray second = "}{\"e\":\"trade\",\"E\":1700000000002}"; // starts with the byte decode() clears
    char *at = buffer.reserve(std::size_t(first.size() + second.size()));
    std::memcpy(at, first.constData(), std::size_t(first.size()));
    std::memcpy(at + first.size(), second.constData(), std::size_t(second.size()));
    DecodedFields fields;
    QVERIFY2(decoder.decode(MessageView{at, first.size(), first.size(), true}, {}, fields, generic()),
             qPrintable(decoder.lastError()));
    QCOMPARE(qint64(fields.eventTime), qint64(1700000000001));
    QCOMPARE(QByteArray(at + first.size(), second.size()), second);
    QVERIFY2(decoder.decode(MessageView{at + first.size() + 1, second.size() - 1, second.size() - 1, true}, {}, fields,
                            generic()),
             qPrintable(decoder.lastError()));
    QCOMPARE(qint64(fields.eventTime), qint64(1700000000002));
}

void tst_MessageDecoder::venueFields_data()
{
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<int>("profile");
    QTest::addColumn<QByteArray>("expect"); // "key=value;..." of the fields that must be set

    QTest::newRow("binance combined aggTrade: stream and trade id")
        << QByteArray(
               R"({"stream":"btcusdt@aggTrade","data":{"e":"aggTrade","E":1,"s":"BTCUSDT","a":  1000042,"p":"1"}})")
        << kBinance << QByteArray("stream=btcusdt@aggTrade;tradeId=1000042");
    QTest::newRow("binance combined trade: t is the trade id, not the seller's a") << QByteArray(
        R"({"stream":"btcusdt@trade","data":{"e":"trade","E":1,"s":"BTCUSDT","t":12345,"p":"1","q":"2","b":88,"a":50,"T":2,"m":true,"M":true}})")
                                                                                   << kBinance
                                                                                   << QByteArray("stream=btcusdt@trade;"
                                                                                                 "tradeId=12345");
    QTest::newRow("binance raw trade: t is the trade id")
        << QByteArray(R"({"e":"trade","E":1,"s":"BTCUSDT","t":12345,"p":"1","T":2})") << kBinance
        << QByteArray("tradeId=12345");
    // An event id is an integer or a string std::from_chars reads whole; any other value is none.
    for (const auto &[name, id, want] :
         {std::tuple{"binance aggTrade id as text with a sign", R"("-42")", "tradeId=-42"},
          std::tuple{"binance aggTrade id as 19 digits of text", R"("9223372036854775807")",
                     "tradeId=9223372036854775807"},
          std::tuple{"binance aggTrade id of text not all digits: none", R"("12x")", ""},
          std::tuple{"binance aggTrade id of empty text: none", R"("")", ""},
          std::tuple{"binance aggTrade id true: none", "true", ""}})
        QTest::newRow(name) << QByteArray(
                                   R"({"stream":"btcusdt@aggTrade","data":{"e":"aggTrade","E":1,"s":"BTCUSDT","a":)")
                + id + R"(,"p":"1"}})"
                            << kBinance << QByteArray("stream=btcusdt@aggTrade;") + want;
    QTest::newRow("binance serverShutdown notice")
        << QByteArray(R"({"stream":"!serverShutdown","data":{"e":"serverShutdown","E":1700000000000}})") << kBinance
        << QByteArray("stream=!serverShutdown;eventType=serverShutdown");
    QTest::newRow("betfair SUB_IMAGE") << QByteArray(
        R"({"op":"mcm","id":2,"initialClk":"xAe","clk":"AAA","conflateMs":0,"heartbeatMs":  500,"pt":1,"ct":"SUB_IMAGE","mc":[{"id":"1.2","img":true,"rc":[{"id":1}]}]})")
                                       << kBetfair
                                       << QByteArray("op=mcm;initialClk=xAe;clk=AAA;conflateMs=0;heartbeatMs=500;ct="
                                                     "SUB_IMAGE;image=1");
    QTest::newRow("betfair 503, conflated, segment") << QByteArray(
        R"({"op":"mcm","id":2,"clk":"B","status":503,"segmentType":"SEG_END","pt":1,"mc":[{"id":"1.2","rc":[]},{"id":"1.3","con":true}]})")
                                                     << kBetfair
                                                     << QByteArray(
                                                            "op=mcm;clk=B;status=503;segmentType=SEG_END;conflated=1");
    QTest::newRow("betfair status null is no status")
        << QByteArray(R"({"op":"mcm","id":2,"clk":"C","status":null,"pt":1})") << kBetfair
        << QByteArray("op=mcm;clk=C");
    QTest::newRow("generic profile skips betfair fields")
        << QByteArray(R"({"op":"mcm","clk":"C","status":503,"pt":1,"mc":[{"con":true}]})") << kGeneric
        << QByteArray("");
}

void tst_MessageDecoder::venueFields()
{
    QFETCH(QByteArray, message);
    QFETCH(int, profile);
    QFETCH(QByteArray, expect);
    ReceiveBuffer buffer;
    MessageDecoder decoder;
    DecodedFields f;
    QVERIFY(decoder.decode(buffer.copy(message.constData(), message.size()), std::string(), f, specOf(profile)));
    QMap<QByteArray, QByteArray> want;
    for (const QByteArray &kv : expect.split(';'))
        if (!kv.isEmpty())
            want.insert(kv.left(kv.indexOf('=')), kv.mid(kv.indexOf('=') + 1));
    const auto sv = [](std::string_view v) { return QByteArray(v.data(), qsizetype(v.size())); };
    const auto num = [](std::int64_t v) { return v == DecodedFields::kNone ? QByteArray() : QByteArray::number(v); };
    QCOMPARE(sv(f.stream), want.value("stream"));
    QCOMPARE(num(f.tradeId), want.value("tradeId"));
    if (want.contains("eventType"))
        QCOMPARE(sv(f.eventType), want.value("eventType"));
    // A change message's op is its event type: Betfair's spec reads it, the generic one does not.
    if (profile != kBinance)
        QCOMPARE(sv(f.eventType), want.value("op"));
    namespace bf = streamscope::betfair;
    QCOMPARE(sv(bf::text(f, bf::kClk)), want.value("clk"));
    QCOMPARE(sv(bf::text(f, bf::kInitialClk)), want.value("initialClk"));
    QCOMPARE(sv(bf::text(f, bf::kChangeType)), want.value("ct"));
    QCOMPARE(sv(bf::text(f, bf::kSegmentType)), want.value("segmentType"));
    QCOMPARE(num(bf::number(f, bf::kStatus)), want.value("status"));
    QCOMPARE(num(bf::number(f, bf::kConflateMs)), want.value("conflateMs"));
    QCOMPARE(num(bf::number(f, bf::kHeartbeatMs)), want.value("heartbeatMs"));
    QCOMPARE(f.flag(bf::kImage), want.value("image") == "1");
    QCOMPARE(f.flag(bf::kConflated), want.value("conflated") == "1");
}

// Without the identity (no rollover de-duplicates), an event nested in an envelope is read up
// to its type and time; a depth diff still gives its symbol and sequence fields, and the
// message is still checked to be one well-formed document.
void tst_MessageDecoder::withoutIdentity_data()
{
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<qint64>("eventTime");
    QTest::addColumn<QByteArray>("eventType");
    QTest::addColumn<QByteArray>("symbol");
    QTest::addColumn<QList<qint64>>("updateIds");

    QTest::newRow("combined aggTrade: type and time only")
        << QByteArray(R"({"stream":"btcusdt@aggTrade","data":{"e":"aggTrade","E":17,"s":"BTCUSDT","a":5,"p":"1"}})")
        << true << qint64(17) << QByteArray("aggTrade") << QByteArray() << QList<qint64>{kNone, kNone, kNone};
    QTest::newRow("combined depth diff: symbol and sequence fields") << QByteArray(
        R"({"stream":"btcusdt@depth","data":{"e":"depthUpdate","E":18,"s":"BTCUSDT","U":100,"u":120,"pu":99,"b":[],"a":[]}})")
                                                                     << true << qint64(18) << QByteArray("depthUpdate")
                                                                     << QByteArray("BTCUSDT")
                                                                     << QList<qint64>{100, 120, 99};
    QTest::newRow("combined event with its time before its type")
        << QByteArray(R"({"stream":"x","data":{"E":19,"s":"BTCUSDT","e":"kline","k":{"t":1}}})") << true << qint64(19)
        << QByteArray("kline") << QByteArray("BTCUSDT") << QList<qint64>{kNone, kNone, kNone};
    QTest::newRow("raw event: the root is read to its end")
        << QByteArray(R"({"e":"aggTrade","E":20,"s":"BTCUSDT","a":5})") << true << qint64(20) << QByteArray("aggTrade")
        << QByteArray("BTCUSDT") << QList<qint64>{kNone, kNone, kNone};
    QTest::newRow("unclosed envelope") << QByteArray(R"({"stream":"x","data":{"e":"aggTrade","E":21,"s":"BTCUSDT"})")
                                       << false << kNone << QByteArray() << QByteArray()
                                       << QList<qint64>{kNone, kNone, kNone};
    QTest::newRow("trailing content") << QByteArray(R"({"stream":"x","data":{"e":"aggTrade","E":22}} 7)") << false
                                      << kNone << QByteArray() << QByteArray() << QList<qint64>{kNone, kNone, kNone};
}

void tst_MessageDecoder::withoutIdentity()
{
    QFETCH(QByteArray, message);
    QFETCH(bool, ok);
    QFETCH(qint64, eventTime);
    QFETCH(QByteArray, eventType);
    QFETCH(QByteArray, symbol);
    QFETCH(QList<qint64>, updateIds);
    ReceiveBuffer buffer;
    MessageDecoder decoder;
    DecodedFields f;
    QCOMPARE(
        decoder.decode(buffer.copy(message.constData(), message.size()), std::string(), f, specOf(kBinance), false),
        ok);
    if (!ok)
        return;
    checkFields(f, eventTime, eventType, symbol, updateIds);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(bytes(f.stream), QByteArray());
    QCOMPARE(qint64(f.tradeId), kNone);
}

namespace {

QByteArray levels(int n)
{
    QByteArray out;
    for (int i = 0; i < n; ++i)
        out += (i ? "," : "") + QByteArray("[\"27123.45\",\"0.12345\"]");
    return out;
}

QByteArray tickers(int n)
{
    QByteArray out;
    for (int i = 0; i < n; ++i)
        out += (i ? "," : "") + QByteArray("{\"e\":\"24hrTicker\",\"E\":") + QByteArray::number(1700000000000 + i)
            + ",\"s\":\"SYM" + QByteArray::number(i) + "USDT\",\"c\":\"1.5\",\"n\":7}";
    return out;
}

} // namespace

// A stream that watches each instrument's cadence (session/InstrumentWatch): the walk goes on to
// the event's symbol, and an array of events says whether it is one instrument's or many.
void tst_MessageDecoder::withSymbol_data()
{
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<qint64>("eventTime");
    QTest::addColumn<QByteArray>("symbol");
    QTest::addColumn<bool>("batch");
    QTest::newRow("combined aggTrade: its symbol too")
        << QByteArray(R"({"stream":"btcusdt@aggTrade","data":{"e":"aggTrade","E":17,"s":"BTCUSDT","a":5,"p":"1"}})")
        << qint64(17) << QByteArray("BTCUSDT") << false;
    QTest::newRow("raw event") << QByteArray(R"({"e":"aggTrade","E":20,"s":"ETHUSDT","a":5})") << qint64(20)
                               << QByteArray("ETHUSDT") << false;
    QTest::newRow("array of several instruments")
        << QByteArray(R"({"stream":"!ticker@arr","data":[{"e":"24hrTicker","E":30,"s":"BTCUSDT","c":"1"},)"
                      R"({"e":"24hrTicker","E":31,"s":"ETHUSDT","c":"2"}]})")
        << qint64(30) << QByteArray("BTCUSDT") << true;
    QTest::newRow("array of one instrument's events")
        << QByteArray(R"({"stream":"x","data":[{"e":"trade","E":40,"s":"SOLUSDT","t":1},)"
                      R"({"e":"trade","E":41,"s":"SOLUSDT","t":2},{"e":"trade","E":42,"s":"XRPUSDT","t":3}]})")
        << qint64(40) << QByteArray("SOLUSDT") << false;
    QTest::newRow("array of one event") << QByteArray(R"({"stream":"x","data":[{"e":"trade","E":50,"s":"ADAUSDT"}]})")
                                        << qint64(50) << QByteArray("ADAUSDT") << false;
    QTest::newRow("second element without a symbol")
        << QByteArray(R"({"stream":"x","data":[{"e":"trade","E":60,"s":"ADAUSDT"},{"e":"trade","E":61}]})")
        << qint64(60) << QByteArray("ADAUSDT") << false;
    QTest::newRow("second element not an object")
        << QByteArray(R"({"stream":"x","data":[{"e":"trade","E":70,"s":"ADAUSDT"},7]})") << qint64(70)
        << QByteArray("ADAUSDT") << true;
    QTest::newRow("long ticker array, decoded from its prefix")
        << "{\"stream\":\"!ticker@arr\",\"data\":[" + tickers(300) + "]}" << qint64(1700000000000)
        << QByteArray("SYM0USDT") << true;
}

void tst_MessageDecoder::withSymbol()
{
    QFETCH(QByteArray, message);
    QFETCH(qint64, eventTime);
    QFETCH(QByteArray, symbol);
    QFETCH(bool, batch);
    ReceiveBuffer buffer;
    MessageDecoder decoder;
    DecodedFields f;
    QVERIFY(decoder.decode(buffer.copy(message.constData(), message.size()), std::string(), f, specOf(kBinance), false,
                           true));
    QCOMPARE(qint64(f.eventTime), eventTime);
    QCOMPARE(bytes(f.symbol), symbol);
    QCOMPARE(f.batch, batch);
    // Without the symbol wanted nothing says "batch".
    QVERIFY(decoder.decode(buffer.copy(message.constData(), message.size()), std::string(), f, specOf(kBinance), false,
                           false));
    QVERIFY(!f.batch);
}

void tst_MessageDecoder::longMessages_data()
{
    // Messages of 8 KiB and more are first decoded from a ~2 KiB prefix; whatever the prefix
    // holds or misses, the fields must be those of the whole message.
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<int>("profile");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<qint64>("eventTime");
    QTest::addColumn<QByteArray>("eventType");
    QTest::addColumn<QList<qint64>>("updateIds");
    const int binance = kBinance;

    QTest::newRow("combined depth diff, fields in the head")
        << "{\"stream\":\"btcusdt@depth\",\"data\":{\"e\":\"depthUpdate\",\"E\":1672515782136,\"s\":\"BTCUSDT\",\"U\":"
           "157,"
           "\"u\":357,\"b\":["
            + levels(200) + "],\"a\":[" + levels(200) + "]}}"
        << binance << true << qint64(1672515782136) << QByteArray("depthUpdate") << QList<qint64>{157, 357, kNone};
    QTest::newRow("combined ticker array (object root)")
        << "{\"stream\":\"!ticker@arr\",\"data\":[" + tickers(300) + "]}" << binance << true << qint64(1700000000000)
        << QByteArray("24hrTicker") << QList<qint64>{kNone, kNone, kNone};
    QTest::newRow("raw ticker array (array root)")
        << "[" + tickers(300) + "]" << binance << true << qint64(1700000000000) << QByteArray("24hrTicker")
        << QList<qint64>{kNone, kNone, kNone};
    QTest::newRow("fields after a long array: the whole message is read")
        << "{\"b\":[" + levels(400) + "],\"e\":\"depthUpdate\",\"E\":5,\"U\":6,\"u\":7}" << binance << true << qint64(5)
        << QByteArray("depthUpdate") << QList<qint64>{6, 7, kNone};
    QTest::newRow("brackets and escaped quotes in strings around the cut")
        << "{\"e\":\"depthUpdate\",\"E\":9,\"note\":\"" + QByteArray(2030, 'x')
            + "]}\\\"]}\\\\\",\"U\":1,\"u\":2,\"b\":[" + levels(300) + "]}"
        << binance << true << qint64(9) << QByteArray("depthUpdate") << QList<qint64>{1, 2, kNone};
    QTest::newRow("fields before a long string")
        << "{\"e\":\"depthUpdate\",\"E\":10,\"U\":3,\"u\":4,\"note\":\"" + QByteArray(20000, 'x') + "\",\"b\":["
            + levels(100) + "]}"
        << binance << true << qint64(10) << QByteArray("depthUpdate") << QList<qint64>{3, 4, kNone};
    QTest::newRow("malformed in the head")
        << "{\"e\":\"depthUpdate\",\"E\":1,,\"U\":1,\"u\":2,\"b\":[" + levels(400) + "]}" << binance << false << kNone
        << QByteArray() << QList<qint64>{kNone, kNone, kNone};
    QTest::newRow("unclosed string in the head")
        << "{\"e\":\"depthUpdate,\"E\":1,\"b\":[" + levels(400) + "]}" << binance << false << kNone << QByteArray()
        << QList<qint64>{kNone, kNone, kNone};
    // What the lazy tail gives up: a tail left unread is not checked for its grammar.
    QTest::newRow("malformed only in the unread tail is not an error")
        << "{\"e\":\"depthUpdate\",\"E\":1,\"U\":1,\"u\":2,\"b\":[" + levels(400) + ",,]}" << binance << true
        << qint64(1) << QByteArray("depthUpdate") << QList<qint64>{1, 2, kNone};
    // Betfair reads every change of mc[]: a long message is read whole.
    QTest::newRow("betfair image, the whole list read")
        << "{\"op\":\"mcm\",\"id\":2,\"pt\":1449855400048,\"ct\":\"SUB_IMAGE\",\"mc\":[{\"id\":\"1.1\",\"rc\":["
            + levels(400) + "]},{\"id\":\"1.2\",\"img\":true}]}"
        << kBetfair << true << qint64(1449855400048) << QByteArray("mcm") // a change message's type is its op
        << QList<qint64>{kNone, kNone, kNone};
    QTest::newRow("betfair, malformed at the end")
        << "{\"op\":\"mcm\",\"id\":2,\"pt\":1449855400048,\"mc\":[{\"id\":\"1.1\",\"rc\":[" + levels(400) + "]},]}"
        << kBetfair << false << kNone << QByteArray() << QList<qint64>{kNone, kNone, kNone};
}

void tst_MessageDecoder::longMessages()
{
    QFETCH(QByteArray, message);
    QFETCH(int, profile);
    QFETCH(bool, ok);
    QFETCH(qint64, eventTime);
    QFETCH(QByteArray, eventType);
    QFETCH(QList<qint64>, updateIds);
    QVERIFY(std::size_t(message.size()) >= MessageDecoder::kPrefixMinBytes);

    ReceiveBuffer buffer;

    MessageDecoder decoder;
    DecodedFields fields;
    const bool decoded = decoder.decode(buffer.copy(message.constData(), message.size()), {}, fields, specOf(profile));
    QVERIFY2(decoded == ok, qPrintable(decoder.lastError()));
    // The buffer holds the message unchanged afterwards (the inspector may show it).
    QCOMPARE(QByteArray(buffer.data(), message.size()), message);
    if (!ok)
        return;
    QCOMPARE(qint64(fields.eventTime), eventTime);
    QCOMPARE(bytes(fields.eventType), eventType);
    QCOMPARE((QList<qint64>{fields.firstUpdateId, fields.finalUpdateId, fields.prevFinalUpdateId}), updateIds);
    if (profile == kBetfair)
        QVERIFY(fields.flag(streamscope::betfair::kImage)); // from the last change of the list
}

void tst_MessageDecoder::longMessageAfterAMiss()
{
    // After a prefix that did not hold the fields, the next long messages are read whole at
    // once: the fields are still right.
    ReceiveBuffer buffer;
    MessageDecoder decoder;
    DecodedFields fields;
    const QByteArray late = "{\"b\":[" + levels(400) + "],\"e\":\"depthUpdate\",\"E\":5,\"U\":6,\"u\":7}";
    const QByteArray early = "{\"e\":\"depthUpdate\",\"E\":8,\"U\":9,\"u\":10,\"b\":[" + levels(400) + "]}";
    for (int i = 0; i < 300; ++i) {
        const QByteArray &m = i % 2 ? early : late;
        QVERIFY(decoder.decode(buffer.copy(m.constData(), m.size()), {}, fields, specOf(kBinance)));
        checkFields(fields, i % 2 ? 8 : 5, "depthUpdate", {},
                    i % 2 ? QList<qint64>{9, 10, kNone} : QList<qint64>{6, 7, kNone});
        if (QTest::currentTestFailed())
            return;
    }
}

// A parsed stream's long message may be converted only up to its decoder's head: the fields
// from the head are those of the whole message, or the head says the whole is needed. What
// lies beyond the head in the buffer (another message's bytes) is never read.
void tst_MessageDecoder::headOnlyAgreesWithWhole_data()
{
    longMessages_data();
}

void tst_MessageDecoder::headOnlyAgreesWithWhole()
{
    QFETCH(QByteArray, message);
    QFETCH(int, profile);
    QFETCH(bool, ok);
    QFETCH(qint64, eventTime);
    QFETCH(QByteArray, eventType);
    QFETCH(QList<qint64>, updateIds);
    const DecodeSpec &p = specOf(profile);
    const auto len = std::size_t(message.size());
    ReceiveBuffer buffer;
    MessageDecoder decoder;
    const std::size_t head = decoder.headBytes(len, {}, p);
    if (profile == kBetfair) {
        QCOMPARE(head, std::size_t(0)); // change lists are read to their end
        return;
    }
    QCOMPARE(head, MessageDecoder::kHeadBytes);
    char *at = buffer.reserve(len);
    std::memcpy(at, message.constData(), head);
    std::memset(at + head, '"', len - head);
    DecodedFields fields;
    const bool fromHead = decoder.decodeHead(MessageView{at, qsizetype(head), qsizetype(len), true}, {}, fields, p);
    QCOMPARE(QByteArray(at, qsizetype(head)), message.left(qsizetype(head)));
    const QString tag = QString::fromLatin1(QTest::currentDataTag());
    if (tag.startsWith(QLatin1String("combined")) || tag.startsWith(QLatin1String("raw ticker")))
        QVERIFY(fromHead);
    if (!fromHead) {
        QCOMPARE(decoder.headBytes(len, {}, p), std::size_t(0)); // the next ones go whole at once
        return;
    }
    QVERIFY(ok);
    QCOMPARE(qint64(fields.eventTime), eventTime);
    QCOMPARE(bytes(fields.eventType), eventType);
    QCOMPARE((QList<qint64>{fields.firstUpdateId, fields.finalUpdateId, fields.prevFinalUpdateId}), updateIds);
}

void tst_MessageDecoder::headOnlyWithPointer()
{
    const QByteArray pad(70000, 'x');
    const QByteArray first = "{\"ts\":1700000000123456789,\"p\":\"" + pad + "\"}";
    const QByteArray last = "{\"p\":\"" + pad + "\",\"ts\":17}";
    ReceiveBuffer buffer;
    MessageDecoder decoder;
    DecodedFields fields;
    const std::string pointer = "/ts";
    const std::size_t head = decoder.headBytes(std::size_t(first.size()), pointer, specOf(kGeneric));
    QCOMPARE(head, MessageDecoder::kHeadBytes);
    const auto headOf = [&](const QByteArray &message) {
        char *at = buffer.reserve(std::size_t(message.size()));
        std::memcpy(at, message.constData(), head);
        return MessageView{at, qsizetype(head), message.size(), true};
    };
    QVERIFY(decoder.decodeHead(headOf(first), pointer, fields, specOf(kGeneric)));
    QCOMPARE(qint64(fields.eventTime), qint64(1700000000123456789));
    QVERIFY(!decoder.decodeHead(headOf(last), pointer, fields, specOf(kGeneric)));
    // The whole message then, as the transport converts it after a miss.
    QVERIFY(decoder.decode(buffer.copy(last.constData(), last.size()), pointer, fields, generic()));
    QCOMPARE(qint64(fields.eventTime), qint64(17));
}

void tst_MessageDecoder::longMessageWithPointer_data()
{
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<QByteArray>("pointer");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<qint64>("eventTime");
    const QByteArray pad(20000, 'x');
    QTest::newRow("stamp first, long payload") << "{\"ts\":1700000000123456789,\"p\":\"" + pad + "\"}"
                                               << QByteArray("/ts") << true << qint64(1700000000123456789);
    QTest::newRow("stamp as digits first, long payload") << "{\"ts\":\"1700000000123456789\",\"p\":\"" + pad + "\"}"
                                                         << QByteArray("/ts") << true << qint64(1700000000123456789);
    QTest::newRow("stamp first, escaped quote early in the long payload")
        << "{\"ts\":18,\"p\":\"ab\\\"" + pad + "\"}" << QByteArray("/ts") << true << qint64(18);
    QTest::newRow("stamp after the payload")
        << "{\"p\":\"" + pad + "\",\"ts\":17}" << QByteArray("/ts") << true << qint64(17);
    QTest::newRow("stamp inside an array past the cut")
        << "{\"b\":[" + levels(400) + "],\"t\":[{\"ts\":5},{\"ts\":6}]}" << QByteArray("/t/1/ts") << true << qint64(6);
    QTest::newRow("no such field") << "{\"p\":\"" + pad + "\",\"x\":1}" << QByteArray("/ts") << true << kNone;
    QTest::newRow("pointer to the long string")
        << "{\"ts\":\"" + pad + "\",\"x\":1}" << QByteArray("/ts") << false << kNone;
}

void tst_MessageDecoder::longMessageWithPointer()
{
    QFETCH(QByteArray, message);
    QFETCH(QByteArray, pointer);
    QFETCH(bool, ok);
    QFETCH(qint64, eventTime);
    ReceiveBuffer buffer;
    MessageDecoder decoder;
    DecodedFields fields;
    QCOMPARE(decoder.decode(buffer.copy(message.constData(), message.size()), pointer.toStdString(), fields, generic()),
             ok);
    QCOMPARE(QByteArray(buffer.data(), message.size()), message);
    if (ok)
        QCOMPARE(qint64(fields.eventTime), eventTime);
}

void tst_MessageDecoder::errorSaysWhatWentWrong_data()
{
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<QByteArray>("pointer");
    QTest::addColumn<QString>("errorStart");
    QTest::newRow("truncated") << QByteArray("{\"e\":\"aggTrade\",\"E\":16725") << QByteArray()
                               << QStringLiteral("not valid JSON (");
    QTest::newRow("time is a boolean") << QByteArray("{\"e\":\"x\",\"E\":true}") << QByteArray()
                                       << QStringLiteral("field \"E\" has the wrong type (");
    QTest::newRow("time is a word") << QByteArray("{\"e\":\"x\",\"E\":\"soon\"}") << QByteArray()
                                    << QStringLiteral("field \"E\" has the wrong type (");
    QTest::newRow("event type is a number")
        << QByteArray("{\"e\":5,\"E\":1}") << QByteArray() << QStringLiteral("field \"e\" has the wrong type (");
    QTest::newRow("nested in the envelope")
        << QByteArray("{\"stream\":\"a\",\"data\":{\"e\":\"depthUpdate\",\"E\":1,\"U\":\"x\"}}") << QByteArray()
        << QStringLiteral("field \"U\" has the wrong type (");
    QTest::newRow("update id beyond int64") << QByteArray("{\"e\":\"depthUpdate\",\"U\":99999999999999999999}")
                                            << QByteArray() << QStringLiteral("field \"U\" is a number out of range (");
    QTest::newRow("time at a pointer is an object") << QByteArray("{\"t\":{\"ts\":{}}}") << QByteArray("/t/ts")
                                                    << QStringLiteral("field \"/t/ts\" has the wrong type (");
}

void tst_MessageDecoder::errorSaysWhatWentWrong()
{
    QFETCH(QByteArray, message);
    QFETCH(QByteArray, pointer);
    QFETCH(QString, errorStart);
    ReceiveBuffer buffer;
    MessageDecoder decoder;
    DecodedFields fields;
    QVERIFY(
        !decoder.decode(buffer.copy(message.constData(), message.size()), pointer.toStdString(), fields, generic()));
    QVERIFY2(decoder.lastError().startsWith(errorStart), qPrintable(decoder.lastError()));
    QCOMPARE(decoder.lastErrorIsField(), !errorStart.startsWith(QLatin1String("not valid JSON")));
}

void tst_MessageDecoder::eventTimeBeyondInt64_data()
{
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<qint64>("eventTime");
    QTest::newRow("1e300") << QByteArray("{\"e\":\"x\",\"E\":1e300}") << qint64(INT64_MAX);
    QTest::newRow("-1e300") << QByteArray("{\"e\":\"x\",\"E\":-1e300}") << qint64(INT64_MIN + 1);
    QTest::newRow("2^63 - 1") << QByteArray("{\"e\":\"x\",\"E\":9223372036854775807}") << qint64(INT64_MAX);
    QTest::newRow("2^63") << QByteArray("{\"e\":\"x\",\"E\":9223372036854775808}") << qint64(INT64_MAX);
    QTest::newRow("-2^63 (the absent marker)")
        << QByteArray("{\"e\":\"x\",\"E\":-9223372036854775808}") << qint64(INT64_MIN + 1);
    QTest::newRow("-2^63 as a string") << QByteArray("{\"e\":\"x\",\"E\":\"-9223372036854775808\"}")
                                       << qint64(INT64_MIN + 1);
    QTest::newRow("9.3e18 as a double") << QByteArray("{\"e\":\"x\",\"E\":9.3e18}") << qint64(INT64_MAX);
    QTest::newRow("a fraction") << QByteArray("{\"e\":\"x\",\"E\":1672515782136.5}") << qint64(1672515782136);
}

void tst_MessageDecoder::eventTimeBeyondInt64()
{
    QFETCH(QByteArray, message);
    QFETCH(qint64, eventTime);
    ReceiveBuffer buffer;
    MessageDecoder decoder;
    DecodedFields fields;
    QVERIFY2(decoder.decode(buffer.copy(message.constData(), message.size()), {}, fields, generic()),
             qPrintable(decoder.lastError()));
    QCOMPARE(fields.eventTime, eventTime);
}

namespace {

// A venue that does not exist, described as data the way a venue's folder describes its own:
// the decoder must read what the spec names and nothing it knows from elsewhere.
enum AcmeText : quint8 { kAcmeNote = 2 };
enum AcmeNumber : quint8 { kAcmeLevel = 1 };
enum AcmeFlag : quint8 { kAcmeHidden = 3 };

const DecodeSpec &acmeSpec()
{
    using streamscope::FieldRole;
    static const DecodeSpec spec = [] {
        DecodeSpec s{
            {.key = "ts", .role = FieldRole::EventTime},
            {.key = "ch", .role = FieldRole::EventType},
            {.key = "inst", .role = FieldRole::Symbol},
            {.key = "seqFrom", .role = FieldRole::FirstUpdateId},
            {.key = "seqTo", .role = FieldRole::FinalUpdateId},
            {.key = "prevTo", .role = FieldRole::PrevUpdateId},
            {.key = "note", .role = FieldRole::Text, .scopes = streamscope::kRootScope, .slot = kAcmeNote},
            {.key = "level", .role = FieldRole::Number, .scopes = streamscope::kRootScope, .slot = kAcmeLevel},
            {.key = "payload", .role = FieldRole::Event, .scopes = streamscope::kRootScope},
            {.key = "changes", .role = FieldRole::Items, .scopes = streamscope::kRootScope},
            {.key = "hidden", .role = FieldRole::Flag, .scopes = streamscope::kItemScope, .slot = kAcmeHidden},
        };
        s.timeUnit = streamscope::LatencyUnit::Microseconds;
        return s;
    }();
    return spec;
}

} // namespace

// A spec given as data decodes what it names, with the unit it gives, where it says (root,
// nested event, list items); the keys of the venues StreamScope knows mean nothing to it. So
// the decoder holds no venue's knowledge: a new venue is a new spec.
void tst_MessageDecoder::specGivenAsData_data()
{
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<qint64>("eventTime");
    QTest::addColumn<QByteArray>("eventType");
    QTest::addColumn<QByteArray>("symbol");
    QTest::addColumn<QList<qint64>>("updateIds");
    QTest::addColumn<QByteArray>("venueFields"); // note, level, hidden

    QTest::newRow("root event, microseconds, sequence") << QByteArray(
        R"({"ts":1700000000123456,"ch":"book","inst":"BTC-USDT","seqFrom":10,"seqTo":12,"prevTo":9,"bids":[["1","2"]]})")
                                                        << true << qint64(1700000000123456) << QByteArray("book")
                                                        << QByteArray("BTC-USDT") << QList<qint64>{10, 12, 9}
                                                        << QByteArray("|-|0");
    QTest::newRow("event nested in the envelope, time as digits")
        << QByteArray(R"({"note":"hi","level":3,"payload":{"ts":"1700000000123457","ch":"trade","inst":"ETH-USDT"}})")
        << true << qint64(1700000000123457) << QByteArray("trade") << QByteArray("ETH-USDT")
        << QList<qint64>{kNone, kNone, kNone} << QByteArray("hi|3|0");
    QTest::newRow("flags from every item of a list")
        << QByteArray(R"({"ts":5,"changes":[{"id":1,"hidden":false},{"id":2,"hidden":true}],"level":null})") << true
        << qint64(5) << QByteArray() << QByteArray() << QList<qint64>{kNone, kNone, kNone} << QByteArray("|-|1");
    QTest::newRow("Binance's keys mean nothing to it")
        << QByteArray(R"({"stream":"a@b","data":{"e":"depthUpdate","E":1672515782136,"s":"BNBBTC","U":157,"u":160}})")
        << true << kNone << QByteArray() << QByteArray() << QList<qint64>{kNone, kNone, kNone} << QByteArray("|-|0");
    QTest::newRow("Betfair's keys mean nothing to it")
        << QByteArray(R"({"op":"mcm","pt":1449855401068,"clk":"A","status":503,"mc":[{"con":true}]})") << true << kNone
        << QByteArray() << QByteArray() << QList<qint64>{kNone, kNone, kNone} << QByteArray("|-|0");
    // Long messages: the walk stops before a long tail only once the sequence fields are known
    // (this spec wants them in every event), whether they come before the tail or after it.
    QTest::newRow("long, sequence before the tail")
        << "{\"ts\":7,\"ch\":\"book\",\"seqFrom\":1,\"seqTo\":2,\"bids\":[" + levels(400) + "]}" << true << qint64(7)
        << QByteArray("book") << QByteArray() << QList<qint64>{1, 2, kNone} << QByteArray("|-|0");
    QTest::newRow("long, sequence after the tail")
        << "{\"ts\":8,\"ch\":\"book\",\"bids\":[" + levels(400) + "],\"seqFrom\":3,\"seqTo\":4}" << true << qint64(8)
        << QByteArray("book") << QByteArray() << QList<qint64>{3, 4, kNone} << QByteArray("|-|0");
    QTest::newRow("its own key of the wrong type")
        << QByteArray(R"({"ts":1,"seqFrom":"x"})") << false << kNone << QByteArray() << QByteArray()
        << QList<qint64>{kNone, kNone, kNone} << QByteArray();
}

void tst_MessageDecoder::specGivenAsData()
{
    QFETCH(QByteArray, message);
    QFETCH(bool, ok);
    QFETCH(qint64, eventTime);
    QFETCH(QByteArray, eventType);
    QFETCH(QByteArray, symbol);
    QFETCH(QList<qint64>, updateIds);
    QFETCH(QByteArray, venueFields);
    ReceiveBuffer buffer;
    MessageDecoder decoder;
    DecodedFields f;
    const bool decoded = decoder.decode(buffer.copy(message.constData(), message.size()), {}, f, acmeSpec());
    QCOMPARE(decoded, ok);
    if (!ok) {
        QCOMPARE(decoder.lastError().left(28), QStringLiteral("field \"seqFrom\" has the wron"));
        return;
    }
    checkFields(f, eventTime, eventType, symbol, updateIds);
    if (QTest::currentTestFailed())
        return;
    const QByteArray level =
        f.numbers[kAcmeLevel] == DecodedFields::kNone ? QByteArray("-") : QByteArray::number(f.numbers[kAcmeLevel]);
    QCOMPARE(bytes(f.texts[kAcmeNote]) + '|' + level + '|' + QByteArray::number(int(f.flag(kAcmeHidden))), venueFields);
    // The unit is the spec's: the session turns this time into microseconds with it.
    if (eventTime != kNone)
        QCOMPARE(qint64(double(f.eventTime) * streamscope::microsecondsPerUnit(acmeSpec().timeUnit)), eventTime);
}

// The level shapes of the venues' books (book/BookRules.h, LevelKeys): [price, qty] arrays of
// strings, longer arrays, objects of JSON numbers whose text is handed over as sent, one array
// of both sides named by a side key, a checksum, an event array of several instruments.
void tst_MessageDecoder::decodeLevels_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<int>("shape");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QStringList>("log");
    // shape 0: Binance diff; 1: OKX; 2: Kraken; 3: Coinbase; 4: Binance REST snapshot
    QTest::newRow("binance diff in an envelope")
        << QByteArray(R"({"stream":"x","data":{"e":"depthUpdate","b":[["1.50","2"]],"a":[["1.60","0"]]}})") << 0 << true
        << QStringList{QStringLiteral("b:1.50:2"), QStringLiteral("a:1.60:0")};
    QTest::newRow("binance snapshot at the root")
        << QByteArray(R"({"lastUpdateId":160,"bids":[["0.0024","10"]],"asks":[]})") << 4 << true
        << QStringList{QStringLiteral("id:160"), QStringLiteral("b:0.0024:10")};
    QTest::newRow("okx: data array, four strings a level")
        << QByteArray(R"({"arg":{"channel":"books"},"action":"update","data":[{"asks":[["8476.98","415","0","13"]],)"
                      R"("bids":[],"checksum":0,"prevSeqId":1,"seqId":2}]})")
        << 1 << true << QStringList{QStringLiteral("a:8476.98:415")};
    QTest::newRow("kraken: number text as sent, checksum")
        << QByteArray(R"({"channel":"book","type":"update","data":[{"symbol":"BTC/USD","bids":[{"price":45283.5,)"
                      R"("qty":0.10000000},{"qty":2 , "price":0.00001}],"asks":[],"checksum":3310070434}]})")
        << 2 << true
        << QStringList{QStringLiteral("b:45283.5:0.10000000"), QStringLiteral("b:0.00001:2"),
                       QStringLiteral("sum:3310070434")};
    QTest::newRow("kraken: a checksum beyond 32 bits")
        << QByteArray(R"({"channel":"book","data":[{"bids":[],"asks":[],"checksum":4294967296}]})") << 2 << false
        << QStringList{};
    QTest::newRow("kraken: a level without its quantity")
        << QByteArray(R"({"channel":"book","data":[{"bids":[{"price":1.5}],"asks":[]}]})") << 2 << false
        << QStringList{};
    QTest::newRow("coinbase: one array, sides named, two events")
        << QByteArray(R"({"channel":"l2_data","sequence_num":3,"events":[{"type":"update","product_id":"BTC-USD",)"
                      R"("updates":[{"side":"bid","event_time":"t","price_level":"10.5","new_quantity":"1"},)"
                      R"({"side":"offer","event_time":"t","price_level":"11","new_quantity":"0"}]},)"
                      R"({"type":"snapshot","product_id":"ETH-USD","updates":[{"side":"offer","price_level":"2",)"
                      R"("new_quantity":"3"}]}]})")
        << 3 << true << QStringList{QStringLiteral("event"),          QStringLiteral("kind:update"),
                                    QStringLiteral("symbol:BTC-USD"), QStringLiteral("b:10.5:1"),
                                    QStringLiteral("a:11:0"),         QStringLiteral("event"),
                                    QStringLiteral("kind:snapshot"),  QStringLiteral("symbol:ETH-USD"),
                                    QStringLiteral("a:2:3")};
    // A book's update id: an integer, or a string of 1 to 18 digits (no sign); anything else fails.
    QTest::newRow("update id of 18 digits of text")
        << QByteArray(R"({"lastUpdateId":"123456789012345678","bids":[],"asks":[]})") << 4 << true
        << QStringList{QStringLiteral("id:123456789012345678")};
    for (const char *id : {R"("1234567890123456789")", R"("-5")", R"("")", R"("12a")", "true", "1.5"})
        QTest::newRow(qPrintable(QStringLiteral("update id %1: fails").arg(QLatin1String(id))))
            << QByteArray(R"({"lastUpdateId":)") + id + R"(,"bids":[],"asks":[]})" << 4 << false << QStringList{};
    QTest::newRow("coinbase: a side that is neither")
        << QByteArray(R"({"channel":"l2_data","events":[{"type":"update","product_id":"BTC-USD","updates":[)"
                      R"({"side":"ask","price_level":"1","new_quantity":"1"}]}]})")
        << 3 << false << QStringList{};
}

void tst_MessageDecoder::decodeLevels()
{
    QFETCH(QByteArray, json);
    QFETCH(int, shape);
    QFETCH(bool, ok);
    QFETCH(QStringList, log);
    MessageDecoder::LevelKeys keys[] = {
        {"data", "b", "a", {}},
        {"data", "bids", "asks", {}},
        {.event = "data",
         .bids = "bids",
         .asks = "asks",
         .updateId = {},
         .price = "price",
         .qty = "qty",
         .checksum = "checksum"},
        {.event = "events",
         .bids = {},
         .asks = {},
         .updateId = {},
         .price = "price_level",
         .qty = "new_quantity",
         .levels = "updates",
         .side = "side",
         .bidSide = "bid",
         .askSide = "offer",
         .checksum = {},
         .eventSymbol = "product_id",
         .eventKind = "type"},
        {{}, "bids", "asks", "lastUpdateId"},
    };
    ReceiveBuffer buffer;
    MessageDecoder decoder;
    LevelLog sink;
    const MessageView view = buffer.copy(json.constData(), json.size());
    QCOMPARE(decoder.decodeLevels(view, keys[shape], sink), ok);
    if (ok)
        QCOMPARE(sink.log, log);
}

STREAMSCOPE_TEST_GUILESS_MAIN(tst_MessageDecoder)
#include "tst_messagedecoder.moc"
