// BenchDriver's throughput tables (BenchDriver.h): the main table with the base ratios, the
// same ratios by CPU, --converge's verdicts, the native clients' table, the peers' table and
// the old build beside the new one; and the scenarios' JSON.

#include "BenchDriver.h"

#include "BenchFormat.h"

#include <QtCore/QJsonArray>

#include <algorithm>
#include <iterator>

namespace streamscope::bench {

void BenchDriver::reportThroughput(int maxRepeat, const QMap<QString, Convergence> &verdicts)
{
    // The tables. A cell is "median [min–max]" over the repeats; a ratio is the median of
    // each repeat's own ratio [its min–max].
    const QStringList mainClients = [&] {
        QStringList l;
        for (const QString &c : std::as_const(m_options.clients))
            if (!PeerClients::isPeer(c))
                l << c;
        return l;
    }();
    QString table =
        QStringLiteral("## Throughput (firehose; msgs/s · CPU µs/msg; median [min–max] over the repeats)\n\n");
    table += QStringLiteral("| scenario | size B | count | repeats |");
    for (const QString &c : mainClients)
        table += QStringLiteral(" %1 |").arg(c);
    for (const auto &r : kBaseRatios)
        table += QStringLiteral(" %1 |").arg(std::get<0>(r));
    table += QStringLiteral("\n|---|---|---|---|");
    for (qsizetype i = 0; i < mainClients.size() + qsizetype(std::size(kBaseRatios)); ++i)
        table += QStringLiteral("---|");
    table += QLatin1Char('\n');

    QStringList peersRan;
    for (const QString &p : PeerClients::names())
        if (m_options.clients.contains(p) && !m_skippedPeers.contains(p))
            peersRan << p;
    QString peerTable;
    if (!peersRan.isEmpty()) {
        peerTable = QStringLiteral("## StreamScope and its peers (same replay server, same run)\n\n| scenario |");
        const QStringList cols =
            QStringList{QStringLiteral("engine-raw"), QStringLiteral("engine-parsed"), QStringLiteral("app")}
            + peersRan;
        for (const QString &c : cols)
            peerTable += QStringLiteral(" %1 |").arg(c);
        peerTable += QStringLiteral(" ratios |\n|---|");
        for (qsizetype i = 0; i <= cols.size(); ++i)
            peerTable += QStringLiteral("---|");
        peerTable += QLatin1Char('\n');
    }
    // The native websocket transport's clients and their ratios, when they ran.
    QString nativeTable;
    QString oldTable;
    QString oldRatioTable;
    if (!m_options.oldClientPath.isEmpty()) {
        oldTable =
            QStringLiteral("## Old and new build, interleaved (old: %1)\n\n| scenario | client | old msgs/s | new "
                           "msgs/s | old CPU µs/msg | new CPU µs/msg | new/old msgs/s |\n|---|---|---|---|---|---|"
                           "---|\n")
                .arg(m_options.oldClientPath);
        oldRatioTable = QStringLiteral("\n| scenario | ratio (msgs/s) | old | new |\n|---|---|---|---|\n");
    }
    QStringList convergence;
    QString cpuTable = QStringLiteral("CPU ratios (the second client's CPU µs/msg ÷ the first's, per repeat; median "
                                      "[min–max]):\n\n| scenario |");
    for (const auto &r : kBaseRatios)
        cpuTable += QStringLiteral(" %1 |").arg(std::get<0>(r));
    cpuTable += QStringLiteral("\n|---|");
    for (std::size_t i = 0; i < std::size(kBaseRatios); ++i)
        cpuTable += QStringLiteral("---|");
    cpuTable += QLatin1Char('\n');

    for (const QString &scenario : std::as_const(m_options.scenarios)) {
        const QMap<QString, QList<QJsonObject>> byKey = m_results.byKey(scenario);
        QJsonObject clients;
        QJsonObject oldClients;
        double sizeBytes = 0;
        int repeats = 0;
        for (auto it = byKey.cbegin(); it != byKey.cend(); ++it) {
            const QString &key = it.key();
            const QJsonObject figures = m_results.clientFigures(scenario, key);
            if (key.startsWith(kOld))
                oldClients[key.mid(kOld.size())] = figures;
            else
                clients[key] = figures;
            repeats = std::max(repeats, int(it.value().size()));
            if (key == QLatin1String("wire") || key == QLatin1String("qws")) {
                for (const QJsonObject &o : it.value())
                    sizeBytes = std::max(sizeBytes, o.value(QStringLiteral("size_bytes")).toDouble());
            }
        }
        QJsonObject ratios;
        QJsonObject ratioSpread;
        QMap<QString, Spread> spreads;
        for (const RatioDef &d : ratioDefs(scenario)) {
            const Spread s = m_results.pairedSpread(scenario, d.numerator, d.denominator, kRate);
            spreads.insert(d.name, s);
            ratios[d.name] = s.median;
            ratioSpread[d.name] = QJsonObject{{QStringLiteral("median"), s.median},
                                              {QStringLiteral("min"), s.min},
                                              {QStringLiteral("max"), s.max},
                                              {QStringLiteral("ci_low"), s.low},
                                              {QStringLiteral("ci_high"), s.high},
                                              {QStringLiteral("n"), s.n},
                                              {QStringLiteral("steers_convergence"), d.steers}};
        }
        // The same ratios by CPU: denominator's CPU µs/msg ÷ numerator's, per repeat (above 1:
        // the numerator spends less). On a loaded machine CPU per message moves far less than
        // msgs/s, which a client's threads being scheduled or not decides.
        QJsonObject cpuRatios;
        QString cpuRow = QStringLiteral("| %1 |").arg(scenario);
        for (const auto &[name, a, b] : kBaseRatios) {
            const Spread s = m_results.pairedSpread(scenario, b, a, kCpu);
            if (s.n)
                cpuRatios[name] = QJsonObject{{QStringLiteral("median"), s.median},
                                              {QStringLiteral("min"), s.min},
                                              {QStringLiteral("max"), s.max},
                                              {QStringLiteral("n"), s.n}};
            cpuRow += QStringLiteral(" %1 |").arg(ratioCell(s));
        }
        cpuTable += cpuRow + QLatin1Char('\n');
        QJsonObject entry{
            {QStringLiteral("name"), scenario},        {QStringLiteral("ratio_spread_cpu"), cpuRatios},
            {QStringLiteral("size_bytes"), sizeBytes}, {QStringLiteral("count"), double(countFor(scenario))},
            {QStringLiteral("repeats"), repeats},      {QStringLiteral("clients"), clients},
            {QStringLiteral("ratios"), ratios},        {QStringLiteral("ratio_spread"), ratioSpread}};
        if (!m_options.oldClientPath.isEmpty()) {
            entry[QStringLiteral("old_clients")] = oldClients;
            entry[QStringLiteral("old_skipped")] = m_oldSkipped.contains(scenario);
        }
        if (m_options.converge) {
            const Spread w = verdicts.value(scenario).widest;
            const bool converged = verdicts.value(scenario).converged;
            entry[QStringLiteral("converged")] = converged;
            entry[QStringLiteral("widest_ratio")] = verdicts.value(scenario).widestName;
            entry[QStringLiteral("widest_half_width")] = w.halfWidth();
            convergence << QStringLiteral("- %1: %2 after %3 repeats; widest ratio interval %4 ±%5 (%6 complete pairs)")
                               .arg(scenario,
                                    converged ? QStringLiteral("converged")
                                              : QStringLiteral("**did not converge** (±%1 asked, at most %2 repeats)")
                                                    .arg(num(m_options.convergeWithin, 3))
                                                    .arg(maxRepeat))
                               .arg(repeats)
                               .arg(verdicts.value(scenario).widestName, num(w.halfWidth(), 3))
                               .arg(w.n);
        }
        m_scenarios.append(entry);

        table += QStringLiteral("| %1 | %2 | %3 | %4 |")
                     .arg(scenario)
                     .arg(sizeBytes, 0, 'f', 0)
                     .arg(countFor(scenario))
                     .arg(repeats);
        for (const QString &c : mainClients)
            table += QStringLiteral(" %1 |").arg(clientCell(clients.value(c).toObject()));
        for (const auto &r : kBaseRatios)
            table += QStringLiteral(" %1 |").arg(ratioCell(spreads.value(std::get<0>(r))));
        table += QLatin1Char('\n');

        if (!peersRan.isEmpty() && scenario != kLineScenario) {
            peerTable += QStringLiteral("| %1 |").arg(scenario);
            for (const QString &c :
                 QStringList{QStringLiteral("engine-raw"), QStringLiteral("engine-parsed"), QStringLiteral("app")}
                     + peersRan)
                peerTable += QStringLiteral(" %1 |").arg(clientCell(clients.value(c).toObject()));
            QStringList r;
            for (const RatioDef &d : ratioDefs(scenario))
                if (PeerClients::isPeer(d.denominator) && spreads.value(d.name).n)
                    r << QStringLiteral("%1 %2").arg(d.name, ratioCell(spreads.value(d.name)));
            peerTable += QStringLiteral(" %1 |\n").arg(r.join(QStringLiteral("; ")));
        }
        QStringList nativeRatios;
        for (const RatioDef &d : ratioDefs(scenario))
            if (d.numerator.endsWith(QLatin1String("-native")) && spreads.value(d.name).n)
                nativeRatios << QStringLiteral("%1 %2").arg(d.name, ratioCell(spreads.value(d.name)));
        if (!nativeRatios.isEmpty()) {
            if (nativeTable.isEmpty())
                nativeTable =
                    QStringLiteral("Native websocket transport (`\"transport\": \"native\"`):\n\n| scenario | "
                                   "engine-raw-native | engine-parsed-native | ratios |\n|---|---|---|---|\n");
            nativeTable += QStringLiteral("| %1 | %2 | %3 | %4 |\n")
                               .arg(scenario, clientCell(clients.value(QStringLiteral("engine-raw-native")).toObject()),
                                    clientCell(clients.value(QStringLiteral("engine-parsed-native")).toObject()),
                                    nativeRatios.join(QStringLiteral("; ")));
        }
        if (!m_options.oldClientPath.isEmpty()) {
            for (const QString &c : std::as_const(m_options.compareClients)) {
                if (!clients.contains(c))
                    continue;
                const QJsonObject n = clients.value(c).toObject();
                const QJsonObject o = m_oldSkipped.contains(scenario) ? QJsonObject() : oldClients.value(c).toObject();
                oldTable += QStringLiteral("| %1 | %2 | %3 | %4 | %5 | %6 | %7 |\n")
                                .arg(scenario, c, spreadCell(o, kRate, true), spreadCell(n, kRate, true),
                                     spreadCell(o, kCpu, false), spreadCell(n, kCpu, false),
                                     ratioCell(spreads.value(c + QStringLiteral(" new/old"))));
            }
            for (const auto &r : kBaseRatios) {
                const QString name = std::get<0>(r);
                if (spreads.value(kOld + name).n > 0 || (spreads.contains(kOld + name) && spreads.value(name).n > 0))
                    oldRatioTable +=
                        QStringLiteral("| %1 | %2 | %3 | %4 |\n")
                            .arg(scenario, name, ratioCell(spreads.value(kOld + name)), ratioCell(spreads.value(name)));
            }
        }
    }
    m_root[QStringLiteral("scenarios")] = m_scenarios;
    m_markdown += table;
    m_markdown += QStringLiteral("\nA cell: median [min–max] of msgs/s · CPU µs/msg over the repeats. A ratio: the "
                                 "median of each repeat's own ratio (clients run next to each other) [its min–max].");
    if (m_options.scenarios.contains(kLineScenario))
        m_markdown += QStringLiteral(" betfair_mcm (TLS lines): `qws` is QSslSocket::readLine(), `wire` a QSslSocket "
                                     "reader that only splits lines.");
    if (std::any_of(m_options.scenarios.cbegin(), m_options.scenarios.cend(), isWss))
        m_markdown += QStringLiteral(" *_wss: the same scenario over TLS websocket (the replay server's built-in "
                                     "certificate, trusted as a CA by every client); `wire` reads it through OpenSSL.");
    m_markdown += QStringLiteral("\n\n") + cpuTable + QLatin1Char('\n');
    if (!convergence.isEmpty())
        m_markdown += QStringLiteral("Convergence (every ratio's median known within ±%1, 95 %% interval of the "
                                     "median; peers' ratios do not steer it):\n\n")
                          .arg(num(m_options.convergeWithin, 3))
            + convergence.join(QLatin1Char('\n')) + QStringLiteral("\n\n");
    if (!nativeTable.isEmpty())
        m_markdown += nativeTable + QStringLiteral("\n");
    if (!peerTable.isEmpty())
        m_markdown += peerTable + QStringLiteral("\n") + peerNote() + QStringLiteral("\n\n");
    if (!oldTable.isEmpty())
        m_markdown += oldTable + oldRatioTable + QStringLiteral("\n");
    m_markdown.replace(QStringLiteral("%%"), QStringLiteral("%"));
}

QString BenchDriver::peerNote() const
{
    QStringList versions;
    for (const QJsonValue &v : m_scenarios) {
        const QJsonObject clients = v.toObject().value(QStringLiteral("clients")).toObject();
        for (const QString &p : PeerClients::names()) {
            const QString peer = clients.value(p).toObject().value(QStringLiteral("peer")).toString();
            if (!peer.isEmpty() && !versions.contains(peer))
                versions << peer;
        }
    }
    return QStringLiteral("Peers (%1): node-ws is node's `ws`, py-websockets Python's `websockets` (asyncio); "
                          "\"-parse\": every message through JSON.parse / json.loads and its event time `E` read, "
                          "as engine-parsed does. Each in its own process, interleaved with the others.")
        .arg(versions.join(QStringLiteral("; ")));
}

} // namespace streamscope::bench
