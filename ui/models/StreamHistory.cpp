#include "StreamHistory.h"

#include <QtCore/QSet>

#include <algorithm>
#include <cmath>

namespace streamscope::ui {

void StreamHistory::Ring::push(double v)
{
    values[size_t(head)] = v;
    head = (head + 1) % kCapacity;
    count = std::min(count + 1, kCapacity);
}

void StreamHistory::Ring::points(QList<QPointF> &out, double *maxY) const
{
    out.clear();
    double top = 0.0;
    for (int i = 0; i < count; ++i) {
        const int idx = (head - count + i + kCapacity) % kCapacity;
        const double v = values[size_t(idx)];
        if (std::isnan(v))
            continue;
        top = std::max(top, v);
        out.append(QPointF(double(i - count + 1), v));
    }
    if (maxY)
        *maxY = top;
}

void StreamHistory::clear()
{
    m_streams.clear();
    m_total = Ring();
}

void StreamHistory::sample(const QVector<StreamSnapshot> &snaps)
{
    double total = 0.0;
    QSet<StreamId> present;
    for (const StreamSnapshot &s : snaps) {
        present.insert(s.id);
        Stream &st = m_streams[s.id];
        if (st.primed) {
            const double dt = double(s.takenAtNs - st.lastNs) / 1e9;
            // No newer snapshot (a remote agent's, polled once a second): the last rate holds.
            const double rate = dt == 0.0 && st.rate.count > 0
                ? st.rate.values[size_t((st.rate.head - 1 + kCapacity) % kCapacity)]
                : dt > 0.0 && s.messages >= st.lastMessages ? double(s.messages - st.lastMessages) / dt
                                                            : 0.0;
            st.rate.push(rate);
            ++st.rateSamples;
            total += rate;
        }
        st.primed = true;
        st.lastMessages = s.messages;
        st.lastNs = s.takenAtNs;
    }
    for (auto it = m_streams.begin(); it != m_streams.end();) {
        if (!present.contains(it.key()))
            it = m_streams.erase(it);
        else
            ++it;
    }
    m_total.push(total);
}

void StreamHistory::sampleLatency(StreamId id, double p99Ms)
{
    const auto it = m_streams.find(id);
    if (it == m_streams.end())
        return;
    // One latency value per rate value, so that both lines share their time axis.
    while (it->p99Samples + 1 < it->rateSamples) {
        it->p99.push(qQNaN());
        ++it->p99Samples;
    }
    if (it->p99Samples < it->rateSamples) {
        it->p99.push(p99Ms);
        ++it->p99Samples;
    }
}

void StreamHistory::streamPoints(StreamId id, QList<QPointF> &out, double *maxY) const
{
    const auto it = m_streams.constFind(id);
    if (it == m_streams.cend()) {
        out.clear();
        if (maxY)
            *maxY = 0.0;
        return;
    }
    it->rate.points(out, maxY);
}

void StreamHistory::latencyPoints(StreamId id, QList<QPointF> &out, double *maxY) const
{
    const auto it = m_streams.constFind(id);
    if (it == m_streams.cend()) {
        out.clear();
        if (maxY)
            *maxY = 0.0;
        return;
    }
    it->p99.points(out, maxY);
}

void StreamHistory::totalPoints(QList<QPointF> &out, double *maxY) const
{
    m_total.points(out, maxY);
}

} // namespace streamscope::ui
