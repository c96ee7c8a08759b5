#pragma once

// Message rate per stream and in total at one-second resolution for the last ten minutes,
// in fixed-capacity rings allocated once per stream. Fed once a second by the main window
// from engine snapshots (rate = difference of totals / difference of snapshot times), so it
// keeps recording while the chart is paused. GUI thread only.

#include "StreamSnapshot.h"

#include <QtCore/QHash>
#include <QtCore/QList>
#include <QtCore/QPointF>

#include <vector>

namespace streamscope::ui {

class RateHistory {
public:
    static constexpr int kCapacity = 600; // seconds

    void sample(const QVector<StreamSnapshot> &snaps);
    void forget(StreamId id) { m_streams.remove(id); }
    void clear();

    // Points (x = seconds before the newest sample, ≤ 0; y = msgs/s), oldest first.
    // `out` is cleared, not shrunk: reuse one list reserved once.
    void streamPoints(StreamId id, QList<QPointF> &out, double *maxY = nullptr) const;
    void totalPoints(QList<QPointF> &out, double *maxY = nullptr) const;
    int sampleCount() const { return m_total.count; }

private:
    struct Ring {
        std::vector<double> values = std::vector<double>(kCapacity, 0.0);
        int head = 0; // next write
        int count = 0;
        void push(double v);
        void points(QList<QPointF> &out, double *maxY) const;
    };
    struct Stream {
        Ring ring;
        quint64 lastMessages = 0;
        qint64 lastNs = 0;
        bool primed = false;
    };
    QHash<StreamId, Stream> m_streams;
    Ring m_total;
};

} // namespace streamscope::ui
