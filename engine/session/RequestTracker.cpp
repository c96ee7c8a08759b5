#include "RequestTracker.h"

namespace streamscope {

void RequestTracker::track(const QString &requestId, const QString &method, qint64 nowUs)
{
    if (m_pending.size() >= kMaxPending && !m_pending.contains(requestId)) {
        auto oldest = m_pending.begin();
        for (auto it = m_pending.begin(); it != m_pending.end(); ++it)
            if (it->sentUs < oldest->sentUs)
                oldest = it;
        m_pending.erase(oldest);
    }
    m_pending.insert(requestId, Pending{method, nowUs});
}

void RequestTracker::match(ResponseRecord &record, qint64 nowUs)
{
    if (record.requestId.isEmpty())
        return;
    const auto it = m_pending.constFind(record.requestId);
    if (it == m_pending.constEnd())
        return;
    record.method = it->method;
    record.roundTripMs = (nowUs - it->sentUs) / 1000;
    m_pending.erase(it);
}

} // namespace streamscope
