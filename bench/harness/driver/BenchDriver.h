#pragma once

// streamscope-bench's driver: starts the replay server(s) and runs every client of
// docs/benchmarks.md in its own process (streamscope-bench-client), interleaved over repeats,
// then the extra measurements asked for; writes the markdown table and the JSON file.
// One class over files by concern: BenchDriver.cpp the processes, the run and the output;
// BenchDriverThroughput.cpp the throughput repeats (ThroughputResults.h: their results, ratios
// and convergence); BenchDriverReport.cpp their tables; BenchDriverLatencyStop.cpp latency and
// stop; ScaleRuns, BookRuns and TargetTable apart.
//
// Thread contract: main thread only; every child runs to completion before the next starts,
// so that two measurements never share the machine.

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QMap>
#include <QtCore/QProcess>
#include <QtCore/QStringList>
#include <QtCore/QTemporaryDir>

#include <functional>
#include <memory>
#include <vector>

#include "PeerClients.h"
#include "ThroughputResults.h"

namespace streamscope::bench {

struct BenchOptions {
    QStringList scenarios;
    QStringList clients{QStringLiteral("wire"), QStringLiteral("qws"), QStringLiteral("engine-raw"),
                        QStringLiteral("engine-parsed"), QStringLiteral("app")};
    int repeat = 3;
    double countScale = 1.0; // fraction of the scenarios' counts
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
    QList<int> scaleStreams{100, 1000, 3000, 10000}; // the curve's points
    double scaleRate = 100000;                       // msgs/s over all streams
    double scaleSeconds = 30;
    bool books = false;
    double booksSeconds = 30;
    bool soak = false;
    double soakSeconds = 600;
    double soakRate = 50000;
    double timeoutS = 300;

    // --converge: after `repeat` repeats, each scenario repeats until every ratio's median is
    // known within ±convergeWithin (BenchStats.h), at most maxRepeat times.
    bool converge = false;
    double convergeWithin = 0.05;
    int maxRepeat = 15;
    // --compare-build / --client-binary-old: an older streamscope-bench-client; every client of
    // compareClients then also runs from it, interleaved with the new one in each repeat.
    QString oldClientPath;
    QStringList compareClients{QStringLiteral("engine-raw"), QStringLiteral("engine-parsed"), QStringLiteral("app")};
    // Peer clients (PeerClients.h): where their scripts are, and the interpreters.
    QString peersDir;
    QString nodePath;
    QString pythonPath;
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
    QJsonObject runProgram(const QString &program, const QStringList &args, double timeoutS, bool countFailure);
    QString scenarioUrl(const QString &scenario, quint64 count, const QString &query = QString()) const;
    quint64 countFor(const QString &scenario) const;

    // Throughput (BenchDriverThroughput.cpp): one run of `key` (a client, or "old:" + client)
    // on a scenario.
    QJsonObject runThroughputClient(const QString &key, const QString &scenario, const QString &url, quint64 count);
    // Whether a native websocket client was asked for: then latency and stop run it too.
    bool nativeAsked() const;
    // Which of the clients asked for run on this scenario (peers: websocket only).
    QStringList clientsFor(const QString &scenario) const;
    QList<RatioDef> ratioDefs(const QString &scenario) const;
    QString urlFor(const QString &scenario, quint64 count) const;

    void runThroughput();
    // The throughput tables and the scenarios' JSON (BenchDriverReport.cpp); `verdicts`:
    // --converge's, per scenario.
    void reportThroughput(int maxRepeat, const QMap<QString, Convergence> &verdicts);
    QString peerNote() const;
    // BenchDriverLatencyStop.cpp.
    void runLatency();
    void runStop();
    void runScale();
    // What the runs kept in files of their own (ScaleRuns, BookRuns) are given: the client and
    // the replay's URLs; and where their results go (the JSON under `key`, the markdown).
    std::function<QJsonObject(const QStringList &, double)> clientRunner();
    std::function<QString(const QString &, const QString &)> scenarioUrlOf() const;
    void addExtra(const QString &key, const QJsonObject &json, const QString &markdown);
    void runBooks();
    void runSoak();
    void write();

    BenchOptions m_options;
    QString m_clientPath;
    QString m_replayPath;
    Server m_ws;
    Server m_wss;  // the same scenarios over TLS (wss://), the built-in certificate
    Server m_line; // betfair_mcm: TLS lines
    QTemporaryDir m_temp;
    QString m_caFile; // the built-in certificate, for the peers over wss
    PeerClients m_peers;
    QStringList m_skippedPeers;
    QStringList m_oldSkipped; // scenarios the old client could not read
    ThroughputResults m_results;
    QJsonArray m_scenarios;
    QJsonObject m_root;
    QString m_markdown;
    int m_failures = 0;
};

} // namespace streamscope::bench
