#include "SessionRecorders.h"

#include "capture/CaptureRecorder.h"
#include "capture/FlightRecorder.h"

#include <algorithm>
#include <limits>

namespace streamscope {

SessionRecorders::SessionRecorders() = default;
SessionRecorders::~SessionRecorders() = default;

void SessionRecorders::setRecorder(std::shared_ptr<CaptureRecorder> recorder)
{
    m_recorder = std::move(recorder);
    m_recordErrorsSeen = 0; // a new recorder counts its own
}

void SessionRecorders::setFlightRecorder(std::shared_ptr<FlightRecorder> flight)
{
    m_flight = std::move(flight);
    m_flightSavesSeen = m_flight ? m_flight->savedFiles() : 0;
    m_flightErrorsSeen = m_flight ? m_flight->saveErrors() : 0;
}

void SessionRecorders::message(qint64 receivedUs, const char *data, qsizetype len, bool binary)
{
    if (m_recorder)
        m_recorder->message(receivedUs, data, len, binary);
    if (m_flight)
        m_flight->message(receivedUs, data, len, binary);
}

void SessionRecorders::event(qint64 wallUs, const QString &name, const QJsonObject &fields)
{
    if (m_recorder)
        m_recorder->event(wallUs, name, fields);
    if (m_flight)
        m_flight->event(wallUs, name, fields);
}

void SessionRecorders::eventJson(qint64 wallUs, const QByteArray &json)
{
    if (m_recorder)
        m_recorder->eventJson(wallUs, json);
    if (m_flight)
        m_flight->eventJson(wallUs, json);
}

qsizetype SessionRecorders::maxEventBytes() const
{
    std::size_t most = std::size_t(std::numeric_limits<qsizetype>::max());
    if (m_recorder)
        most = std::min(most, m_recorder->maxEventBytes());
    if (m_flight)
        most = std::min(most, m_flight->maxEventBytes());
    return qsizetype(most);
}

QStringList SessionRecorders::takeNews()
{
    QStringList news;
    if (m_recorder && m_recorder->errorCount() != m_recordErrorsSeen) {
        m_recordErrorsSeen = m_recorder->errorCount();
        news << QStringLiteral("recording: ") + m_recorder->status().error;
    }
    if (m_flight && (m_flight->savedFiles() != m_flightSavesSeen || m_flight->saveErrors() != m_flightErrorsSeen)) {
        const FlightStatus f = m_flight->status();
        if (f.savedFiles != m_flightSavesSeen)
            news << QStringLiteral("flight recorder: saved ") + f.lastFile;
        if (f.saveErrors != m_flightErrorsSeen)
            news << QStringLiteral("flight recorder: ") + f.error;
        m_flightSavesSeen = f.savedFiles;
        m_flightErrorsSeen = f.saveErrors;
    }
    return news;
}

} // namespace streamscope
