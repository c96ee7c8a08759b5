#include "OutgoingPacer.h"

#include <algorithm>

namespace streamscope {

void OutgoingPacer::expire(qint64 nowMs)
{
    while (!m_sentMs.empty() && nowMs - m_sentMs.front() >= kWindowMs)
        m_sentMs.pop_front();
}

void OutgoingPacer::notePing(qint64 nowMs)
{
    if (m_limit > 0)
        m_sentMs.push_back(nowMs);
}

qint64 OutgoingPacer::flush(qint64 nowMs, const std::function<bool(const QString &)> &send)
{
    while (!m_queue.empty()) {
        if (m_limit > 0) {
            expire(nowMs);
            if (int(m_sentMs.size()) >= m_limit - 1)
                return std::max<qint64>(1, kWindowMs - (nowMs - m_sentMs.front()));
        }
        if (!send(m_queue.front()))
            return 0;
        if (m_limit > 0)
            m_sentMs.push_back(nowMs);
        m_queue.pop_front();
    }
    return 0;
}

} // namespace streamscope
