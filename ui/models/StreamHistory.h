#pragma once

// Per stream, at one-second resolution for the last ten minutes: the message rate (and the
// total over all streams, for the rate chart) and the p99 latency the table shows (for the
// details pane's sparkline). Fixed-capacity rings allocated once per stream, fed once a
// second by SelectionController from the SnapshotHub's snapshots (rate = difference of totals
// / difference of snapshot times), so they keep recording while a chart is paused or hidden.
// GUI thread only.

#include "StreamSnapshot.h"

#include <QtCore/QHash>
#include <QtCore/QList>
#include <QtCore/QPointF>

#include <vector>

namespace streamscope::ui {

class StreamHistory {
public:
    static constexpr int kCapacity = 600; // seconds

    void sample(const QVector<StreamSnapshot> &snaps);
    // After sample(): the stream's p99 latency in ms this second, NaN when it has none.
    void sampleLatency(StreamId id, double p99Ms);
    void forget(StreamId id) { m_streams.remove(id); }
    void clear();

    // Points (x = seconds before the newest sample, ≤ 0; y = msgs/s), oldest first.
    // `out` is cleared, not shrunk: reuse one list reserved once.
    void streamPoints(StreamId id, QList<QPointF> &out, double *maxY = nullptr) const;
    void totalPoints(QList<QPointF> &out, double *maxY = nullptr) const;
    // The p99 latency (ms) of the stream's last seconds; seconds without one are left out.
    void latencyPoints(StreamId id, QList<QPointF> &out, double *maxY = nullptr) const;
    int sampleCount() const { return m_total.count; }

private:
    struct Ring {
        std::vector<double> values = std::vector<double>(kCapacity, 0.0);
        int head = 0; // next write
        int count = 0;
        void push(double v);
        void points(QList<QPointF> &out, double *maxY) const; // leaves NaN values out
    };
    struct Stream {
        Ring rate;
        Ring p99;
        quint64 rateSamples = 0; // pushed so far, to keep the two rings in step
        quint64 p99Samples = 0;
        quint64 lastMessages = 0;
        qint64 lastNs = 0;
        bool primed = false;
    };
    QHash<StreamId, Stream> m_streams;
    Ring m_total;
};

} // namespace streamscope::ui
