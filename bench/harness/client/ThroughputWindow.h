#pragma once

// The window of one throughput run, as every throughput client (wire, qws, the engine
// clients) reports it: from the first message timed to the count-th one, msgs/s =
// (count − counted at first) ÷ (last − first), CPU (user+sys, all threads) over the same
// window; json() is the line the driver reads.
//
// Thread contract: a value of the client's main thread.

#include <QtCore/QJsonObject>
#include <QtCore/QString>
#include <QtCore/QtGlobal>

namespace streamscope::bench {

struct ThroughputWindow {
    quint64 count = 0;
    quint64 received = 0;
    quint64 receivedAtFirst = 0;
    qint64 firstNs = 0;
    qint64 lastNs = 0;
    double cpuFirstUs = 0;
    double cpuLastUs = 0;
    double sizeMedian = 0;
    QString error;
    QJsonObject extra; // the client's own fields

    // ok: every message arrived within a window of some length.
    QJsonObject json(const QString &client) const;
};

} // namespace streamscope::bench
