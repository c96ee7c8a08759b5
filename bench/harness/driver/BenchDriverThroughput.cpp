// BenchDriver's throughput runs (BenchDriver.h): which clients run on a scenario, the ratios
// formed between them, the repeats with their rotating order and the old build's runs beside
// the new ones, and --converge's extra repeats. The tables are BenchDriverReport.cpp's.

#include "BenchDriver.h"

#include "BenchFormat.h"

#include <algorithm>

namespace streamscope::bench {

bool BenchDriver::nativeAsked() const
{
    return m_options.clients.contains(QStringLiteral("engine-raw-native"))
        || m_options.clients.contains(QStringLiteral("engine-parsed-native"));
}

QStringList BenchDriver::clientsFor(const QString &scenario) const
{
    QStringList out;
    for (const QString &c : std::as_const(m_options.clients)) {
        if (PeerClients::isPeer(c) && (scenario == kLineScenario || m_skippedPeers.contains(c)))
            continue; // the peers speak websocket only
        out << c;
    }
    return out;
}

QList<RatioDef> BenchDriver::ratioDefs(const QString &scenario) const
{
    const QStringList clients = clientsFor(scenario);
    QList<RatioDef> defs;
    auto add = [&](const QString &name, const QString &a, const QString &b, bool steers = true) {
        defs.append(RatioDef{name, a, b, steers});
    };
    for (const auto &[name, a, b] : kBaseRatios)
        add(name, a, b);
    // The native websocket transport's clients (engine-raw-native, engine-parsed-native), when
    // asked for: against the same references as their Qt counterparts, and against those.
    for (const QString &base : {QStringLiteral("engine-raw"), QStringLiteral("engine-parsed")}) {
        const QString native = base + QStringLiteral("-native");
        if (!clients.contains(native))
            continue;
        for (const QString &reference : {QStringLiteral("qws"), QStringLiteral("wire"), base})
            add(native + QLatin1Char('/') + reference, native, reference);
    }
    // Peers: StreamScope against each, the counting peers against engine-raw, the parsing ones
    // against engine-parsed and app. Reported with their spread; they do not steer --converge
    // (a ratio of 20 cannot be held to ±0.05, and the peers are not what is being judged).
    for (const QString &p : clients) {
        if (!PeerClients::isPeer(p))
            continue;
        if (p.endsWith(QLatin1String("-parse"))) {
            add(QStringLiteral("engine-parsed/") + p, QStringLiteral("engine-parsed"), p, false);
            add(QStringLiteral("app/") + p, QStringLiteral("app"), p, false);
        } else {
            add(QStringLiteral("engine-raw/") + p, QStringLiteral("engine-raw"), p, false);
        }
    }
    // Old against new: each compared client new/old, and the old build's own ratios.
    if (!m_options.oldClientPath.isEmpty() && !m_oldSkipped.contains(scenario)) {
        for (const QString &c : std::as_const(m_options.compareClients)) {
            if (clients.contains(c))
                add(c + QStringLiteral(" new/old"), c, kOld + c);
        }
        for (const auto &[name, a, b] : kBaseRatios) {
            if (m_options.compareClients.contains(a))
                add(kOld + name, kOld + a, m_options.compareClients.contains(b) ? kOld + b : b);
        }
    }
    return defs;
}

QJsonObject BenchDriver::runThroughputClient(const QString &key, const QString &scenario, const QString &url,
                                             quint64 count)
{
    if (PeerClients::isPeer(key)) {
        const PeerClients::Command c = m_peers.command(key, url, count, m_options.timeoutS, m_caFile);
        return runProgram(c.program, c.args, m_options.timeoutS, true);
    }
    const QList<QJsonObject> before = m_results.runs(scenario, key);
    const bool readItBefore = std::any_of(before.cbegin(), before.cend(),
                                          [](const QJsonObject &r) { return r.value(QStringLiteral("ok")).toBool(); });
    // The old build may not read every scenario (before issue 15 its clients trusted no CA
    // over wss, and waited for their timeout): its first run on a scenario gets at most 60 s,
    // and a failure before any success drops it there, and says so, without failing the run;
    // a later failure is logged and leaves that repeat without a pair.
    const bool old = key.startsWith(kOld);
    const double timeoutS = old && !readItBefore ? std::min(m_options.timeoutS, 60.0) : m_options.timeoutS;
    const QStringList args{QStringLiteral("--client"),  old ? key.mid(kOld.size()) : key,
                           QStringLiteral("--url"),     url,
                           QStringLiteral("--count"),   QString::number(count),
                           QStringLiteral("--timeout"), QString::number(timeoutS)};
    if (!old)
        return runProgram(m_clientPath, args, timeoutS, true);
    QJsonObject o = runProgram(m_options.oldClientPath, args, timeoutS, false);
    if (!o.value(QStringLiteral("ok")).toBool() && !readItBefore) {
        log() << "skipped: the old build on " << scenario << " (" << key << ": "
              << (o.isEmpty() ? QStringLiteral("no result") : o.value(QStringLiteral("error")).toString())
              << "); no old figures for this scenario" << Qt::endl;
        m_oldSkipped << scenario;
    }
    return o;
}

void BenchDriver::runThroughput()
{
    if (m_options.scenarios.contains(kLineScenario)) {
        m_line =
            startProcess(m_replayPath,
                         {QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--scenario"), kLineScenario,
                          QStringLiteral("--protocol"), QStringLiteral("line"), QStringLiteral("--tls"),
                          QStringLiteral("--count"), QString::number(countFor(kLineScenario))});
    }
    const int maxRepeat = m_options.converge ? std::max(m_options.repeat, m_options.maxRepeat) : m_options.repeat;
    QStringList pending = m_options.scenarios;
    QMap<QString, Convergence> convergence; // with --converge, after each repeat
    for (int rep = 0; rep < maxRepeat && !pending.isEmpty(); ++rep) {
        for (const QString &scenario : std::as_const(pending)) {
            const quint64 count = countFor(scenario);
            const QString url = urlFor(scenario, count);
            // Rotate the order every repeat so that no client always runs first; an old build's
            // run sits next to the new one's, the two swapping places every other repeat.
            QStringList order = clientsFor(scenario);
            if (rep >= m_options.repeat) // --converge's extra repeats: the peers do not steer it
                order.erase(std::remove_if(order.begin(), order.end(), PeerClients::isPeer), order.end());
            for (int r = 0; r < rep % std::max<qsizetype>(1, order.size()); ++r)
                order.append(order.takeFirst());
            QStringList keys;
            for (const QString &c : std::as_const(order)) {
                const bool old = !m_options.oldClientPath.isEmpty() && m_options.compareClients.contains(c);
                if (old && rep % 2)
                    keys << kOld + c;
                keys << c;
                if (old && rep % 2 == 0)
                    keys << kOld + c;
            }
            for (const QString &key : std::as_const(keys)) {
                if (key.startsWith(kOld) && m_oldSkipped.contains(scenario))
                    continue;
                const QJsonObject o = runThroughputClient(key, scenario, url, count);
                log() << "repeat " << rep + 1 << " " << scenario << " " << key << ": "
                      << rate(o.value(QStringLiteral("msgs_per_s")).toDouble()) << " msgs/s, "
                      << num(o.value(QStringLiteral("cpu_us_per_msg")).toDouble(), 3) << " us/msg" << Qt::endl;
                m_results.add(scenario, key, o);
            }
        }
        if (!m_options.converge || rep + 1 < m_options.repeat)
            continue;
        QStringList still;
        for (const QString &scenario : std::as_const(pending)) {
            const Convergence c =
                m_results.convergence(scenario, ratioDefs(scenario), m_options.repeat, m_options.convergeWithin);
            convergence[scenario] = c;
            if (!c.converged)
                still << scenario;
            else
                log() << scenario << ": converged after " << rep + 1 << " repeats (widest: " << c.widestName << " ±"
                      << num(c.widest.halfWidth(), 3) << ")" << Qt::endl;
        }
        pending = still;
    }
    stopServer(m_line);
    reportThroughput(maxRepeat, convergence);
}

} // namespace streamscope::bench
