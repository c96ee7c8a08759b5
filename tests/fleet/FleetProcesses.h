#pragma once

// What the fleet tests share: the replay server and a headless agent as child processes, an
// HTTP GET on loopback, and the external tools (promtool, prometheus, systemd-analyze) that
// scripts/deps.sh --with-tests installs. A missing tool skips the test on a developer's
// machine and fails it in CI (CI=true), where its absence is a broken setup.

#include "../common/ReplayProcess.h"
#include "../common/TimeFactor.h"

#include <QtCore/QDeadlineTimer>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtCore/QRegularExpression>
#include <QtCore/QStandardPaths>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>
#include <QtNetwork/QTcpServer>
#include <QtTest/QtTest>

// Declares `var` as the tool's path, or skips/fails the calling test function.
#define FLEET_REQUIRE_TOOL(var, name)                                                                                  \
    const QString var = QStandardPaths::findExecutable(QStringLiteral(name));                                          \
    if (var.isEmpty()) {                                                                                               \
        if (qgetenv("CI") == "true")                                                                                   \
            QFAIL(name " is not installed: scripts/deps.sh --with-tests installs it");                                 \
        QSKIP(name " is not installed (scripts/deps.sh --with-tests installs it)");                                    \
    }

namespace fleet {

// What the project ships for Prometheus and Grafana: the alerting rules and the dashboard.
inline const QString kRules = QStringLiteral(STREAMSCOPE_SOURCE_DIR "/packaging/prometheus/streamscope-rules.yml");
inline const QString kDashboard =
    QStringLiteral(STREAMSCOPE_SOURCE_DIR "/packaging/grafana/streamscope-dashboard.json");

// Runs the event loop until `condition` holds (true) or `ms` (scaled) pass (false).
template<typename Condition>
bool waitFor(Condition condition, int ms)
{
    QDeadlineTimer deadline(streamscope::testing::scaledMs(ms));
    while (!condition()) {
        if (deadline.hasExpired())
            return false;
        QTest::qWait(50);
    }
    return true;
}

using streamscope::testing::ReplayProcess;

// `streamscope --headless ...` as a child process. Its standard output is kept; its standard
// error is read on demand (everything so far, kept too).
class Agent {
public:
    explicit Agent(const QStringList &args)
    {
        m_process.start(QStringLiteral(STREAMSCOPE_BIN), QStringList{QStringLiteral("--headless")} + args);
    }
    ~Agent()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(5000);
        }
    }
    QProcess &process() { return m_process; }
    // Waits for the "metrics: URL" line; empty on timeout or exit.
    QString metricsUrl()
    {
        const QRegularExpression re(QStringLiteral("metrics: (http://\\S+)"));
        QString url;
        waitFor(
            [&] {
                return !(url = re.match(output()).captured(1)).isEmpty() || m_process.state() == QProcess::NotRunning;
            },
            20000);
        return url;
    }
    QString output()
    {
        m_out += QString::fromUtf8(m_process.readAllStandardOutput());
        return m_out;
    }
    QString errors()
    {
        m_err += QString::fromUtf8(m_process.readAllStandardError());
        return m_err;
    }
    // SIGTERM, then the exit code (-1 when it did not end normally).
    int stop()
    {
        m_process.terminate();
        if (!m_process.waitForFinished(streamscope::testing::scaledMs(20000)))
            return -1;
        output();
        errors();
        return m_process.exitStatus() == QProcess::NormalExit ? m_process.exitCode() : -1;
    }

private:
    QProcess m_process;
    QString m_out;
    QString m_err;
};

// GET `url`; false on a network error or timeout. `accept` sets the Accept header.
inline bool httpGet(const QUrl &url, QByteArray *body, const QByteArray &accept = {}, int *status = nullptr)
{
    QNetworkAccessManager nam;
    QNetworkRequest request(url);
    if (!accept.isEmpty())
        request.setRawHeader("Accept", accept);
    QNetworkReply *reply = nam.get(request);
    QSignalSpy done(reply, &QNetworkReply::finished);
    if (!reply->isFinished() && !done.wait(streamscope::testing::scaledMs(10000))) {
        reply->abort();
        reply->deleteLater();
        return false;
    }
    *body = reply->readAll();
    if (status)
        *status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const bool ok = reply->error() == QNetworkReply::NoError;
    reply->deleteLater();
    return ok;
}

// A port nobody listens on now (for a server that cannot be told to pick one itself).
inline quint16 freeLoopbackPort()
{
    QTcpServer probe;
    return probe.listen(QHostAddress::LocalHost, 0) ? probe.serverPort() : 0;
}

// The value of one sample line in a metrics text ("name{labels} value"), -1 when absent.
inline double sampleValue(const QByteArray &metrics, const QByteArray &series)
{
    for (const QByteArray &line : metrics.split('\n'))
        if (line.startsWith(series + ' '))
            return line.mid(series.size() + 1).toDouble();
    return -1;
}

inline QByteArray workspaceJson(const QJsonArray &streams)
{
    return QJsonDocument(QJsonObject{{QStringLiteral("version"), 1}, {QStringLiteral("streams"), streams}}).toJson();
}

inline QJsonObject binanceStream(const QString &name, const QString &url)
{
    return QJsonObject{{QStringLiteral("name"), name},
                       {QStringLiteral("venue"), QStringLiteral("binance")},
                       {QStringLiteral("url"), url}};
}

inline QJsonObject venueStream(const QString &name, const QString &venue, const QString &url)
{
    QJsonObject o = binanceStream(name, url);
    o.insert(QStringLiteral("venue"), venue);
    return o;
}

inline QJsonObject subscribed(QJsonObject stream, const QString &subscription)
{
    stream.insert(QStringLiteral("subscribe"), QJsonArray{subscription});
    return stream;
}

inline bool writeFile(const QString &path, const QByteArray &content)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(content) == content.size();
}

inline QJsonObject readJson(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

inline QJsonObject streamNamed(const QJsonObject &report, const QString &name)
{
    for (const QJsonValue &v : report.value(QStringLiteral("streams")).toArray())
        if (v.toObject().value(QStringLiteral("name")).toString() == name)
            return v.toObject();
    return {};
}

} // namespace fleet
