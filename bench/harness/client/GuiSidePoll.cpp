#include "GuiSidePoll.h"

#include "BenchClock.h"

#include <algorithm>

namespace streamscope::bench {

GuiSidePoll::GuiSidePoll(Engine &engine)
    : m_engine(engine)
{
}

void GuiSidePoll::poll()
{
    const qint64 t0 = monotonicNs();
    const StreamId phase = StreamId(++m_polls % 10);
    const auto held = [this](StreamId id) -> StreamSnapshot * {
        const auto it = m_rowOf.constFind(id);
        return it == m_rowOf.cend() ? nullptr : &m_rows[*it];
    };
    m_engine.changedSnapshots(
        m_cursor, [phase](StreamId id) { return id % 10 == phase; }, held, m_fresh, m_refreshed);
    for (StreamSnapshot &s : m_fresh) {
        const auto it = m_rowOf.constFind(s.id);
        if (it == m_rowOf.cend()) {
            m_rowOf.insert(s.id, m_rows.size());
            m_rows.append(std::move(s));
        } else {
            m_rows[*it] = std::move(s);
        }
    }
    m_readRows += quint64(m_cursor.lastRead());
    m_unchangedRows += quint64(m_cursor.lastUnchanged());
    m_refreshedRows += quint64(m_cursor.lastRefreshed());
    m_pollMs.push_back(double(monotonicNs() - t0) / 1e6);
}

void GuiSidePoll::addTo(QJsonObject &out)
{
    const double polls = double(std::max<quint64>(1, m_pollMs.size()));
    out[QStringLiteral("polls")] = double(m_pollMs.size());
    out[QStringLiteral("poll_rows_read_per_poll")] = double(m_readRows) / polls;
    out[QStringLiteral("poll_rows_unchanged_per_poll")] = double(m_unchangedRows) / polls;
    out[QStringLiteral("poll_rows_refreshed_per_poll")] = double(m_refreshedRows) / polls;
    out[QStringLiteral("poll_ms_p50")] = quantile(m_pollMs, 0.5);
    out[QStringLiteral("poll_ms_p99")] = quantile(m_pollMs, 0.99);
    out[QStringLiteral("poll_ms_max")] = m_pollMs.empty() ? 0.0 : *std::max_element(m_pollMs.begin(), m_pollMs.end());
}

} // namespace streamscope::bench
