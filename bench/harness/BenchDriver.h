#pragma once

// streamscope-bench's driver: starts the replay server(s) and runs every client of
// WORKLOADS.md in its own process (streamscope-bench-client), interleaved over repeats,
// then the extra measurements asked for; writes the markdown table and the JSON file.
//
// Thread contract: main thread only; every child runs to completion before the next starts,
// so that two measurements never share the machine.

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtCore/QStringList>

#include <memory>

namespace streamscope::bench {

struct BenchOptions {
    QStringList scenarios;
    QStringList clients{QStringLiteral("wire"), QStringLiteral("qws"), QStringLiteral("engine-raw"),
                        QStringLiteral("engine-parsed"), QStringLiteral("app")};
    int repeat = 3;
    double countScale = 1.0; // fraction of the WORKLOADS.md counts
    quint64 countOverride = 0;
    QString markdownPath;
    QString jsonPath;
    QString binDir;
    bool latency = false;
    QList<quint64> latencySizes{26, 256, 1024, 4096, 16384, 65536, 524288};
    double latencyRate = 10000;
    double latencySeconds = 3;
    bool stop = false;
    int stopIterations = 100;
    bool scale = false;
    int scaleStreams = 1000;
    double scaleRate = 100;
    double scaleSeconds = 60;
    bool soak = false;
    double soakSeconds = 600;
    double soakRate = 50000;
    double timeoutS = 300;
};

class BenchDriver {
public:
    explicit BenchDriver(BenchOptions options);
    ~BenchDriver();

    // Runs everything asked for; returns the process exit code (0: every run completed).
    int run();

private:
    struct Server {
        std::unique_ptr<QProcess> process;
        quint16 port = 0;
    };
    Server startProcess(const QString &program, const QStringList &args);
    void stopServer(Server &server);
    QJsonObject runClient(const QStringList &args, double timeoutS);
    QString scenarioUrl(const QString &scenario, quint64 count, const QString &query = QString()) const;
    quint64 countFor(const QString &scenario) const;

    void runThroughput();
    void runLatency();
    void runStop();
    void runScale();
    void runSoak();
    void write();

    BenchOptions m_options;
    QString m_clientPath;
    QString m_replayPath;
    Server m_ws;
    QJsonArray m_scenarios;
    QJsonObject m_root;
    QString m_markdown;
    int m_failures = 0;
};

} // namespace streamscope::bench
