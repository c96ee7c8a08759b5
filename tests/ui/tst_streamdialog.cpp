#include "../common/TestRegistry.h"
#include "StreamDialog.h"
#include "VenueCatalog.h"
#include "VenuePage.h"
#include "Workspace.h"

#include <QtCore/QJsonArray>
#include <QtCore/QRegularExpression>
#include <QtTest/QTest>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QCompleter>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QListWidget>
#include <QtWidgets/QPlainTextEdit>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QRadioButton>
#include <QtWidgets/QSpinBox>

using namespace streamscope;
using namespace streamscope::ui;

class tst_StreamDialog : public QObject {
    Q_OBJECT
private slots:
    void binanceSpotBuildsCombinedUrl();
    void binanceFuturesSubscribeAfterConnect();
    void rejectsBadInputWithMessage_data();
    void rejectsBadInputWithMessage();
    void okButtonKeepsDialogOpenOnError();
    void betfairKeepsSecretsOutOfTheConfig();
    void genericParsesHeadersAndMessages();
    void editRoundTripsABinanceStream();
    void labelsShowNoAmpersand();
    void editKeepsABinanceStreamOnItsOwnUrl();
    void channelVenueBuildsPairsAndPreview();
    void everyChannelVenuePreviewsItsOwnRequest_data();
    void everyChannelVenuePreviewsItsOwnRequest();
    void channelVenueRejectsBadChoices();
    void editKeepsAChannelStreamsOwnPairs();
    void findOpensAChannelOnAnyVenue();
    void websocketClientRoundTrips();

private:
    template<typename T>
    static T *child(QWidget *w, const char *name)
    {
        T *c = w->findChild<T *>(QLatin1String(name));
        if (!c)
            qFatal("no child %s", name);
        return c;
    }
};

void tst_StreamDialog::binanceSpotBuildsCombinedUrl()
{
    StreamDialog d({});
    d.setPreset(StreamDialog::Preset::BinanceSpot);
    QTest::keyClicks(child<QLineEdit>(&d, "symbols"), QStringLiteral("BTCUSDT, ethusdt"));
    child<QCheckBox>(&d, "aggTrade")->setChecked(true);
    child<QCheckBox>(&d, "kline")->setChecked(true);
    child<QComboBox>(&d, "klineInterval")->setCurrentText(QStringLiteral("1m"));
    child<QCheckBox>(&d, "depth")->setChecked(true);
    child<QComboBox>(&d, "depthLevels")->setCurrentText(QStringLiteral("5"));
    child<QComboBox>(&d, "depthSpeed")->setCurrentText(QStringLiteral("100ms"));
    child<QCheckBox>(&d, "bookTicker")->setChecked(true);

    QString error;
    QVERIFY2(d.validate(&error), qPrintable(error));
    const StreamConfig c = d.config();
    QCOMPARE(c.venue, Venue("binance"));
    QCOMPARE(c.url.toString(),
             QStringLiteral("wss://stream.binance.com:9443/stream?streams="
                            "btcusdt@aggTrade/btcusdt@kline_1m/btcusdt@depth5@100ms/btcusdt@bookTicker/"
                            "ethusdt@aggTrade/ethusdt@kline_1m/ethusdt@depth5@100ms/ethusdt@bookTicker"));
    QVERIFY(c.subscribe.isEmpty());
    QCOMPARE(c.name, QStringLiteral("binance-btcusdt-and-1-more")); // the suggestion when no name is typed
    QVERIFY(child<QPlainTextEdit>(&d, "preview")->toPlainText().contains(QStringLiteral("8 streams")));
}

void tst_StreamDialog::binanceFuturesSubscribeAfterConnect()
{
    StreamDialog d({});
    d.setPreset(StreamDialog::Preset::BinanceFutures);
    child<QLineEdit>(&d, "name")->setText(QStringLiteral("fut"));
    child<QLineEdit>(&d, "symbols")->setText(QStringLiteral("BTCUSDT ETHUSDT"));
    QVERIFY(!child<QCheckBox>(&d, "trade")->isEnabled());
    child<QCheckBox>(&d, "aggTrade")->setChecked(true);
    child<QCheckBox>(&d, "depthDiff")->setChecked(true);
    child<QComboBox>(&d, "diffSpeed")->setCurrentText(QStringLiteral("100ms"));
    child<QRadioButton>(&d, "subscribeAfterConnect")->setChecked(true);
    child<QDoubleSpinBox>(&d, "alertRate")->setValue(5);
    child<QCheckBox>(&d, "alertGaps")->setChecked(true);

    QString error;
    QVERIFY2(d.validate(&error), qPrintable(error));
    const StreamConfig c = d.config();
    QCOMPARE(c.url.toString(), QStringLiteral("wss://fstream.binance.com/stream?streams=btcusdt@aggTrade"));
    QCOMPARE(c.subscribe,
             (QStringList{QStringLiteral("btcusdt@depth@100ms"), QStringLiteral("ethusdt@aggTrade"),
                          QStringLiteral("ethusdt@depth@100ms")}));
    QCOMPARE(d.alertRule().stream, QStringLiteral("fut"));
    QCOMPARE(d.alertRule().rateBelow, 5.0);
    QVERIFY(d.alertRule().gaps);
}

void tst_StreamDialog::rejectsBadInputWithMessage_data()
{
    QTest::addColumn<int>("preset");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("error");
    QTest::newRow("bad symbol")
        << int(StreamDialog::Preset::BinanceSpot) << QStringLiteral("x") << QStringLiteral("BTC/USDT")
        << QStringLiteral("Symbol \"BTC/USDT\" is not valid: use 2 to 20 letters and digits, for example BTCUSDT.");
    QTest::newRow("no symbol") << int(StreamDialog::Preset::BinanceSpot) << QStringLiteral("x") << QString()
                               << QStringLiteral("Enter at least one symbol, for example BTCUSDT.");
    QTest::newRow("name taken") << int(StreamDialog::Preset::BinanceSpot) << QStringLiteral("taken")
                                << QStringLiteral("BTCUSDT")
                                << QStringLiteral("A stream named \"taken\" already exists: choose another name.");
    QTest::newRow("generic http url") << int(StreamDialog::Preset::Generic) << QStringLiteral("g")
                                      << QStringLiteral("http://example.com")
                                      << QStringLiteral("URL \"http://example.com\" is not valid: it must start with "
                                                        "ws://, wss://, tcp:// or tls:// and name a host.");
    QTest::newRow("generic tls without port")
        << int(StreamDialog::Preset::Generic) << QStringLiteral("g") << QStringLiteral("tls://example.com")
        << QStringLiteral("URL \"tls://example.com\" needs a port for tls, for example tls://host:443.");
    QTest::newRow("generic empty url") << int(StreamDialog::Preset::Generic) << QStringLiteral("g") << QString()
                                       << QStringLiteral("Enter the URL, for example wss://example.com/feed.");
}

void tst_StreamDialog::rejectsBadInputWithMessage()
{
    QFETCH(int, preset);
    QFETCH(QString, name);
    QFETCH(QString, input);
    QFETCH(QString, error);
    StreamDialog d({QStringLiteral("taken")});
    d.setPreset(StreamDialog::Preset(preset));
    child<QLineEdit>(&d, "name")->setText(name);
    if (preset == int(StreamDialog::Preset::Generic))
        child<QLineEdit>(&d, "url")->setText(input);
    else
        child<QLineEdit>(&d, "symbols")->setText(input);
    QString got;
    QVERIFY(!d.validate(&got));
    QCOMPARE(got, error);
    QCOMPARE(child<QLabel>(&d, "error")->text(), error);
}

void tst_StreamDialog::okButtonKeepsDialogOpenOnError()
{
    StreamDialog d({});
    d.setPreset(StreamDialog::Preset::Generic);
    d.show();
    QVERIFY(QTest::qWaitForWindowExposed(&d));
    child<QLineEdit>(&d, "url")->setText(QStringLiteral("ws://127.0.0.1:9000/feed"));
    child<QLineEdit>(&d, "latencyField")->setText(QStringLiteral("data.E"));
    QTest::mouseClick(child<QPushButton>(&d, "ok"), Qt::LeftButton);
    QVERIFY(d.isVisible());
    QCOMPARE(d.result(), int(QDialog::Rejected));
    QCOMPARE(
        child<QLabel>(&d, "error")->text(),
        QStringLiteral("Latency field \"data.E\" is not a JSON pointer: it must start with /, for example /data/E."));
    child<QLineEdit>(&d, "latencyField")->setText(QStringLiteral("/data/E"));
    QTest::mouseClick(child<QPushButton>(&d, "ok"), Qt::LeftButton);
    QCOMPARE(d.result(), int(QDialog::Accepted));
    QVERIFY(!d.isVisible());
}

void tst_StreamDialog::betfairKeepsSecretsOutOfTheConfig()
{
    StreamDialog d({});
    d.setPreset(StreamDialog::Preset::Betfair);
    child<QLineEdit>(&d, "name")->setText(QStringLiteral("bf main"));
    child<QLineEdit>(&d, "appKey")->setText(QStringLiteral("s3cr3t-app-key"));
    child<QLineEdit>(&d, "session")->setText(QStringLiteral("env:BF_SESSION"));
    child<QLineEdit>(&d, "marketIds")->setText(QStringLiteral("1.120684740 1.2"));
    QString error;
    QVERIFY2(d.validate(&error), qPrintable(error));
    const StreamConfig c = d.config();
    QCOMPARE(c.venue, Venue("betfair"));
    QCOMPARE(c.url.toString(), QStringLiteral("tls://stream-api.betfair.com:443"));
    QCOMPARE(c.appKey, QStringLiteral("keychain:betfair-bf-main-app-key"));
    QCOMPARE(c.session, QStringLiteral("env:BF_SESSION"));
    QCOMPARE(d.secrets().size(), 1);
    QCOMPARE(d.secrets().first().first, QStringLiteral("betfair-bf-main-app-key"));
    QCOMPARE(d.secrets().first().second, QStringLiteral("s3cr3t-app-key"));
    const QJsonArray ids =
        c.marketSubscription[QStringLiteral("marketFilter")].toObject()[QStringLiteral("marketIds")].toArray();
    QCOMPARE(ids.size(), 2);
    QCOMPARE(ids[0].toString(), QStringLiteral("1.120684740"));

    child<QLineEdit>(&d, "marketIds")->setText(QStringLiteral("120684740"));
    QVERIFY(!d.validate(&error));
    QCOMPARE(error,
             QStringLiteral(
                 "Market id \"120684740\" is not valid: expected digits, a dot and digits, for example 1.120684740."));
}

void tst_StreamDialog::genericParsesHeadersAndMessages()
{
    StreamDialog d({});
    d.setPreset(StreamDialog::Preset::Generic);
    child<QLineEdit>(&d, "name")->setText(QStringLiteral("feed"));
    child<QLineEdit>(&d, "url")->setText(QStringLiteral("wss://example.com/feed"));
    child<QPlainTextEdit>(&d, "headers")
        ->setPlainText(QStringLiteral("X-Token: env:FEED_TOKEN\n\nX-Client: streamscope"));
    child<QPlainTextEdit>(&d, "sendOnConnect")->setPlainText(QStringLiteral("{\"op\":\"hello\"}\nPING"));
    child<QLineEdit>(&d, "latencyField")->setText(QStringLiteral("/ts"));
    child<QComboBox>(&d, "latencyUnit")->setCurrentIndex(2); // microseconds
    QString error;
    QVERIFY2(d.validate(&error), qPrintable(error));
    const StreamConfig c = d.config();
    QCOMPARE(c.headers.size(), 2);
    QCOMPARE(c.headers[0].first, QStringLiteral("X-Token"));
    QCOMPARE(c.headers[0].second, QStringLiteral("env:FEED_TOKEN"));
    QCOMPARE(c.sendOnConnect, (QStringList{QStringLiteral("{\"op\":\"hello\"}"), QStringLiteral("PING")}));
    QCOMPARE(c.latencyUnit, LatencyUnit::Microseconds);

    child<QPlainTextEdit>(&d, "headers")->setPlainText(QStringLiteral("no colon here"));
    QVERIFY(!d.validate(&error));
    QCOMPARE(error, QStringLiteral("Header line 1 \"no colon here\" is not valid: write Name: value."));
    // Credentials are references, never literals, in the header and the URL alike.
    child<QPlainTextEdit>(&d, "headers")->setPlainText(QStringLiteral("Authorization: Bearer abc123"));
    QVERIFY(!d.validate(&error));
    QCOMPARE(error,
             QStringLiteral("Header Authorization carries a credential: write its value as env:NAME or "
                            "keychain:NAME; secrets are never stored in a workspace."));
    child<QPlainTextEdit>(&d, "headers")->clear();
    child<QLineEdit>(&d, "url")->setText(QStringLiteral("wss://user:pass@example.com/feed"));
    QVERIFY(!d.validate(&error));
    QCOMPARE(error,
             QStringLiteral("The URL holds a password: secrets are never stored in a workspace. Send it in a "
                            "header whose value is env:NAME or keychain:NAME."));
    child<QLineEdit>(&d, "url")->setText(QStringLiteral("wss://example.com/feed?streams=a&token=abc123"));
    QVERIFY(!d.validate(&error));
    QCOMPARE(error,
             QStringLiteral("The URL's query parameter token carries a credential: write its value as env:NAME "
                            "or keychain:NAME; secrets are never stored in a workspace."));
    child<QLineEdit>(&d, "url")->setText(QStringLiteral("wss://example.com/feed?streams=a&token=env:FEED_TOKEN"));
    QVERIFY2(d.validate(&error), qPrintable(error));
    child<QLineEdit>(&d, "url")->setText(QStringLiteral("wss://example.com/feed"));
    child<QPlainTextEdit>(&d, "sendOnConnect")->setPlainText(QStringLiteral("{\"op\":"));
    QVERIFY(!d.validate(&error));
    QVERIFY2(error.startsWith(QStringLiteral("Message 1 to send on connect is not valid JSON")), qPrintable(error));
}

void tst_StreamDialog::editRoundTripsABinanceStream()
{
    StreamConfig c;
    c.name = QStringLiteral("btc");
    c.venue = Venue("binance");
    c.url = QUrl(QStringLiteral("wss://stream.binance.com:9443/stream?streams=btcusdt@aggTrade/btcusdt@depth20@100ms"));
    c.stallTimeoutMs = 12000;
    AlertRule rule;
    rule.stream = c.name;
    rule.silentS = 7;
    StreamDialog d({QStringLiteral("other")});
    d.setConfig(c, rule);
    QCOMPARE(d.preset(), StreamDialog::Preset::BinanceSpot);
    QCOMPARE(child<QLineEdit>(&d, "symbols")->text(), QStringLiteral("BTCUSDT"));
    QVERIFY(child<QCheckBox>(&d, "depth")->isChecked());
    QString error;
    QVERIFY2(d.validate(&error), qPrintable(error));
    QCOMPARE(d.config().url, c.url);
    QCOMPARE(d.config().name, QStringLiteral("btc"));
    QCOMPARE(d.config().stallTimeoutMs, 12000);
    QCOMPARE(d.alertRule().silentS, 7);
}

// A label with a mnemonic ("&Latency field:") shows the "&" literally unless it has a buddy:
// every such label of every page has one.
void tst_StreamDialog::labelsShowNoAmpersand()
{
    StreamDialog d({});
    const QList<QLabel *> labels = d.findChildren<QLabel *>();
    QVERIFY(!labels.isEmpty());
    for (const QLabel *label : labels) {
        const QString text = label->text();
        const bool mnemonic = text.contains(QRegularExpression(QStringLiteral("(^|[^&])&[^&]")));
        if (mnemonic && label->textFormat() != Qt::RichText && !text.startsWith(QLatin1Char('<')))
            QVERIFY2(label->buddy(), qPrintable(QStringLiteral("\"%1\" has no buddy").arg(text)));
    }
    QLabel *latency = nullptr;
    for (QLabel *label : labels)
        if (label->text() == QStringLiteral("&Latency field:"))
            latency = label;
    QVERIFY(latency);
    QCOMPARE(latency->buddy(), child<QLineEdit>(&d, "latencyField"));
}

// A Binance stream on a URL the Binance page cannot build (the demo's replay server) opens as
// "Binance protocol, own URL" and comes back exactly as it was; switched to Generic, it is a
// generic stream.
void tst_StreamDialog::editKeepsABinanceStreamOnItsOwnUrl()
{
    StreamConfig c;
    c.name = QStringLiteral("clock-off");
    c.venue = Venue("binance");
    c.url = QUrl(QStringLiteral("ws://127.0.0.1:40001/small_aggtrade?rate=20&clock_offset_ms=700"));
    c.subscribe = {QStringLiteral("bnbusdt@aggTrade")};
    c.serverTimeUrl = QUrl(QStringLiteral("http://127.0.0.1:40001/api/v3/time?clock_offset_ms=700"));
    c.stallTimeoutMs = 5000;
    c.reconnectBaseMs = 500;
    StreamDialog d({});
    d.setConfig(c, AlertRule());
    QCOMPARE(d.preset(), StreamDialog::Preset::BinanceOwnUrl);
    QCOMPARE(child<QComboBox>(&d, "preset")->currentText(), QStringLiteral("Binance protocol, own URL"));
    QCOMPARE(child<QLineEdit>(&d, "url")->text(), c.url.toString());
    QString error;
    QVERIFY2(d.validate(&error), qPrintable(error));
    QVERIFY(Workspace::sameStream(d.config(), c));

    d.setPreset(StreamDialog::Preset::Generic);
    QVERIFY2(d.validate(&error), qPrintable(error));
    QCOMPARE(d.config().venue, Venue::Generic);
    QVERIFY(d.config().subscribe.isEmpty());
}

namespace {

void checkChannel(QListWidget *channels, const QString &channel)
{
    const QList<QListWidgetItem *> found = channels->findItems(channel, Qt::MatchExactly);
    QVERIFY2(!found.isEmpty(), qPrintable(channel));
    found.first()->setCheckState(Qt::Checked);
}

} // namespace

// OKX: every instrument × every checked channel, the venue's first endpoint, and a preview of
// the subscribe request OKX's handler sends when the connection comes up.
void tst_StreamDialog::channelVenueBuildsPairsAndPreview()
{
    StreamDialog d({});
    d.setVenue(Venue("okx"));
    QCOMPARE(d.preset(), StreamDialog::Preset::ChannelVenue);
    QCOMPARE(child<QComboBox>(&d, "preset")->currentText(), QStringLiteral("OKX"));
    QTest::keyClicks(child<QLineEdit>(&d, "venueInstruments"), QStringLiteral("BTC-USDT, ETH-USDT BTC-USDT"));
    checkChannel(child<QListWidget>(&d, "venueChannels"), QStringLiteral("books"));
    checkChannel(child<QListWidget>(&d, "venueChannels"), QStringLiteral("trades"));
    QString error;
    QVERIFY2(d.validate(&error), qPrintable(error));
    const StreamConfig c = d.config();
    QCOMPARE(c.venue, Venue("okx"));
    QCOMPARE(c.url, QUrl(QStringLiteral("wss://ws.okx.com:8443/ws/v5/public")));
    QCOMPARE(c.subscribe,
             QStringList({QStringLiteral("books:BTC-USDT"), QStringLiteral("trades:BTC-USDT"),
                          QStringLiteral("books:ETH-USDT"), QStringLiteral("trades:ETH-USDT")}));
    QCOMPARE(c.name, QStringLiteral("okx-btc-usdt-and-1-more"));
    const QString preview = child<QPlainTextEdit>(&d, "venuePreview")->toPlainText();
    QVERIFY2(preview.startsWith(c.url.toString() + QLatin1Char('\n')), qPrintable(preview));
    QVERIFY2(preview.contains(QStringLiteral("\"op\":\"subscribe\"")), qPrintable(preview));
    for (const QString &pair : c.subscribe) {
        const QString instrument = pair.section(QLatin1Char(':'), 1);
        QVERIFY2(preview.contains(QStringLiteral("\"instId\":\"%1\"").arg(instrument)), qPrintable(preview));
    }
    // The preview is what the engine's venue handler sends, connection by connection.
    QStringList expected{c.url.toString()};
    for (const QStringList &texts : VenueCatalog::openingMessages(c))
        for (const QString &text : texts)
            expected << QStringLiteral("→ ") + text;
    QCOMPARE(preview, expected.join(QLatin1Char('\n')));
}

void tst_StreamDialog::everyChannelVenuePreviewsItsOwnRequest_data()
{
    QTest::addColumn<QString>("venue");
    const QList<Venue> venues = VenuePage::venues();
    QVERIFY(venues.size() >= 5); // OKX, Bybit, Coinbase, Kraken, Hyperliquid
    for (const Venue &v : venues)
        QTest::newRow(qPrintable(venueName(v))) << venueName(v);
}

// Each channel venue: its presets fill the page, and the preview holds the venue's own request
// naming the instrument, which differs from venue to venue.
void tst_StreamDialog::everyChannelVenuePreviewsItsOwnRequest()
{
    QFETCH(QString, venue);
    const VenuePresets presets = VenueCatalog::presets(venueFromName(venue));
    StreamDialog d({});
    d.setVenue(venueFromName(venue));
    QCOMPARE(child<QComboBox>(&d, "preset")->currentText(), presets.title);
    const QString instrument = presets.exampleInstruments.value(0);
    QVERIFY(!instrument.isEmpty());
    QCOMPARE(child<QLineEdit>(&d, "venueInstruments")->placeholderText().section(QStringLiteral(", "), 0, 0),
             instrument);
    QTest::keyClicks(child<QLineEdit>(&d, "venueInstruments"), instrument);
    auto *channels = child<QListWidget>(&d, "venueChannels");
    QCOMPARE(channels->count(), int(presets.markets.first().channels.size()));
    channels->item(0)->setCheckState(Qt::Checked);
    QString error;
    QVERIFY2(d.validate(&error), qPrintable(error));
    QCOMPARE(d.config().venue, venueFromName(venue));
    QCOMPARE(d.config().subscribe,
             QStringList{presets.markets.first().channels.first() + QLatin1Char(':') + instrument});
    const QStringList lines = child<QPlainTextEdit>(&d, "venuePreview")->toPlainText().split(QLatin1Char('\n'));
    QVERIFY2(lines.size() >= 2, qPrintable(lines.join(QLatin1Char('|'))));
    bool named = false;
    for (const QString &line : lines.mid(1)) {
        QVERIFY2(line.startsWith(QStringLiteral("→ {")), qPrintable(lines.join(QLatin1Char('|'))));
        named = named || line.contains(instrument);
    }
    QVERIFY2(named, qPrintable(lines.join(QLatin1Char('|'))));
}

void tst_StreamDialog::channelVenueRejectsBadChoices()
{
    StreamDialog d({});
    d.setVenue(Venue("kraken"));
    QString error;
    QVERIFY(!d.validate(&error));
    QVERIFY2(error.startsWith(QStringLiteral("Name at least one instrument (for example BTC/USD)")), qPrintable(error));
    QTest::keyClicks(child<QLineEdit>(&d, "venueInstruments"), QStringLiteral("BTC/USD"));
    QVERIFY(!d.validate(&error));
    QCOMPARE(error, QStringLiteral("Choose at least one channel."));
    checkChannel(child<QListWidget>(&d, "venueChannels"), QStringLiteral("book"));
    QVERIFY2(d.validate(&error), qPrintable(error));
    child<QComboBox>(&d, "venueEndpoint")->setEditText(QStringLiteral("https://ws.kraken.com/v2"));
    QVERIFY(!d.validate(&error));
    QCOMPARE(error, QStringLiteral("The endpoint must be a ws:// or wss:// URL with a host."));
    QCOMPARE(child<QPlainTextEdit>(&d, "venuePreview")->toPlainText(), error);
    child<QComboBox>(&d, "venueEndpoint")->setEditText(QStringLiteral("ws://127.0.0.1:40001/kraken_book"));
    child<QLineEdit>(&d, "venueInstruments")->setText(QString(65, QLatin1Char('X')));
    QVERIFY(!d.validate(&error));
    QVERIFY2(error.contains(QStringLiteral("at most 64 characters")), qPrintable(error));
}

// A stored stream whose pairs are not every instrument × every channel comes back exactly as
// it was; a change of instruments replaces its list with the product of the choices. A custom
// endpoint (a replay server's) and the market are kept.
void tst_StreamDialog::editKeepsAChannelStreamsOwnPairs()
{
    StreamConfig c;
    c.name = QStringLiteral("bybit-mix");
    c.venue = Venue("bybit");
    c.url = QUrl(QStringLiteral("wss://stream.bybit.com/v5/public/linear"));
    c.subscribe = {QStringLiteral("orderbook.50:BTCUSDT"), QStringLiteral("publicTrade:ETHUSDT")};
    StreamDialog d({});
    d.setConfig(c, AlertRule());
    QCOMPARE(d.preset(), StreamDialog::Preset::ChannelVenue);
    QCOMPARE(child<QComboBox>(&d, "venueMarket")->currentData().toString(), QStringLiteral("linear"));
    QCOMPARE(child<QLineEdit>(&d, "venueInstruments")->text(), QStringLiteral("BTCUSDT, ETHUSDT"));
    QVERIFY(!child<QLabel>(&d, "venueKept")->isHidden());
    QString error;
    QVERIFY2(d.validate(&error), qPrintable(error));
    QVERIFY(Workspace::sameStream(d.config(), c));

    QTest::keyClick(child<QLineEdit>(&d, "venueInstruments"), Qt::Key_End);
    QTest::keyClicks(child<QLineEdit>(&d, "venueInstruments"), QStringLiteral(" SOLUSDT"));
    QVERIFY(child<QLabel>(&d, "venueKept")->isHidden());
    QVERIFY2(d.validate(&error), qPrintable(error));
    QCOMPARE(d.config().subscribe.size(), 6); // 3 instruments × 2 channels
    QVERIFY(d.config().subscribe.contains(QStringLiteral("publicTrade:SOLUSDT")));

    // A product list on a replay server's URL round-trips with nothing kept aside.
    c.url = QUrl(QStringLiteral("ws://127.0.0.1:40001/bybit_books"));
    c.subscribe = {QStringLiteral("orderbook.50:BTCUSDT"), QStringLiteral("publicTrade:BTCUSDT")};
    StreamDialog e({});
    e.setConfig(c, AlertRule());
    QVERIFY(child<QLabel>(&e, "venueKept")->isHidden());
    QCOMPARE(child<QComboBox>(&e, "venueEndpoint")->currentText(), c.url.toString());
    QVERIFY2(e.validate(&error), qPrintable(error));
    QVERIFY(Workspace::sameStream(e.config(), c));
}

// The Find box lists every venue's channels and opens the one picked, on its market.
void tst_StreamDialog::findOpensAChannelOnAnyVenue()
{
    StreamDialog d({});
    auto *find = child<QLineEdit>(&d, "find");
    QCompleter *completer = find->completer();
    QVERIFY(completer);
    completer->setCompletionPrefix(QStringLiteral("trade"));
    QStringList found;
    for (int i = 0; completer->setCurrentRow(i); ++i)
        found << completer->currentCompletion();
    QVERIFY2(found.contains(QStringLiteral("Bybit · Linear (USDT/USDC contracts) · publicTrade")),
             qPrintable(found.join(QLatin1Char('|'))));
    QVERIFY2(found.contains(QStringLiteral("OKX · trades")), qPrintable(found.join(QLatin1Char('|'))));
    QVERIFY2(found.contains(QStringLiteral("Binance · Spot · aggTrade")), qPrintable(found.join(QLatin1Char('|'))));

    QVERIFY(d.findChannel(QStringLiteral("Bybit · Linear (USDT/USDC contracts) · publicTrade")));
    QCOMPARE(child<QComboBox>(&d, "preset")->currentText(), QStringLiteral("Bybit"));
    QCOMPARE(child<QComboBox>(&d, "venueMarket")->currentData().toString(), QStringLiteral("linear"));
    QCOMPARE(child<QListWidget>(&d, "venueChannels")
                 ->findItems(QStringLiteral("publicTrade"), Qt::MatchExactly)
                 .first()
                 ->checkState(),
             Qt::Checked);
    QCOMPARE(child<QComboBox>(&d, "venueEndpoint")->currentText(),
             QStringLiteral("wss://stream.bybit.com/v5/public/linear"));

    QVERIFY(d.findChannel(QStringLiteral("Binance · USD-M futures · depthDiff")));
    QCOMPARE(d.preset(), StreamDialog::Preset::BinanceFutures);
    QVERIFY(child<QCheckBox>(&d, "depthDiff")->isChecked());
    QVERIFY(!d.findChannel(QStringLiteral("Nowhere · nothing")));
}

void tst_StreamDialog::websocketClientRoundTrips()
{
    StreamDialog d({});
    d.setPreset(StreamDialog::Preset::Generic);
    child<QLineEdit>(&d, "url")->setText(QStringLiteral("wss://example.com/feed"));
    QString error;
    QVERIFY2(d.validate(&error), qPrintable(error));
    QCOMPARE(d.config().transport, WebSocketClient::Native);
    auto *transport = child<QComboBox>(&d, "transport");
    transport->setCurrentIndex(transport->findData(int(WebSocketClient::Qt)));
    QVERIFY2(d.validate(&error), qPrintable(error));
    QCOMPARE(d.config().transport, WebSocketClient::Qt);

    StreamDialog e({});
    e.setConfig(d.config(), AlertRule());
    QCOMPARE(child<QComboBox>(&e, "transport")->currentData().toInt(), int(WebSocketClient::Qt));
    QVERIFY2(e.validate(&error), qPrintable(error));
    QCOMPARE(e.config().transport, WebSocketClient::Qt);
}

STREAMSCOPE_TEST_MAIN(tst_StreamDialog)
#include "tst_streamdialog.moc"
