#pragma once

// The capture recorder and the flight recorder of one stream as its session holds them
// (docs/capture.md): each a null pointer unless it is on, so that off costs one pointer test a
// message. The hot path hands them each message with the receive time it read anyway; the
// session's parts hand them its events (connected, sent, closed, reconnect, rollover, gap,
// stopped) as capture event lines where they happen, so a capture keeps the order in which the
// worker saw things. What their writer thread reports back (a recording's errors, the flight
// recorder's saves and their errors) is collected on the tick as text for the stream's events.
//
// Thread contract: the session's worker only; the recorders' rings are read on the capture
// writer thread.

#include <QtCore/QJsonObject>
#include <QtCore/QStringList>

#include <memory>

namespace streamscope {

class CaptureRecorder;
class FlightRecorder;

class SessionRecorders {
public:
    SessionRecorders();
    ~SessionRecorders();
    SessionRecorders(const SessionRecorders &) = delete;
    SessionRecorders &operator=(const SessionRecorders &) = delete;

    // From the next message on (null: off).
    void setRecorder(std::shared_ptr<CaptureRecorder> recorder);
    void setFlightRecorder(std::shared_ptr<FlightRecorder> flight);

    // Whether one is on: it needs every message whole.
    bool any() const { return m_recorder || m_flight; }
    // Hot path, while any(): one message and its receive time.
    void message(qint64 receivedUs, const char *data, qsizetype len, bool binary);
    // An event line, when one is on.
    void event(qint64 wallUs, const QString &name, const QJsonObject &fields);
    // An event line already written as JSON (capture::eventJson()), of at most maxEventBytes().
    void eventJson(qint64 wallUs, const QByteArray &json);
    // The longest event line every recorder on takes (a quarter of its buffer).
    qsizetype maxEventBytes() const;
    // On the tick: what the writer thread reported since the last call, as event texts.
    QStringList takeNews();

private:
    std::shared_ptr<CaptureRecorder> m_recorder;
    quint64 m_recordErrorsSeen = 0; // the recorder's errors already told
    std::shared_ptr<FlightRecorder> m_flight;
    quint64 m_flightSavesSeen = 0; // its saves and save errors already told
    quint64 m_flightErrorsSeen = 0;
};

} // namespace streamscope
