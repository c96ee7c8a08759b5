#include "DemoWorkspace.h"

#include "BuiltinCertificate.h"
#include "ReplayServerThread.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtCore/QSaveFile>
#include <QtCore/QStandardPaths>

#include <utility>

namespace streamscope::app {

namespace {

constexpr char kAppKeyVariable[] = "STREAMSCOPE_DEMO_APP_KEY";
constexpr char kSessionVariable[] = "STREAMSCOPE_DEMO_SESSION";

// Writes the replay server's certificate to `path` (its folder made if needed); returns the
// path, or an empty string when it cannot be written.
QString writeCertificate(const QString &path)
{
    if (path.isEmpty() || !QDir().mkpath(QFileInfo(path).absolutePath()))
        return {};
    QSaveFile f(path);
    const QByteArray pem = replay::builtinCertificatePem();
    if (!f.open(QIODevice::WriteOnly) || f.write(pem) != pem.size() || !f.commit())
        return {};
    return path;
}

} // namespace

DemoWorkspace::DemoWorkspace() = default;

DemoWorkspace::~DemoWorkspace() = default;

bool DemoWorkspace::start(QString *error)
{
    using replay::ReplayOptions;
    m_websocket = std::make_unique<replay::ReplayServerThread>();
    ReplayOptions ws;
    ws.loop = true;
    ws.rate = 100;
    const quint16 wsPort = m_websocket->start(ws);
    m_wsPort = wsPort;
    if (!wsPort) {
        *error = QStringLiteral("demo websocket server: ") + m_websocket->errorString();
        return false;
    }

    // The certificate the Betfair stream trusts, where a saved workspace still finds it.
    // The generic data folder and the application's name, not AppLocalDataLocation: that adds
    // the organisation's name too, and ours is the application's ("StreamScope/StreamScope").
    const QString genericData = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    const QString dataDir =
        genericData.isEmpty() ? QString() : QDir(genericData).filePath(QCoreApplication::applicationName());
    const QString fileName = QStringLiteral("demo-replay-ca.pem");
    m_caPath = writeCertificate(dataDir.isEmpty() ? QString() : QDir(dataDir).filePath(fileName));
    if (m_caPath.isEmpty() && m_dir.isValid())
        m_caPath = writeCertificate(m_dir.filePath(fileName));
    if (m_caPath.isEmpty()) {
        *error = QStringLiteral("demo: cannot write the demo certificate to %1 or a temporary folder").arg(dataDir);
        return false;
    }
    const QString caPath = m_caPath;
    m_lines = std::make_unique<replay::ReplayServerThread>();
    ReplayOptions lines;
    lines.protocol = ReplayOptions::Protocol::Line;
    lines.tls = true;
    lines.scenario = QStringLiteral("betfair_mcm");
    lines.loop = true;
    lines.rate = 50;
    const quint16 linePort = m_lines->start(lines);
    m_linePort = linePort;
    if (!linePort) {
        *error = QStringLiteral("demo line server: ") + m_lines->errorString();
        return false;
    }

    const auto wsUrl = [wsPort](const QString &pathAndQuery) {
        return QUrl(QStringLiteral("ws://127.0.0.1:%1/%2").arg(wsPort).arg(pathAndQuery));
    };
    const auto binance = [&](const QString &name, const QString &pathAndQuery, const QStringList &subscribe) {
        StreamConfig c;
        c.name = name;
        c.venue = Venue("binance");
        c.url = wsUrl(pathAndQuery);
        c.subscribe = subscribe;
        c.stallTimeoutMs = 5000;
        c.reconnectBaseMs = 500;
        c.reconnectMaxMs = 8000;
        return c;
    };
    Workspace &w = m_workspace;
    w.streams = {
        binance(QStringLiteral("btcusdt-aggtrade"), QStringLiteral("small_aggtrade?rate=400"),
                {QStringLiteral("btcusdt@aggTrade")}),
        binance(QStringLiteral("btcusdt-kline-1m"), QStringLiteral("medium_kline?rate=40"),
                {QStringLiteral("btcusdt@kline_1m")}),
        binance(QStringLiteral("btcusdt-depth20"), QStringLiteral("large_depth20?rate=10"),
                {QStringLiteral("btcusdt@depth20@100ms")}),
        binance(QStringLiteral("btcusdt-depth-diff"),
                QStringLiteral("book_depth_diff?rate=10&misbehave=gap&after=150&gap=3"),
                {QStringLiteral("btcusdt@depth@100ms")}),
        binance(QStringLiteral("multiplex-mix"), QStringLiteral("multiplex_mix?rate=300"), {}),
        binance(QStringLiteral("flaky-feed"),
                QStringLiteral("small_aggtrade?rate=50&misbehave=drop&after=1000&drop_every=1"),
                {QStringLiteral("ethusdt@aggTrade")}),
        binance(QStringLiteral("stalling-feed"),
                QStringLiteral("small_aggtrade?rate=20&misbehave=silent&after=400&silent_ms=12000"),
                {QStringLiteral("solusdt@aggTrade")}),
    };
    // The depth diffs keep one coherent book, whose REST snapshot the replay server answers
    // under the scenario's name: the stream's book syncs, and resyncs after the gap.
    w.streams[3].restUrl = QUrl(QStringLiteral("http://127.0.0.1:%1/book_depth_diff").arg(wsPort));
    // A venue whose clock is 700 ms ahead of ours: its raw latencies are all negative, and the
    // server time (asked with the same offset) explains them (docs/clock.md).
    StreamConfig clockOff =
        binance(QStringLiteral("clock-off"), QStringLiteral("small_aggtrade?rate=20&clock_offset_ms=700"),
                {QStringLiteral("bnbusdt@aggTrade")});
    clockOff.serverTimeUrl = QUrl(QStringLiteral("http://127.0.0.1:%1/api/v3/time?clock_offset_ms=700").arg(wsPort));
    w.streams.append(clockOff);
    StreamConfig raw = binance(QStringLiteral("ticker-arr-raw"), QStringLiteral("huge_ticker_arr?rate=1"), {});
    raw.mode = DecodeMode::Raw;
    raw.maxMessageBytes = 4 * 1024 * 1024;
    w.streams.append(raw);

    StreamConfig bf;
    bf.name = QStringLiteral("betfair-markets");
    bf.venue = Venue("betfair");
    bf.url = QUrl(QStringLiteral("tls://127.0.0.1:%1").arg(linePort));
    // The demo server accepts any credentials; references, so that a saved demo opens again.
    for (const auto &[name, value] : {std::pair{kAppKeyVariable, "demo-app-key"}, {kSessionVariable, "demo-session"}})
        if (!qEnvironmentVariableIsSet(name))
            qputenv(name, value);
    bf.appKey = QStringLiteral("env:") + QLatin1String(kAppKeyVariable);
    bf.session = QStringLiteral("env:") + QLatin1String(kSessionVariable);
    bf.marketSubscription =
        QJsonObject{{QStringLiteral("marketFilter"),
                     QJsonObject{{QStringLiteral("marketIds"), QJsonArray{QStringLiteral("1.2345")}}}},
                    {QStringLiteral("marketDataFilter"),
                     QJsonObject{{QStringLiteral("fields"), QJsonArray{QStringLiteral("EX_BEST_OFFERS")}}}}};
    bf.caFile = caPath;
    bf.stallTimeoutMs = 5000;
    w.streams.append(bf);

    // The venues that subscribe by channel and instrument, each answering its own requests and
    // keep-alive from its replay scenario, with its quirks (docs/venues.md): OKX's legal reset,
    // Bybit's restart (u = 1) and a gap each, Hyperliquid unsequenced. OKX's upgrade notice makes
    // a rollover, whose replacement joins the scenario where it is (market=1), as a real second
    // connection would.
    const auto channelVenue = [&](const char *venue, const QString &name, const QString &scenario,
                                  const QString &subscription, const QString &more = {}) {
        StreamConfig c = binance(name, scenario + QStringLiteral("?rate=20&wait_subscribe=1") + more, {subscription});
        c.venue = Venue(venue);
        return c;
    };
    w.streams.append(channelVenue("okx", QStringLiteral("okx-books"), QStringLiteral("okx_books"),
                                  QStringLiteral("books:BTC-USDT"), QStringLiteral("&market=1")));
    w.streams.append(channelVenue("bybit", QStringLiteral("bybit-books"), QStringLiteral("bybit_books"),
                                  QStringLiteral("orderbook.50:BTCUSDT")));
    w.streams.append(channelVenue("hyperliquid", QStringLiteral("hyperliquid-trades"),
                                  QStringLiteral("hyperliquid_trades"), QStringLiteral("trades:BTC")));

    w.alerts = QJsonArray{
        QJsonObject{{QStringLiteral("stream"), QStringLiteral("stalling-feed")}, {QStringLiteral("silent_s"), 4}},
        QJsonObject{{QStringLiteral("stream"), QStringLiteral("btcusdt-depth-diff")}, {QStringLiteral("gaps"), true}}};
    return true;
}

QString DemoWorkspace::saveNote() const
{
    return QStringLiteral(
               "This is the built-in demo. Its streams read from replay servers that StreamScope runs on "
               "127.0.0.1 (ports %1 and %2) only while the demo is open, so in a saved copy they will not "
               "connect: the file opens again, and its streams show \"connection refused\" until you point them "
               "at real servers.\n\nThe Betfair stream's credentials are saved as references (env:%3, env:%4), "
               "and the certificate it trusts is kept in %5.")
        .arg(m_wsPort)
        .arg(m_linePort)
        .arg(QLatin1String(kAppKeyVariable), QLatin1String(kSessionVariable), QDir::toNativeSeparators(m_caPath));
}

} // namespace streamscope::app
