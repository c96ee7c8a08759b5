// One instrument across venues: the names venues give a pair are written one way
// (normalizedInstrument), quote assets are never merged, the user's aliases map what a spelling
// cannot tell, and the workspace's "instrument_aliases" and "cross_venue" round-trip and name
// their bad values.

#include "../common/TestRegistry.h"
#include "InstrumentSymbol.h"
#include "Workspace.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

using namespace streamscope;

namespace {
QByteArray workspaceWith(const QByteArray &aliases)
{
    return R"({"version": 1, "streams": [], "instrument_aliases": )" + aliases + "}";
}
} // namespace

class TestInstrumentSymbol : public QObject {
    Q_OBJECT
private slots:
    void normalizes_data()
    {
        QTest::addColumn<QString>("symbol");
        QTest::addColumn<QString>("expected");
        QTest::newRow("OKX, Coinbase: dash") << "BTC-USDT"
                                             << "BTC-USDT";
        QTest::newRow("Binance, Bybit: run of capitals") << "BTCUSDT"
                                                         << "BTC-USDT";
        QTest::newRow("Binance stream names: lowercase") << "btcusdt"
                                                         << "BTC-USDT";
        QTest::newRow("Bitfinex: t prefix") << "tBTCUSDT"
                                            << "BTC-USDT";
        QTest::newRow("Kraken: slash") << "BTC/USDT"
                                       << "BTC-USDT";
        QTest::newRow("underscore") << "btc_usdt"
                                    << "BTC-USDT";
        QTest::newRow("colon") << "BTC:USDT"
                               << "BTC-USDT";
        QTest::newRow("USD stays USD") << "BTCUSD"
                                       << "BTC-USD";
        QTest::newRow("USDC stays USDC") << "BTCUSDC"
                                         << "BTC-USDC";
        QTest::newRow("FDUSD before USD") << "BTCFDUSD"
                                          << "BTC-FDUSD";
        QTest::newRow("TUSD before USD") << "ETHTUSD"
                                         << "ETH-TUSD";
        QTest::newRow("crypto quote") << "ETHBTC"
                                      << "ETH-BTC";
        QTest::newRow("a third part stays") << "BTC-USDT-SWAP"
                                            << "BTC-USDT-SWAP";
        QTest::newRow("bare coin: as it is") << "BTC"
                                             << "BTC";
        QTest::newRow("Kraken's XBT is a spelling only an alias tells") << "XBT/USD"
                                                                        << "XBT-USD";
        QTest::newRow("a base of one letter is no split") << "TUSD"
                                                          << "TUSD";
        QTest::newRow("blanks around") << "  ETH-USD "
                                       << "ETH-USD";
        QTest::newRow("empty") << ""
                               << "";
        QTest::newRow("a lone separator") << "BTC-"
                                          << "";
        QTest::newRow("two separators") << "BTC--USD"
                                        << "";
        QTest::newRow("control character") << "BTC\x1bUSD"
                                           << "";
        QTest::newRow("space inside") << "BTC USD"
                                      << "";
        QTest::newRow("non-ASCII") << QString::fromUtf8("BTC€USD") << "";
        QTest::newRow("too long") << QString(kMaxInstrumentNameChars + 1, QLatin1Char('A')) << "";
    }
    void normalizes()
    {
        QFETCH(QString, symbol);
        QFETCH(QString, expected);
        QCOMPARE(normalizedInstrument(symbol), expected);
    }

    void quoteAssetsAreNeverMerged()
    {
        const QString usd = normalizedInstrument(QStringLiteral("BTC-USD"));
        const QString usdt = normalizedInstrument(QStringLiteral("BTCUSDT"));
        const QString usdc = normalizedInstrument(QStringLiteral("BTC/USDC"));
        QVERIFY(usd != usdt);
        QVERIFY(usd != usdc);
        QVERIFY(usdt != usdc);
    }

    void isNormalized()
    {
        QVERIFY(isNormalizedInstrument(QStringLiteral("BTC-USD")));
        QVERIFY(isNormalizedInstrument(QStringLiteral("BTC")));
        QVERIFY(!isNormalizedInstrument(QStringLiteral("btc-usd")));
        QVERIFY(!isNormalizedInstrument(QStringLiteral("BTCUSD")));
        QVERIFY(!isNormalizedInstrument(QStringLiteral("BTC/USD")));
        QVERIFY(!isNormalizedInstrument(QString()));
    }

    void aliasesResolveSpellings()
    {
        const InstrumentAliases aliases({{QStringLiteral("XBT/USD"), QStringLiteral("BTC-USD")},
                                         {QStringLiteral("BTC"), QStringLiteral("BTC-USD")}});
        QCOMPARE(aliases.resolve(QStringLiteral("XBT/USD")), QStringLiteral("BTC-USD"));
        // Keys compare as normalised spellings: another spelling of the same key matches.
        QCOMPARE(aliases.resolve(QStringLiteral("xbtusd")), QStringLiteral("BTC-USD"));
        QCOMPARE(aliases.resolve(QStringLiteral("BTC")), QStringLiteral("BTC-USD"));
        // What no alias names is its normalised spelling.
        QCOMPARE(aliases.resolve(QStringLiteral("ETHUSDT")), QStringLiteral("ETH-USDT"));
        QCOMPARE(aliases.resolve(QStringLiteral("BTC USD")), QString());
        QCOMPARE(InstrumentAliases().resolve(QStringLiteral("XBT/USD")), QStringLiteral("XBT-USD"));
    }

    void workspaceRoundTrip()
    {
        Workspace ws;
        const auto r = Workspace::parse(workspaceWith(R"({"XBT/USD": "BTC-USD", "BTC": "BTC-USD"})"),
                                        QStringLiteral("ws.json"), ws);
        QVERIFY2(r.ok, qPrintable(r.error));
        QVERIFY(r.warnings.isEmpty());
        QCOMPARE(ws.instrumentAliases.map().size(), 2);
        QCOMPARE(ws.instrumentAliases.resolve(QStringLiteral("XBT/USD")), QStringLiteral("BTC-USD"));

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("ws.json"));
        QString error;
        QVERIFY2(ws.save(path, &error), qPrintable(error));
        Workspace back;
        const auto loaded = Workspace::load(path, back);
        QVERIFY2(loaded.ok, qPrintable(loaded.error));
        QCOMPARE(back.instrumentAliases, ws.instrumentAliases);
        QCOMPARE(back.toJson().value(QStringLiteral("instrument_aliases")).toObject(),
                 (QJsonObject{{QStringLiteral("XBT/USD"), QStringLiteral("BTC-USD")},
                              {QStringLiteral("BTC"), QStringLiteral("BTC-USD")}}));

        // No aliases: no key written.
        QVERIFY(!Workspace().toJson().contains(QStringLiteral("instrument_aliases")));
    }

    void crossVenueKeys()
    {
        Workspace ws;
        auto r = Workspace::parse(
            R"({"version": 1, "streams": [], "cross_venue": {"apart_bps": 25, "apart_for_s": 5, "frozen_s": 60}})",
            QStringLiteral("ws.json"), ws);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(ws.crossVenue.apartBps, 25);
        QCOMPARE(ws.crossVenue.apartForS, 5);
        QCOMPARE(ws.crossVenue.frozenS, 60);
        Workspace back;
        r = Workspace::parse(QJsonDocument(ws.toJson()).toJson(), QStringLiteral("ws.json"), back);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(back.crossVenue, ws.crossVenue);
        QVERIFY(!Workspace().toJson().contains(QStringLiteral("cross_venue"))); // the defaults: not written

        r = Workspace::parse(R"({"version": 1, "streams": [], "cross_venue": {"apart_bps": 0}})",
                             QStringLiteral("ws.json"), ws);
        QVERIFY(!r.ok);
        QCOMPARE(r.error,
                 QStringLiteral("ws.json: cross_venue.apart_bps: expected an integer from 1 to 10000, found 0"));
        r = Workspace::parse(R"({"version": 1, "streams": [], "cross_venue": {"frozen_s": "30"}})",
                             QStringLiteral("ws.json"), ws);
        QVERIFY(!r.ok);
        QCOMPARE(r.error, QStringLiteral("ws.json: cross_venue.frozen_s: expected an integer, found a string"));
        r = Workspace::parse(R"({"version": 1, "streams": [], "cross_venue": {"apart": 3}})", QStringLiteral("ws.json"),
                             ws);
        QVERIFY(r.ok);
        QCOMPARE(r.warnings, QStringList{QStringLiteral("ws.json: cross_venue.apart: unknown key, ignored")});
    }

    void workspaceRejects_data()
    {
        QTest::addColumn<QByteArray>("aliases");
        QTest::addColumn<QString>("error");
        QTest::newRow("not an object") << QByteArray(R"(["XBT/USD"])")
                                       << "ws.json: instrument_aliases: expected an object, found an array";
        QTest::newRow("value not a string")
            << QByteArray(R"({"XBT/USD": 1})")
            << "ws.json: instrument_aliases.\"XBT/USD\": expected a string, found a number";
        QTest::newRow("value not normalised")
            << QByteArray(R"({"XBT/USD": "btc/usd"})")
            << "ws.json: instrument_aliases.\"XBT/USD\": expected a normalised name such as \"BTC-USD\" (capitals, "
               "parts joined by -), found \"btc/usd\"";
        QTest::newRow("key not a name")
            << QByteArray(R"({"XBT USD": "BTC-USD"})")
            << "ws.json: instrument_aliases.\"XBT USD\": expected an instrument name as a venue spells it (letters, "
               "digits and - / _ :, at most 32 characters)";
        QTest::newRow("control character in the key is escaped")
            << QByteArray(R"({"XBT\u001b": "BTC-USD"})")
            << "ws.json: instrument_aliases.\"XBT\\x1b\": expected an instrument name as a venue spells it (letters, "
               "digits and - / _ :, at most 32 characters)";
    }
    void workspaceRejects()
    {
        QFETCH(QByteArray, aliases);
        QFETCH(QString, error);
        Workspace ws;
        const auto r = Workspace::parse(workspaceWith(aliases), QStringLiteral("ws.json"), ws);
        QVERIFY(!r.ok);
        QCOMPARE(r.error, error);
    }

    void workspaceRejectsTooMany()
    {
        QJsonObject o;
        for (int i = 0; i <= InstrumentAliases::kMaxAliases; ++i)
            o.insert(QStringLiteral("C%1USD").arg(i), QStringLiteral("BTC-USD"));
        Workspace ws;
        const auto r = Workspace::parse(workspaceWith(QJsonDocument(o).toJson(QJsonDocument::Compact)),
                                        QStringLiteral("ws.json"), ws);
        QVERIFY(!r.ok);
        QCOMPARE(r.error, QStringLiteral("ws.json: instrument_aliases: expected at most 256 aliases, found 257"));
    }
};

STREAMSCOPE_TEST_GUILESS_MAIN(TestInstrumentSymbol)
#include "tst_instrumentsymbol.moc"
