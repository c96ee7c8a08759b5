// The `wire` client: what the machine can do (WireReader.h), in the window every client
// reports; over TLS lines the wire client is QwsClient's line splitter.

#include "Clients.h"

#include "BenchClock.h"
#include "ClientSupport.h"
#include "WireReader.h"

#include "ReplayServer.h"

namespace streamscope::bench {

ThroughputWindow runWire(const QUrl &url, quint64 count, bool stamped, double timeoutS, QJsonObject *latency)
{
    if (isLineUrl(url))
        return runQws(url, count, true, timeoutS);
    WireReader::Result r =
        WireReader::run(url.toString().toStdString(), count, stamped, timeoutS,
                        isWssUrl(url) ? replay::builtinCertificatePem().toStdString() : std::string());
    ThroughputWindow w;
    w.count = count;
    w.received = r.received;
    w.receivedAtFirst = r.receivedAtFirst;
    w.firstNs = r.firstNs;
    w.lastNs = r.lastNs;
    w.cpuFirstUs = r.cpuFirstUs;
    w.cpuLastUs = r.cpuLastUs;
    w.sizeMedian = quantile(r.sizes, 0.5);
    w.error = QString::fromStdString(r.error);
    if (latency) {
        // The engine's own buckets, so that both sides are bucketed alike.
        LatencySnapshot l;
        for (const std::int64_t ns : r.latencyNs)
            l.record(ns / 1000);
        *latency = latencyJson(l);
    }
    return w;
}

} // namespace streamscope::bench
