// `streamscope` run the way scripts and CI run it: exit codes and messages for bad input,
// exact counts in the report against the replay server, the report on SIGTERM, and the
// Prometheus endpoint.

#include "../common/ReplayProcess.h"
#include "../common/TestRegistry.h"
#include <QtCore/QJsonArray>

#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtCore/QRegularExpression>
#include <QtCore/QTemporaryDir>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>
#include <QtTest/QtTest>
#include <QtWebSockets/QWebSocket>
#include <QtWebSockets/QWebSocketServer>
#include <algorithm>
#ifdef Q_OS_UNIX
#include <sys/stat.h>
#endif

namespace {

struct Run {
    int exitCode = -1;
    QString out;
    QString err;
};

Run runStreamscope(const QStringList &args, int timeoutMs = 60000,
                   const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment())
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(STREAMSCOPE_BIN), args);
    Run r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.err = QStringLiteral("timed out");
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

using streamscope::testing::ReplayProcess;

// Sanitizer builds run several times slower (see STREAMSCOPE_TEST_TIME_FACTOR in scripts/test.sh).
QString scaledSeconds(int seconds)
{
    const int factor = std::clamp(qEnvironmentVariableIntValue("STREAMSCOPE_TEST_TIME_FACTOR"), 1, 5);
    return QString::number(seconds * factor);
}

QJsonObject readJson(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

// RFC 4180 records (quoted cells, doubled quotes, CRLF line ends).
QList<QStringList> readCsv(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QString text = QString::fromUtf8(f.readAll());
    QList<QStringList> records;
    QStringList cells;
    QString cell;
    bool quoted = false;
    for (int i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < text.size() && text.at(i + 1) == QLatin1Char('"')) {
                cell += c;
                ++i;
            } else if (c == QLatin1Char('"')) {
                quoted = false;
            } else {
                cell += c;
            }
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            cells << cell;
            cell.clear();
        } else if (c == QLatin1Char('\r') && i + 1 < text.size() && text.at(i + 1) == QLatin1Char('\n')) {
            cells << cell;
            records << cells;
            cells.clear();
            cell.clear();
            ++i;
        } else {
            cell += c;
        }
    }
    return records;
}

// The report's scalar fields by dotted path ("latency_ms.p50"), arrays left out.
void flatten(const QJsonObject &o, const QString &prefix, QMap<QString, QJsonValue> &out)
{
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QString path = prefix.isEmpty() ? it.key() : prefix + QLatin1Char('.') + it.key();
        if (it.value().isObject())
            flatten(it.value().toObject(), path, out);
        else if (!it.value().isArray())
            out.insert(path, it.value());
    }
}

QJsonObject streamNamed(const QJsonObject &report, const QString &name)
{
    for (const QJsonValue &v : report.value(QStringLiteral("streams")).toArray())
        if (v.toObject().value(QStringLiteral("name")).toString() == name)
            return v.toObject();
    return {};
}

} // namespace

class TestHeadless : public QObject {
    Q_OBJECT
private slots:
    void noDisplayExplainsHeadless_data();
    void noDisplayExplainsHeadless();
    void initTestCase();
    void versionAndHelp();
    void badArguments_data();
    void badArguments();
    void fifoArgumentsRefusedAtOnce_data();
    void fifoArgumentsRefusedAtOnce();
    void malformedWorkspace_data();
    void malformedWorkspace();
    void reportCountsEveryScenarioExactly();
    void sigtermStillWritesTheReport();
    void metricsEndpoint();
    void builtInDemoRunsHeadless();
    void serverBytesReachNoTerminal();
    void workspaceTextReachesNoTerminal_data();
    void workspaceTextReachesNoTerminal();
    void literalUrlSecretsNeverLeave_data();
    void literalUrlSecretsNeverLeave();

private:
    QString writeFile(const QString &name, const QByteArray &content);
    QTemporaryDir m_dir;
};

// Started for the desktop where no display can be opened, the app says so and names
// --headless, with exit code 1, rather than aborting with Qt's plugin message (134).
void TestHeadless::noDisplayExplainsHeadless_data()
{
    QTest::addColumn<QString>("platform"); // QT_QPA_PLATFORM, empty: unset
    QTest::addColumn<QString>("display");  // DISPLAY, empty: unset
    QTest::addColumn<QString>("expected");
    QTest::newRow("no display at all") << QString() << QString()
                                       << QStringLiteral("no display found (DISPLAY and WAYLAND_DISPLAY are not set)");
    QTest::newRow("an X display that is not there")
        << QStringLiteral("xcb") << QStringLiteral(":97") << QStringLiteral("the display could not be opened");
}

void TestHeadless::noDisplayExplainsHeadless()
{
    QFETCH(QString, platform);
    QFETCH(QString, display);
    QFETCH(QString, expected);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char *name : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"})
        env.remove(QLatin1String(name));
    if (!platform.isEmpty())
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), platform);
    if (!display.isEmpty())
        env.insert(QStringLiteral("DISPLAY"), display);
    const Run r = runStreamscope({QStringLiteral("--duration"), QStringLiteral("1")}, 60000, env);
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(expected), qPrintable(r.err));
    QVERIFY2(r.err.contains(QLatin1String("--headless")), qPrintable(r.err));
}

void TestHeadless::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY(QFile::exists(QStringLiteral(STREAMSCOPE_BIN)));
}

QString TestHeadless::writeFile(const QString &name, const QByteArray &content)
{
    const QString path = m_dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(content) != content.size())
        return {}; // the caller's QVERIFY stops the test
    return path;
}

void TestHeadless::versionAndHelp()
{
    const Run v = runStreamscope({QStringLiteral("--version")});
    QCOMPARE(v.exitCode, 0);
    QVERIFY2(QRegularExpression(QStringLiteral("^streamscope \\d+\\.\\d+\\.\\d+\\s*$")).match(v.out).hasMatch(),
             qPrintable(v.out));
    const Run h = runStreamscope({QStringLiteral("--help")});
    QCOMPARE(h.exitCode, 0);
    for (const char *option : {"--workspace", "--headless", "--duration", "--report", "--report-csv", "--metrics-port"})
        QVERIFY2(h.out.contains(QLatin1String(option)), option);
    QVERIFY2(h.out.startsWith(QLatin1String("Usage: streamscope [options]")), qPrintable(h.out));
}

void TestHeadless::badArguments_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown option") << QStringList{QStringLiteral("--frobnicate")} << QStringLiteral("frobnicate");
    QTest::newRow("duration not a number")
        << QStringList{QStringLiteral("--headless"), QStringLiteral("--duration"), QStringLiteral("soon")}
        << QStringLiteral("--duration expects a positive number of seconds, got 'soon'");
    QTest::newRow("port out of range") << QStringList{QStringLiteral("--headless"), QStringLiteral("--metrics-port"),
                                                      QStringLiteral("70000")}
                                       << QStringLiteral("--metrics-port expects a port");
    QTest::newRow("missing file") << QStringList{QStringLiteral("--headless"), QStringLiteral("--workspace"),
                                                 QStringLiteral("/nonexistent/w.json")}
                                  << QStringLiteral("/nonexistent/w.json: cannot read the file");
    // Refused before it is read: /dev/zero never ends, a folder is no workspace.
    QTest::newRow("a device") << QStringList{QStringLiteral("--headless"), QStringLiteral("--workspace"),
                                             QStringLiteral("/dev/zero")}
                              << QStringLiteral("/dev/zero: expected a regular file, found a character device");
    QTest::newRow("a folder") << QStringList{QStringLiteral("--headless"), QStringLiteral("--workspace"),
                                             QStringLiteral("/tmp")}
                              << QStringLiteral("/tmp: expected a regular file, found a directory");
    QTest::newRow("TLS certificate without its key")
        << QStringList{QStringLiteral("--headless"), QStringLiteral("--metrics-port"), QStringLiteral("0"),
                       QStringLiteral("--metrics-tls-cert"), QStringLiteral("/etc/hostname")}
        << QStringLiteral("--metrics-tls-cert and --metrics-tls-key go together");
    QTest::newRow("report-csv without a file")
        << QStringList{QStringLiteral("--headless"), QStringLiteral("--report-csv"), QString()}
        << QStringLiteral("--report-csv needs a file name");
    QTest::newRow("auth without metrics")
        << QStringList{QStringLiteral("--headless"), QStringLiteral("--metrics-auth-file"), QStringLiteral("/x")}
        << QStringLiteral("need --metrics-port");
    QTest::newRow("auth file missing") << QStringList{QStringLiteral("--headless"),
                                                      QStringLiteral("--duration"),
                                                      QStringLiteral("1"),
                                                      QStringLiteral("--metrics-port"),
                                                      QStringLiteral("0"),
                                                      QStringLiteral("--metrics-auth-file"),
                                                      QStringLiteral("/nonexistent/auth")}
                                       << QStringLiteral("/nonexistent/auth: cannot read");
}

void TestHeadless::badArguments()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const Run r = runStreamscope(args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
}

void TestHeadless::fifoArgumentsRefusedAtOnce_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::newRow("--metrics-auth-file") << QStringList{QStringLiteral("--metrics-port"), QStringLiteral("0"),
                                                        QStringLiteral("--metrics-auth-file")};
    QTest::newRow("--metrics-tls-cert") << QStringList{
        QStringLiteral("--metrics-port"), QStringLiteral("0"), QStringLiteral("--metrics-tls-key"),
        QStringLiteral("/etc/hostname"), QStringLiteral("--metrics-tls-cert")};
    QTest::newRow("--workspace") << QStringList{QStringLiteral("--workspace")};
}

// A FIFO with no writer given for a file the start reads: opened without blocking and refused by
// what it is, naming the file, instead of a start that hangs (and ignores SIGTERM) until a writer
// comes. A hang is the 60 s timeout of runStreamscope.
void TestHeadless::fifoArgumentsRefusedAtOnce()
{
#ifdef Q_OS_UNIX
    QFETCH(QStringList, options);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString fifo = dir.filePath(QStringLiteral("fifo"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    const Run r =
        runStreamscope(QStringList{QStringLiteral("--headless"), QStringLiteral("--duration"), QStringLiteral("1")}
                       + options + QStringList{fifo});
    QVERIFY2(r.err != QLatin1String("timed out"), "the start blocked on the FIFO");
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(fifo + QStringLiteral(": expected a regular file, found a FIFO")), qPrintable(r.err));
#else
    QSKIP("no FIFOs here");
#endif
}

void TestHeadless::malformedWorkspace_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("message");
    QTest::newRow("url missing") << QByteArray(R"({"version":1,"streams":[{"name":"x"}]})")
                                 << QStringLiteral("streams[0].url: missing, expected a string");
    QTest::newRow("wrong type") << QByteArray(
        R"({"version":1,"streams":[{"name":"x","url":"ws://h:1/","stall_timeout_ms":"fast"}]})")
                                << QStringLiteral("streams[0].stall_timeout_ms: expected an integer, found a string");
    QTest::newRow("not JSON") << QByteArray("{\"version\":1,\n\"streams\":[}") << QStringLiteral("bad.json:2:");
}

void TestHeadless::malformedWorkspace()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, message);
    const QString path = writeFile(QStringLiteral("bad.json"), content);
    QVERIFY(!path.isEmpty());
    const Run r = runStreamscope({QStringLiteral("--headless"), QStringLiteral("--workspace"), path,
                                  QStringLiteral("--duration"), QStringLiteral("1")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(path), qPrintable(r.err));    // names the file
    QVERIFY2(r.err.contains(message), qPrintable(r.err)); // the key and what was expected
}

void TestHeadless::reportCountsEveryScenarioExactly()
{
    ReplayProcess ws({QStringLiteral("--scenario"), QStringLiteral("small_aggtrade")});
    ReplayProcess lines({QStringLiteral("--scenario"), QStringLiteral("betfair_mcm"), QStringLiteral("--protocol"),
                         QStringLiteral("line"), QStringLiteral("--count"), QStringLiteral("3000")});
    QVERIFY(ws.port() && lines.port());
    const QList<QPair<QString, int>> scenarios{
        {QStringLiteral("small_aggtrade"), 5000}, {QStringLiteral("medium_kline"), 3000},
        {QStringLiteral("large_depth20"), 2000},  {QStringLiteral("xlarge_depth_diff"), 500},
        {QStringLiteral("huge_ticker_arr"), 20},  {QStringLiteral("multiplex_mix"), 4000}};
    QJsonArray streams;
    for (const auto &[name, count] : scenarios) {
        for (const char *mode : {"raw", "parsed"}) {
            streams.append(
                QJsonObject{{QStringLiteral("name"), name + QLatin1Char('-') + QLatin1String(mode)},
                            {QStringLiteral("venue"), QStringLiteral("binance")},
                            {QStringLiteral("url"),
                             QStringLiteral("ws://127.0.0.1:%1/%2?count=%3").arg(ws.port()).arg(name).arg(count)},
                            {QStringLiteral("mode"), QLatin1String(mode)}});
        }
    }
    streams.append(QJsonObject{
        {QStringLiteral("name"), QStringLiteral("betfair_mcm")},
        {QStringLiteral("venue"), QStringLiteral("betfair")},
        {QStringLiteral("url"), QStringLiteral("tcp://127.0.0.1:%1").arg(lines.port())},
        {QStringLiteral("auth"),
         QJsonObject{{QStringLiteral("app_key"), QStringLiteral("env:TST_APP_KEY")},
                     {QStringLiteral("session"), QStringLiteral("env:TST_SESSION")}}},
        {QStringLiteral("market_subscription"), QJsonObject{{QStringLiteral("marketFilter"), QJsonObject{}}}}});
    const QString workspace = writeFile(
        QStringLiteral("scenarios.json"),
        QJsonDocument(QJsonObject{{QStringLiteral("version"), 1}, {QStringLiteral("streams"), streams}}).toJson());
    QVERIFY(!workspace.isEmpty());
    const QString reportPath = m_dir.filePath(QStringLiteral("report.json"));
    const QString csvPath = m_dir.filePath(QStringLiteral("report.csv"));
    qputenv("TST_APP_KEY", "key");
    qputenv("TST_SESSION", "session");
    const Run r = runStreamscope({QStringLiteral("--headless"), QStringLiteral("--workspace"), workspace,
                                  QStringLiteral("--duration"), scaledSeconds(4), QStringLiteral("--report"),
                                  reportPath, QStringLiteral("--report-csv"), csvPath});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains(QLatin1String("small_aggtrade-raw")), "one live line per stream");

    const QJsonObject report = readJson(reportPath);
    QCOMPARE(report.value(QStringLiteral("version")).toInt(), 1);
    QVERIFY(report.value(QStringLiteral("duration_s")).toDouble() >= 3.9);
    for (const auto &[name, count] : scenarios) {
        for (const char *mode : {"raw", "parsed"}) {
            const QString stream = name + QLatin1Char('-') + QLatin1String(mode);
            const QJsonObject s = streamNamed(report, stream);
            QVERIFY2(!s.isEmpty(), qPrintable(stream));
            QCOMPARE(s.value(QStringLiteral("messages")).toInteger(), qint64(count));
            QCOMPARE(s.value(QStringLiteral("data_messages")).toInteger(), qint64(count));
            QCOMPARE(s.value(QStringLiteral("parse_errors")).toInteger(), qint64(0));
            QCOMPARE(s.value(QStringLiteral("reconnects")).toInteger(), qint64(0));
            QCOMPARE(s.value(QStringLiteral("state")).toString(), QStringLiteral("live"));
            // Partial depth carries no event time, so multiplex_mix has latency for most messages only.
            const qint64 latencyCount =
                s.value(QStringLiteral("latency_ms")).toObject().value(QStringLiteral("count")).toInteger();
            if (QLatin1String(mode) == QLatin1String("raw") || name == QLatin1String("large_depth20"))
                QCOMPARE(latencyCount, qint64(0));
            else if (name == QLatin1String("multiplex_mix"))
                QVERIFY(latencyCount > count / 2 && latencyCount < count);
            else
                QCOMPARE(latencyCount, qint64(count));
        }
    }
    const QJsonObject bf = streamNamed(report, QStringLiteral("betfair_mcm"));
    QCOMPARE(bf.value(QStringLiteral("data_messages")).toInteger() + bf.value(QStringLiteral("heartbeats")).toInteger(),
             qint64(3000));
    QCOMPARE(bf.value(QStringLiteral("errors")).toInteger(), qint64(0));
    for (const char *key : {"url", "bytes", "results", "errors", "gaps", "rate_msgs_per_s"})
        QVERIFY2(bf.contains(QLatin1String(key)), key);
    for (const char *key : {"count", "p50", "p90", "p99", "p999", "max"})
        QVERIFY2(bf.value(QStringLiteral("latency_ms")).toObject().contains(QLatin1String(key)), key);

    // --report-csv: a header of the report's scalar paths (name first), then a row per stream
    // with the same values as the JSON report of the same run.
    const QList<QStringList> csv = readCsv(csvPath);
    const QJsonArray reported = report.value(QStringLiteral("streams")).toArray();
    QCOMPARE(csv.size(), 1 + reported.size());
    const QStringList header = csv.first();
    QCOMPARE(header.first(), QStringLiteral("name"));
    QSet<QString> paths;
    for (const QJsonValue &v : reported) {
        QMap<QString, QJsonValue> flat;
        flatten(v.toObject(), QString(), flat);
        for (auto it = flat.cbegin(); it != flat.cend(); ++it)
            paths.insert(it.key());
    }
    QCOMPARE(QSet<QString>(header.cbegin(), header.cend()), paths);
    QCOMPARE(header.size(), paths.size());
    for (const char *column : {"messages", "latency_ms.p50", "latency_ms.p99", "betfair.clk", "state"})
        QVERIFY2(header.contains(QLatin1String(column)), column);
    for (int i = 0; i < reported.size(); ++i) {
        const QStringList row = csv.at(i + 1);
        QCOMPARE(row.size(), header.size());
        QMap<QString, QJsonValue> flat;
        flatten(reported.at(i).toObject(), QString(), flat);
        QCOMPARE(row.first(), flat.value(QStringLiteral("name")).toString());
        const auto cell = [&](const char *column) { return row.at(int(header.indexOf(QLatin1String(column)))); };
        QCOMPARE(cell("messages"), QString::number(flat.value(QStringLiteral("messages")).toInteger()));
        QCOMPARE(cell("latency_ms.count"), QString::number(flat.value(QStringLiteral("latency_ms.count")).toInteger()));
        QCOMPARE(cell("latency_ms.p99").toDouble(), flat.value(QStringLiteral("latency_ms.p99")).toDouble());
        QCOMPARE(cell("state"), flat.value(QStringLiteral("state")).toString());
        if (!flat.contains(QStringLiteral("betfair.clk")))
            QVERIFY(cell("betfair.clk").isEmpty()); // a field this stream does not have
    }
}

void TestHeadless::sigtermStillWritesTheReport()
{
#ifdef Q_OS_UNIX
    const QString reportPath = m_dir.filePath(QStringLiteral("sigterm.json"));
    QProcess p;
    p.start(QStringLiteral(STREAMSCOPE_BIN), {QStringLiteral("--headless"), QStringLiteral("--report"), reportPath});
    QVERIFY(p.waitForStarted());
    QByteArray output;
    QTRY_VERIFY_WITH_TIMEOUT((output += p.readAllStandardOutput()).contains("live"), 10000);
    p.terminate();
    QVERIFY(p.waitForFinished(10000));
    // A sanitizer's report goes to stderr: show it with the failure.
    const QByteArray err = p.readAllStandardError();
    QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0,
             qPrintable(QStringLiteral("exit status %1, code %2, stderr:\n%3")
                            .arg(int(p.exitStatus()))
                            .arg(p.exitCode())
                            .arg(QString::fromUtf8(err.right(8000)))));
    const QJsonObject report = readJson(reportPath);
    QVERIFY(report.value(QStringLiteral("streams")).toArray().size() >= 5); // the built-in demo
#else
    QSKIP("POSIX signals only");
#endif
}

void TestHeadless::metricsEndpoint()
{
    QProcess p;
    p.start(QStringLiteral(STREAMSCOPE_BIN),
            {QStringLiteral("--headless"), QStringLiteral("--metrics-port"), QStringLiteral("0"),
             QStringLiteral("--duration"), QStringLiteral("20")});
    QVERIFY(p.waitForStarted());
    QString url;
    QTRY_VERIFY_WITH_TIMEOUT(!(url = QRegularExpression(QStringLiteral("metrics: (http://\\S+)"))
                                         .match(QString::fromUtf8(p.peek(4096)))
                                         .captured(1))
                                  .isEmpty(),
                             10000);
    QVERIFY(url.startsWith(QLatin1String("http://127.0.0.1:")));
    QNetworkAccessManager nam;
    QString body;
    QString contentType;
    const auto fetch = [&] {
        QNetworkReply *reply = nam.get(QNetworkRequest(QUrl(url)));
        QSignalSpy done(reply, &QNetworkReply::finished);
        if (!reply->isFinished() && !done.wait(10000))
            return false;
        contentType = reply->header(QNetworkRequest::ContentTypeHeader).toString();
        body = QString::fromUtf8(reply->readAll());
        const bool ok = reply->error() == QNetworkReply::NoError;
        reply->deleteLater();
        return ok;
    };
    // Poll until the demo's streams have counted messages (slower under sanitizers).
    const QRegularExpression counted(
        QStringLiteral("streamscope_messages_total\\{stream=\"btcusdt-aggtrade\"\\} [1-9]\\d*"));
    const QRegularExpression updates(
        QStringLiteral("streamscope_updates_total\\{stream=\"betfair-markets\"\\} [1-9]\\d*"));
    QTRY_VERIFY_WITH_TIMEOUT(fetch() && counted.match(body).hasMatch() && updates.match(body).hasMatch(), 20000);
    QVERIFY(contentType.startsWith(QLatin1String("application/openmetrics-text")));
    p.terminate();
    p.waitForFinished(10000);
    QVERIFY(body.endsWith(QLatin1String("# EOF\n")));
    QVERIFY(body.contains(QLatin1String("# TYPE streamscope_latency_seconds histogram")));
    QVERIFY(
        body.contains(QLatin1String("streamscope_latency_seconds_bucket{stream=\"btcusdt-aggtrade\",le=\"+Inf\"}")));
    QVERIFY(body.contains(QLatin1String("streamscope_latency_seconds_count{stream=\"btcusdt-aggtrade\"}")));
    QVERIFY(body.contains(
        QLatin1String("streamscope_stream_state{stream=\"btcusdt-aggtrade\",streamscope_stream_state=\"live\"} 1")));
    QVERIFY(body.contains(QLatin1String("streamscope_connections{stream=\"btcusdt-aggtrade\"} 1\n")));
    QVERIFY(body.contains(QLatin1String("streamscope_rollovers_total{stream=\"btcusdt-aggtrade\"} 0\n")));
}

void TestHeadless::builtInDemoRunsHeadless()
{
    const QString reportPath = m_dir.filePath(QStringLiteral("demo.json"));
    // Every stream has its first message within the run, under a sanitizer too.
    const Run r = runStreamscope({QStringLiteral("--headless"), QStringLiteral("--duration"), scaledSeconds(3),
                                  QStringLiteral("--report"), reportPath});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QJsonArray streams = readJson(reportPath).value(QStringLiteral("streams")).toArray();
    QVERIFY(streams.size() >= 5);
    for (const QJsonValue &v : streams) {
        const QJsonObject s = v.toObject();
        QVERIFY2(s.value(QStringLiteral("messages")).toInteger() > 0,
                 qPrintable(s.value(QStringLiteral("name")).toString()));
    }
}

// A server that sends escape sequences in a bad message and in its close reason cannot
// clear the terminal, set its title or print a line of its own through the event lines.
void TestHeadless::serverBytesReachNoTerminal()
{
    QWebSocketServer server(QStringLiteral("hostile"), QWebSocketServer::NonSecureMode);
    QVERIFY(server.listen(QHostAddress::LocalHost, 0));
    connect(&server, &QWebSocketServer::newConnection, &server, [&server] {
        while (QWebSocket *s = server.nextPendingConnection()) {
            connect(s, &QWebSocket::disconnected, s, &QObject::deleteLater);
            s->sendTextMessage(QStringLiteral("{\"e\":\"\x1b[2J\x1b]0;pwned\x07\r\nall streams OK"));
            s->close(QWebSocketProtocol::CloseCode(4000), QStringLiteral("\x1b[2J\x1b[Hall streams OK"));
        }
    });
    const QJsonArray streams{
        QJsonObject{{QStringLiteral("name"), QStringLiteral("hostile")},
                    {QStringLiteral("venue"), QStringLiteral("generic")},
                    {QStringLiteral("url"), QStringLiteral("ws://127.0.0.1:%1/feed").arg(server.serverPort())}}};
    const QString workspace = writeFile(
        QStringLiteral("hostile.json"),
        QJsonDocument(QJsonObject{{QStringLiteral("version"), 1}, {QStringLiteral("streams"), streams}}).toJson());
    QVERIFY(!workspace.isEmpty());
    QProcess p;
    p.start(QStringLiteral(STREAMSCOPE_BIN),
            {QStringLiteral("--headless"), QStringLiteral("--workspace"), workspace, QStringLiteral("--duration"),
             scaledSeconds(2)});
    QVERIFY(p.waitForStarted());
    // This thread serves the websocket server while the process runs.
    QTRY_COMPARE_WITH_TIMEOUT(p.state(), QProcess::NotRunning, 60000);
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    const QByteArray err = p.readAllStandardError();
    QVERIFY2(err.contains("\\x1b[2J\\x1b]0;pwned\\x07\\r\\nall streams OK"), err.constData());
    QVERIFY2(err.contains("\\x1b[2J\\x1b[Hall streams OK"), err.constData());
    QVERIFY2(!err.contains('\x1b') && !err.contains('\x07') && !err.contains('\r'),
             err.toPercentEncoding(" :()[];,\\\n").constData());
}

// The first control byte (C0 other than the line feed, DEL, C1 as UTF-8) in a console's
// output, as "0x1b at 12"; empty when there is none.
QString firstControlByte(const QByteArray &out)
{
    for (qsizetype i = 0; i < out.size(); ++i) {
        const auto c = quint8(out[i]);
        const bool c1 = c == 0xc2 && i + 1 < out.size() && quint8(out[i + 1]) >= 0x80 && quint8(out[i + 1]) <= 0x9f;
        if ((c < 0x20 && c != '\n') || c == 0x7f || c1)
            return QStringLiteral("0x%1 at %2").arg(c, 2, 16, QLatin1Char('0')).arg(i);
    }
    return {};
}

// A workspace is often someone else's file: whatever it holds (a stream name, a URL, a key,
// a venue with escape sequences and NUL) reaches stdout and stderr escaped, in the live
// lines, the warnings and the errors alike.
void TestHeadless::workspaceTextReachesNoTerminal_data()
{
    QTest::addColumn<QJsonObject>("stream");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("shown"); // how the hostile text is shown, escaped
    const QString hostile = QStringLiteral("\x1b]0;title\x07\x1b[2J") + QChar(0) + QStringLiteral("x");
    const QString escaped = QStringLiteral("\\x1b]0;title\\x07\\x1b[2J\\x00x");
    const auto stream = [](const QString &name, const QString &url) {
        return QJsonObject{{QStringLiteral("name"), name},
                           {QStringLiteral("venue"), QStringLiteral("generic")},
                           {QStringLiteral("url"), url}};
    };
    // Nothing listens on port 1: the stream runs (reconnecting) and its live lines are printed.
    QTest::newRow("stream name in the live lines")
        << stream(hostile, QStringLiteral("ws://127.0.0.1:1/feed")) << 0 << escaped;
    QTest::newRow("URL in an error") << stream(QStringLiteral("a"), QStringLiteral("ws://127.0.0.1:1/") + hostile) << 2
                                     << escaped;
    QJsonObject unknownKey = stream(QStringLiteral("a"), QStringLiteral("ws://127.0.0.1:1/feed"));
    unknownKey.insert(hostile, 1);
    QTest::newRow("unknown key in a warning") << unknownKey << 0 << escaped;
    QJsonObject venue = stream(QStringLiteral("a"), QStringLiteral("ws://127.0.0.1:1/feed"));
    venue.insert(QStringLiteral("venue"), hostile);
    QTest::newRow("venue in an error") << venue << 2 << escaped;
}

void TestHeadless::workspaceTextReachesNoTerminal()
{
    QFETCH(QJsonObject, stream);
    QFETCH(int, exitCode);
    QFETCH(QString, shown);
    const QString workspace = writeFile(
        QStringLiteral("hostile-names.json"),
        QJsonDocument(QJsonObject{{QStringLiteral("version"), 1}, {QStringLiteral("streams"), QJsonArray{stream}}})
            .toJson());
    QVERIFY(!workspace.isEmpty());
    QProcess p;
    p.start(QStringLiteral(STREAMSCOPE_BIN),
            {QStringLiteral("--headless"), QStringLiteral("--workspace"), workspace, QStringLiteral("--duration"),
             scaledSeconds(2)});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    const QByteArray out = p.readAllStandardOutput();
    const QByteArray err = p.readAllStandardError();
    QCOMPARE(p.exitCode(), exitCode);
    QVERIFY2(QString::fromUtf8(out + err).contains(shown),
             (out + err).toPercentEncoding(" :()[];,\\\n\"'/").constData());
    QVERIFY2(firstControlByte(out).isEmpty(), qPrintable(QStringLiteral("stdout: ") + firstControlByte(out)));
    QVERIFY2(firstControlByte(err).isEmpty(), qPrintable(QStringLiteral("stderr: ") + firstControlByte(err)));
}

// URLs with a literal secret that a hostile-input run found loaded and written verbatim to the
// report, the CSV, /metrics and /api: the workspace is refused, naming the field, and the
// secret appears nowhere (not in the message, not in a report).
void TestHeadless::literalUrlSecretsNeverLeave_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("message");
    const QString password = QStringLiteral("streams[0].url: expected a URL without a password");
    const QString parameter = QStringLiteral("streams[0].url: expected the %1 parameter '%2' as a reference");
    QTest::newRow("userinfo with an encoded colon")
        << QStringLiteral("ws://user%3ASECRET@127.0.0.1:1/feed") << password;
    QTest::newRow("';' as a query separator") << QStringLiteral("ws://127.0.0.1:1/feed?a=1;token=SECRET")
                                              << parameter.arg(QStringLiteral("query"), QStringLiteral("token"));
    QTest::newRow("pwd") << QStringLiteral("ws://127.0.0.1:1/feed?pwd=SECRET")
                         << parameter.arg(QStringLiteral("query"), QStringLiteral("pwd"));
    QTest::newRow("passwd") << QStringLiteral("ws://127.0.0.1:1/feed?passwd=SECRET")
                            << parameter.arg(QStringLiteral("query"), QStringLiteral("passwd"));
    QTest::newRow("fragment") << QStringLiteral("ws://127.0.0.1:1/feed#token=SECRET")
                              << parameter.arg(QStringLiteral("fragment"), QStringLiteral("token"));
}

void TestHeadless::literalUrlSecretsNeverLeave()
{
    QFETCH(QString, url);
    QFETCH(QString, message);
    const QJsonArray streams{QJsonObject{{QStringLiteral("name"), QStringLiteral("feed")},
                                         {QStringLiteral("venue"), QStringLiteral("generic")},
                                         {QStringLiteral("url"), url}}};
    const QString workspace = writeFile(
        QStringLiteral("secret-url.json"),
        QJsonDocument(QJsonObject{{QStringLiteral("version"), 1}, {QStringLiteral("streams"), streams}}).toJson());
    QVERIFY(!workspace.isEmpty());
    const QString report = m_dir.filePath(QStringLiteral("secret-url-report.json"));
    const QString csv = m_dir.filePath(QStringLiteral("secret-url-report.csv"));
    QFile::remove(report);
    QFile::remove(csv);
    const Run r = runStreamscope({QStringLiteral("--headless"), QStringLiteral("--workspace"), workspace,
                                  QStringLiteral("--duration"), QStringLiteral("1"), QStringLiteral("--report"), report,
                                  QStringLiteral("--report-csv"), csv});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(workspace + QStringLiteral(": ") + message), qPrintable(r.err));
    QVERIFY2(!r.err.contains(QLatin1String("SECRET")) && !r.out.contains(QLatin1String("SECRET")), qPrintable(r.err));
    QVERIFY(!QFile::exists(report));
    QVERIFY(!QFile::exists(csv));
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestHeadless)
#include "tst_headless.moc"
