#include "RequestTracker.h"

namespace streamscope {

void RequestTracker::track(const QString &requestId, const QString &method, qint64 nowMs)
{
    if (m_pending.size() >= kMaxPending && !m_pending.contains(requestId)) {
        auto oldest = m_pending.begin();
        for (auto it = m_pending.begin(); it != m_pending.end(); ++it)
            if (it->sentMs < oldest->sentMs)
                oldest = it;
        m_pending.erase(oldest);
    }
    m_pending.insert(requestId, Pending{method, nowMs});
}

void RequestTracker::match(ResponseRecord &record, qint64 nowMs)
{
    if (record.requestId.isEmpty())
        return;
    const auto it = m_pending.constFind(record.requestId);
    if (it == m_pending.constEnd())
        return;
    record.method = it->method;
    record.roundTripMs = nowMs - it->sentMs;
    m_pending.erase(it);
}

} // namespace streamscope
