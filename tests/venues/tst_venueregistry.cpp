// The venue registry: one line per venue (engine/venues/VenueList.h) gives the engine's
// entries (handler, decode spec, presets) and the replay scenarios, in one order; the public
// VenueCatalog reads the presets from it. No network.

#include "../common/TestRegistry.h"
#include "RecordingHost.h"
#include "VenueCatalog.h"
#include "VenueScenarios.h"
#include "stats/StreamShared.h"
#include "venues/VenueHandler.h"
#include "venues/VenueHost.h"
#include "venues/VenueRegistry.h"

#include <QtTest/QtTest>

using namespace streamscope;

namespace {

QStringList namesOf(const QList<Venue> &venues)
{
    QStringList out;
    for (const Venue v : venues)
        out << venueName(v);
    return out;
}

const FieldRule *ruleFor(const DecodeSpec &spec, const char *key, FieldScope scope)
{
    // As in a message: the key, its quote, and more bytes after it (find() reads 8).
    const std::string quoted = std::string(key) + "\":0,\"padding\":0}";
    return spec.find(quoted.c_str(), scope, true);
}

} // namespace

class TestVenueRegistry : public QObject {
    Q_OBJECT
private slots:
    void listsEveryVenueOnce();
    void decodeSpecs();
    void presets();
    void scenarios();
    void handlers_data();
    void handlers();
};

void TestVenueRegistry::listsEveryVenueOnce()
{
    QCOMPARE(namesOf(VenueCatalog::venues()),
             (QStringList{QStringLiteral("binance"), QStringLiteral("betfair"), QStringLiteral("okx"),
                          QStringLiteral("bybit"), QStringLiteral("hyperliquid"), QStringLiteral("kraken"),
                          QStringLiteral("coinbase"), QStringLiteral("generic")}));
    for (const VenueEntry &e : VenueRegistry::entries()) {
        QVERIFY(e.createHandler && e.decodeSpec && e.presets);
        QCOMPARE(VenueRegistry::find(e.venue), &e);
    }
    QVERIFY(VenueCatalog::isKnown(Venue("binance")));
    QVERIFY(VenueCatalog::isKnown(Venue("okx")));
    QVERIFY(!VenueCatalog::isKnown(Venue("nosuchvenue")));
    QVERIFY(!VenueRegistry::find(Venue::Unknown));
    // A venue the registry does not know gets the generic entry.
    QCOMPARE(VenueRegistry::entryOf(Venue("nosuchvenue")).venue, Venue::Generic);
    QCOMPARE(VenueCatalog::title(Venue("okx")), QStringLiteral("OKX"));
    // Subscriptions as "channel:instrument" (ChannelSubscription.h): the new venues' one shape.
    QVERIFY(VenueCatalog::channelSubscriptions(Venue("okx")));
    QVERIFY(VenueCatalog::channelSubscriptions(Venue("bybit")));
    QVERIFY(VenueCatalog::channelSubscriptions(Venue("hyperliquid")));
    QVERIFY(VenueCatalog::channelSubscriptions(Venue("kraken")));
    QVERIFY(VenueCatalog::channelSubscriptions(Venue("coinbase")));
    QCOMPARE(VenueCatalog::title(Venue("bybit")), QStringLiteral("Bybit"));
    QCOMPARE(VenueCatalog::title(Venue("hyperliquid")), QStringLiteral("Hyperliquid"));
    QVERIFY(!VenueCatalog::channelSubscriptions(Venue("binance")));
    QVERIFY(!VenueCatalog::channelSubscriptions(Venue::Generic));
    QCOMPARE(VenueCatalog::title(Venue("betfair")), QStringLiteral("Betfair"));
    QVERIFY(VenueCatalog::isLineProtocol(Venue("betfair")));
    QVERIFY(!VenueCatalog::isLineProtocol(Venue("binance")));
}

void TestVenueRegistry::decodeSpecs()
{
    const DecodeSpec &binance = VenueRegistry::entryOf(Venue("binance")).decodeSpec();
    const DecodeSpec &betfair = VenueRegistry::entryOf(Venue("betfair")).decodeSpec();
    const DecodeSpec &generic = VenueRegistry::entryOf(Venue::Generic).decodeSpec();

    QCOMPARE(ruleFor(binance, "E", kEventScope)->role, FieldRole::EventTime);
    QCOMPARE(ruleFor(binance, "data", kRootScope)->role, FieldRole::Event);
    QVERIFY(!ruleFor(binance, "data", kEventScope)); // an envelope's only
    QVERIFY(!ruleFor(binance, "pt", kRootScope));
    QCOMPARE(binance.timeUnit, LatencyUnit::Milliseconds);
    QCOMPARE(binance.sequencedEventType, std::string_view("depthUpdate"));
    QCOMPARE(binance.notice.eventType, std::string_view("serverShutdown"));
    QVERIFY(binance.prefixDecode);
    QVERIFY(binance.heartbeat.value.empty());

    QCOMPARE(ruleFor(betfair, "pt", kRootScope)->role, FieldRole::EventTime);
    QCOMPARE(ruleFor(betfair, "mc", kRootScope)->role, FieldRole::Items);
    QCOMPARE(ruleFor(betfair, "img", kItemScope)->role, FieldRole::Flag);
    QVERIFY(!ruleFor(betfair, "E", kRootScope));
    QCOMPARE(betfair.heartbeat.value, std::string_view("HEARTBEAT"));
    QVERIFY(!betfair.prefixDecode); // change lists are read to their end
    QCOMPARE(betfair.head.kindKey, std::string_view("op"));

    // The generic venue reads the conventions of both.
    QCOMPARE(ruleFor(generic, "E", kRootScope)->role, FieldRole::EventTime);
    QCOMPARE(ruleFor(generic, "pt", kRootScope)->role, FieldRole::EventTime);
    QVERIFY(generic.notice.eventType.empty());
    QVERIFY(generic.head.pongText.empty());

    const DecodeSpec &okx = VenueRegistry::entryOf(Venue("okx")).decodeSpec();
    QCOMPARE(ruleFor(okx, "arg", kRootScope)->role, FieldRole::Event);
    QCOMPARE(ruleFor(okx, "data", kRootScope)->role, FieldRole::Event);
    QCOMPARE(ruleFor(okx, "channel", kEventScope)->role, FieldRole::EventType);
    QCOMPARE(ruleFor(okx, "instId", kEventScope)->role, FieldRole::Symbol);
    QCOMPARE(ruleFor(okx, "ts", kEventScope)->role, FieldRole::EventTime);
    QCOMPARE(ruleFor(okx, "seqId", kEventScope)->role, FieldRole::FinalUpdateId);
    QCOMPARE(ruleFor(okx, "prevSeqId", kEventScope)->role, FieldRole::PrevUpdateId);
    QVERIFY(!okx.prefixDecode); // seqId follows a book's levels
    QCOMPARE(okx.head.kindKey, std::string_view("event"));
    QCOMPARE(okx.head.pongText, std::string_view("pong"));
    QVERIFY(!okx.head.rpcResponses);
}

void TestVenueRegistry::presets()
{
    const VenuePresets binance = VenueCatalog::presets(Venue("binance"));
    QCOMPARE(binance.venue, Venue("binance"));
    QCOMPARE(binance.title, QStringLiteral("Binance"));
    QCOMPARE(binance.maxStreamsInUrl, 100);
    QVERIFY(binance.market(QStringLiteral("spot")) && binance.market(QStringLiteral("usdm")));
    const VenueMarket &spot = *binance.market(QStringLiteral("spot"));
    QCOMPARE(spot.endpoints.value(0), QUrl(QStringLiteral("wss://stream.binance.com:9443")));
    QCOMPARE(spot.endpoints.value(1), QUrl(QStringLiteral("wss://data-stream.binance.vision")));
    QCOMPARE(spot.defaultValue(QStringLiteral("interval")), QStringLiteral("1m"));
    QCOMPARE(spot.defaultValue(QStringLiteral("speed")), QStringLiteral("1000ms"));
    QVERIFY(spot.channels.contains(QStringLiteral("trade")));
    QVERIFY(!binance.market(QStringLiteral("usdm"))->channels.contains(QStringLiteral("trade")));
    QCOMPARE(VenueCatalog::streamNames(Venue("binance"), {QStringLiteral("BTCUSDT")}, {QStringLiteral("aggTrade")}),
             QStringList{QStringLiteral("btcusdt@aggTrade")});
    QCOMPARE(VenueCatalog::streamUrl(Venue("binance"), QUrl(QStringLiteral("ws://127.0.0.1:9")),
                                     {QStringLiteral("btcusdt@aggTrade")})
                 .toString(),
             QStringLiteral("ws://127.0.0.1:9/stream?streams=btcusdt@aggTrade"));

    const VenuePresets betfair = VenueCatalog::presets(Venue("betfair"));
    QVERIFY(betfair.lineProtocol);
    QCOMPARE(betfair.markets.size(), 1);
    QCOMPARE(betfair.markets.first().endpoints.value(0), QUrl(QStringLiteral("tls://stream-api.betfair.com:443")));
    QCOMPARE(betfair.markets.first().defaultValue(QStringLiteral("fields")), QStringLiteral("EX_BEST_OFFERS"));
    // Betfair names no streams: the URL is the host.
    QVERIFY(VenueCatalog::streamNames(Venue("betfair"), {QStringLiteral("1.2")}, {QStringLiteral("x")}).isEmpty());

    const VenuePresets generic = VenueCatalog::presets(Venue::Generic);
    QCOMPARE(generic.venue, Venue::Generic);
    QVERIFY(generic.markets.isEmpty());
    QCOMPARE(VenueCatalog::presets(Venue("nosuchvenue")).venue, Venue::Unknown);

    const VenuePresets okx = VenueCatalog::presets(Venue("okx"));
    QCOMPARE(okx.title, QStringLiteral("OKX"));
    QVERIFY(!okx.lineProtocol);
    QCOMPARE(okx.markets.value(0).endpoints.value(0), QUrl(QStringLiteral("wss://ws.okx.com:8443/ws/v5/public")));
    QVERIFY(okx.markets.value(0).channels.contains(QStringLiteral("books")));
    QCOMPARE(VenueCatalog::streamNames(Venue("okx"), {QStringLiteral("BTC-USDT"), QStringLiteral("ETH-USDT")},
                                       {QStringLiteral("books"), QStringLiteral("trades")}),
             (QStringList{QStringLiteral("books:BTC-USDT"), QStringLiteral("books:ETH-USDT"),
                          QStringLiteral("trades:BTC-USDT"), QStringLiteral("trades:ETH-USDT")}));
    // OKX names no streams in its URL.
    const QUrl okxUrl(QStringLiteral("wss://ws.okx.com:8443/ws/v5/public"));
    QCOMPARE(VenueCatalog::streamUrl(Venue("okx"), okxUrl, {QStringLiteral("books:BTC-USDT")}), okxUrl);
}

void TestVenueRegistry::scenarios()
{
    using scenario::VenueScenarios;
    // The same list, in the same order, gives the scenario sets (replay links only these).
    QStringList venues;
    for (const auto &set : VenueScenarios::sets())
        venues << QString::fromLatin1(set.venue);
    QCOMPARE(venues, namesOf(VenueCatalog::venues()));
    QCOMPARE(VenueScenarios::names(),
             (QStringList{
                 QStringLiteral("small_aggtrade"), QStringLiteral("medium_kline"), QStringLiteral("large_depth20"),
                 QStringLiteral("xlarge_depth_diff"), QStringLiteral("huge_ticker_arr"),
                 QStringLiteral("multiplex_mix"), QStringLiteral("book_depth_diff"), QStringLiteral("depth_books"),
                 QStringLiteral("betfair_mcm"), QStringLiteral("okx_books"), QStringLiteral("okx_trades"),
                 QStringLiteral("bybit_books"), QStringLiteral("bybit_trades"), QStringLiteral("hyperliquid_books"),
                 QStringLiteral("hyperliquid_trades"), QStringLiteral("kraken_book"), QStringLiteral("kraken_trades"),
                 QStringLiteral("coinbase_level2"), QStringLiteral("coinbase_trades")}));
    QVERIFY(VenueScenarios::sets().back().scenarios.empty()); // generic
    const scenario::ScenarioDefinition *mcm = VenueScenarios::find(QStringLiteral("betfair_mcm"));
    QVERIFY(mcm && mcm->message && mcm->specials);
    QCOMPARE(mcm->defaultCount, quint64(200000));
    QVERIFY(!VenueScenarios::find(QStringLiteral("nosuch_scenario")));
    // OKX's scenarios answer OKX's own requests: the text ping, op subscribe.
    const scenario::ScenarioDefinition *books = VenueScenarios::find(QStringLiteral("okx_books"));
    QVERIFY(books && books->message && books->specials);
    {
        std::mt19937_64 seed(1);
        scenario::ScenarioBuilder builder(seed);
        scenario::ScenarioSpecials okx;
        books->specials(builder, okx);
        QVERIFY(okx.control);
        QCOMPARE(okx.control("ping").replies, std::vector<QByteArray>{QByteArray("pong")});
        const scenario::ControlAnswer subscribed =
            okx.control(R"({"op":"subscribe","args":[{"channel":"books","instId":"BTC-USDT"}]})");
        QVERIFY(subscribed.startsData);
        QCOMPARE(subscribed.replies.size(), std::size_t(1));
        // "event" first, as OKX writes it: the head scan reads the first key.
        QCOMPARE(
            subscribed.replies[0],
            QByteArray(R"({"event":"subscribe","arg":{"channel":"books","instId":"BTC-USDT"},"connId":"a4d3ae55"})"));
        QVERIFY(okx.control("nonsense").replies.at(0).startsWith(R"({"event":"error","code":"60012","msg":)"));
        const scenario::PoolMessage snapshot = books->message(builder, 0);
        QVERIFY(snapshot.json.contains(R"("action":"snapshot")"));
        QVERIFY(snapshot.json.contains(R"("prevSeqId":-1,)"));
    }
    // A scenario builds messages of its venue, with the places the server patches.
    std::mt19937_64 rng(1);
    scenario::ScenarioBuilder b(rng);
    const scenario::PoolMessage m = VenueScenarios::find(QStringLiteral("small_aggtrade"))->message(b, 0);
    QVERIFY(m.json.startsWith(R"({"stream":"btcusdt@aggTrade","data":{"e":"aggTrade","E":)"));
    QCOMPARE(m.json.mid(m.timeMsOffset, scenario::kTimeMsWidth), QByteArray::number(scenario::kBaseTimeMs));
    scenario::ScenarioSpecials specials;
    mcm->specials(b, specials);
    QVERIFY(specials.changeStream);
    QVERIFY(specials.heartbeat.json.contains(R"("ct":"HEARTBEAT")"));
}

void TestVenueRegistry::handlers_data()
{
    QTest::addColumn<QString>("venue");
    QTest::addColumn<QString>("url");
    QTest::addColumn<int>("perSecond");
    QTest::addColumn<bool>("ownsFreshness");
    QTest::addColumn<bool>("leavesHeartbeatsToTheDecoder");
    QTest::newRow("binance") << QStringLiteral("binance") << QStringLiteral("wss://stream.binance.com:9443/ws") << 5
                             << false << false;
    QTest::newRow("binance futures") << QStringLiteral("binance") << QStringLiteral("wss://fstream.binance.com/ws")
                                     << 10 << false << false;
    QTest::newRow("betfair") << QStringLiteral("betfair") << QStringLiteral("tls://127.0.0.1:443") << 0 << true << true;
    QTest::newRow("generic") << QStringLiteral("generic") << QStringLiteral("ws://127.0.0.1:1/") << 0 << false << false;
    QTest::newRow("okx") << QStringLiteral("okx") << QStringLiteral("wss://ws.okx.com:8443/ws/v5/public") << 0 << false
                         << false;
    QTest::newRow("bybit") << QStringLiteral("bybit") << QStringLiteral("wss://stream.bybit.com/v5/public/spot") << 0
                           << false << false;
    QTest::newRow("hyperliquid") << QStringLiteral("hyperliquid") << QStringLiteral("wss://api.hyperliquid.xyz/ws")
                                 << 30 << false << false;
    QTest::newRow("kraken") << QStringLiteral("kraken") << QStringLiteral("wss://ws.kraken.com/v2") << 0 << false
                            << false;
    QTest::newRow("coinbase") << QStringLiteral("coinbase") << QStringLiteral("wss://advanced-trade-ws.coinbase.com")
                              << 8 << false << true;
    QTest::newRow("not registered: generic")
        << QStringLiteral("nosuchvenue") << QStringLiteral("ws://127.0.0.1:1/") << 0 << false << false;
}

void TestVenueRegistry::handlers()
{
    QFETCH(QString, venue);
    QFETCH(QString, url);
    QFETCH(int, perSecond);
    QFETCH(bool, ownsFreshness);
    QFETCH(bool, leavesHeartbeatsToTheDecoder);
    StreamConfig c;
    c.venue = venueFromName(venue);
    c.url = QUrl(url);
    streamscope::testing::RecordingHost host;
    const std::unique_ptr<VenueHandler> handler = VenueHandler::create(c, host);
    QCOMPARE(handler->controlMessagesPerSecond(), perSecond);
    QCOMPARE(handler->ownsFreshness(), ownsFreshness);
    QCOMPARE(handler->headScanHeartbeats(true) == HeadScanner::Heartbeats::LeaveToDecoder,
             leavesHeartbeatsToTheDecoder);
    QCOMPARE(&handler->decodeSpec(), &VenueRegistry::entryOf(c.venue).decodeSpec());
    // OKX, Bybit and Hyperliquid keep alive with their own text (OKX's after silence, the
    // others' every interval); the others with the transport's ping.
    const QHash<QString, QString> pings = {{QStringLiteral("okx"), QStringLiteral("ping")},
                                           {QStringLiteral("bybit"), QStringLiteral(R"({"op":"ping"})")},
                                           {QStringLiteral("hyperliquid"), QStringLiteral(R"({"method":"ping"})")},
                                           {QStringLiteral("kraken"), QStringLiteral(R"({"method":"ping"})")}};
    QCOMPARE(handler->keepAlivePing(), pings.value(venue));
    QCOMPARE(handler->keepAlivePeriodic(), venue == QLatin1String("bybit") || venue == QLatin1String("hyperliquid"));
    const QHash<QString, int> perConnection = {{QStringLiteral("okx"), 256},    {QStringLiteral("binance"), 1024},
                                               {QStringLiteral("bybit"), 500},  {QStringLiteral("hyperliquid"), 1000},
                                               {QStringLiteral("kraken"), 200}, {QStringLiteral("coinbase"), 100}};
    QCOMPARE(handler->maxStreamsPerConnection(), perConnection.value(venue));
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestVenueRegistry)
#include "tst_venueregistry.moc"
