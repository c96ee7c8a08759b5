#include "StreamDialog.h"
#include "Workspace.h"

#include <QtCore/QJsonArray>
#include <QtCore/QRegularExpression>
#include <QtTest/QTest>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
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

QTEST_MAIN(tst_StreamDialog)
#include "tst_streamdialog.moc"
