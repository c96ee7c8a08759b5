#include "FlightAlertSaver.h"

#include "Engine.h"

namespace streamscope::alerts {

QString FlightAlertSaver::saveForAlert(StreamId id, qint64 steadyMs)
{
    if (!m_engine || !m_engine->flightRecorder().enabled)
        return {};
    const qint64 everyMs = qint64(m_engine->flightRecorder().alertSaveEveryS) * 1000;
    const auto last = m_lastSaveMs.constFind(id);
    if (last != m_lastSaveMs.cend() && steadyMs - *last < everyMs)
        return {};
    const QString path = m_engine->saveFlightRecording(id, m_fallbackDir);
    if (!path.isEmpty())
        m_lastSaveMs.insert(id, steadyMs);
    return path;
}

} // namespace streamscope::alerts
