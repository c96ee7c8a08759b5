// The `app` client: the application path headless. The stream goes through a workspace file
// on disk, read by Workspace::load as the app reads it; beside the measured poll, the GUI
// models' 10 Hz snapshot poll of every stream with latency and the headless runner's live line
// once a second; the report written at the end.

#include "Clients.h"

#include "ClientSupport.h"
#include "EngineClient.h"

#include "Report.h"
#include "StatsFormat.h"
#include "Workspace.h"

#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QTextStream>
#include <QtCore/QTimer>

namespace streamscope::bench {

namespace {

class AppHooks final : public EngineRunHooks {
public:
    bool configure(StreamConfig &config, QString *error) override
    {
        const QJsonObject stream = Workspace::streamToJson(config);
        const QJsonObject ws{{QStringLiteral("version"), 1}, {QStringLiteral("streams"), QJsonArray{stream}}};
        const QString path = tempDir().filePath(QStringLiteral("workspace.json"));
        QFile f(path);
        if (f.open(QIODevice::WriteOnly))
            f.write(QJsonDocument(ws).toJson());
        f.close();
        Workspace workspace;
        const Workspace::LoadResult loaded = Workspace::load(path, workspace);
        if (!loaded.ok || workspace.streams.isEmpty()) {
            *error = QStringLiteral("workspace: ") + loaded.error;
            return false;
        }
        config = workspace.streams.first();
        return true;
    }

    void started(Engine &engine) override
    {
        m_guiPoll.setInterval(100);
        QObject::connect(&m_guiPoll, &QTimer::timeout, [&engine] { (void)engine.snapshot(true); });
        m_liveLines.setInterval(1000);
        m_previous = engine.snapshot(true);
        QObject::connect(&m_liveLines, &QTimer::timeout, [this, &engine] {
            const QVector<StreamSnapshot> now = engine.snapshot(true);
            for (qsizetype i = 0; i < now.size() && i < m_previous.size(); ++i)
                m_err << app::liveLine(now[i], app::ratesBetween(m_previous[i], now[i]),
                                       now[i].latency.minus(m_previous[i].latency))
                      << '\n';
            m_err.flush();
            m_previous = now;
        });
        m_guiPoll.start();
        m_liveLines.start();
    }

    void finished(Engine &engine, StreamId, ThroughputWindow &) override
    {
        m_guiPoll.stop();
        m_liveLines.stop();
        QString error;
        app::writeReport(tempDir().filePath(QStringLiteral("report.json")),
                         app::buildReport(engine.snapshot(true), 1.0), &error);
    }

private:
    QTimer m_guiPoll;
    QTimer m_liveLines;
    QVector<StreamSnapshot> m_previous;
    QTextStream m_err{stderr};
};

} // namespace

ThroughputWindow runApp(const QUrl &url, quint64 count, double timeoutS)
{
    AppHooks hooks;
    EngineRun run;
    run.parsed = true;
    run.timeoutS = timeoutS;
    run.hooks = &hooks;
    return runEngine(url, count, run);
}

} // namespace streamscope::bench
