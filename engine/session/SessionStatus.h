#pragma once

// What one stream's session says: its state (the state machine's; set here, published in the
// stream's shared block and sent as a StateChanged event, the one way up for a command's
// result), its events (through SessionEvents; a kind that may come in bursts, such as gaps and
// parse errors, at most ten a second: EventThrottle), and the capture event lines
// (SessionRecorders). Every part of the session reports through it, and text leaves the worker
// here escaped (peerText), whatever path it came by.
//
// Thread contract: the session's worker only.

#include "EventThrottle.h"
#include "model/StreamRecords.h"

#include <QtCore/QJsonObject>

namespace streamscope {

class Clock;
class SessionEvents;
class SessionRecorders;
class StreamShared;

class SessionStatus {
public:
    SessionStatus(StreamShared &shared, SessionEvents &events, const Clock &clock, SessionRecorders &recorders);

    StreamState state() const { return m_state; }
    void setState(StreamState state, const QString &reason, qint64 nextRetryAtWallMs = 0);
    void emitEvent(EventKind kind, const QString &text, int closeCode = 0);
    // Whether an event of `kind` may go out now (at most ten a second); if so, it counts.
    bool allow(EventKind kind);
    // A capture event line, when the stream records (docs/capture.md).
    void record(const QString &name, const QJsonObject &fields);
    // Whether record() writes anything (spares building a line that goes nowhere).
    bool recording() const;
    // A capture event line already written as JSON, of at most recordLimit() bytes.
    void recordJson(const QByteArray &json);
    qsizetype recordLimit() const;

private:
    StreamShared &m_shared;
    SessionEvents &m_events;
    const Clock &m_clock;
    SessionRecorders &m_recorders;
    EventThrottle m_throttle;
    StreamState m_state = StreamState::Idle;
};

} // namespace streamscope
