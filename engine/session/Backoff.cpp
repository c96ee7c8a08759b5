#include "Backoff.h"

#include <QtCore/QRandomGenerator>

#include <algorithm>

namespace streamscope {

int Backoff::currentCeilingMs() const
{
    const qint64 grown = qint64(std::max(1, m_baseMs)) << std::min(m_attempt, 30);
    return int(std::min<qint64>(grown, std::max(m_capMs, 1)));
}

int Backoff::nextDelayMs()
{
    const int ceiling = currentCeilingMs();
    ++m_attempt;
    return int(QRandomGenerator::global()->bounded(ceiling + 1));
}

} // namespace streamscope
