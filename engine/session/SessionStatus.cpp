#include "SessionStatus.h"

#include "Clock.h"
#include "SessionEvents.h"
#include "SessionRecorders.h"
#include "model/PeerText.h"
#include "stats/StreamShared.h"

namespace streamscope {

SessionStatus::SessionStatus(StreamShared &shared, SessionEvents &events, const Clock &clock,
                             SessionRecorders &recorders)
    : m_shared(shared)
    , m_events(events)
    , m_clock(clock)
    , m_recorders(recorders)
{
}

void SessionStatus::setState(StreamState state, const QString &reason, qint64 nextRetryAtWallMs)
{
    m_state = state;
    const qint64 wall = m_clock.wallMs();
    // What leaves the worker is safe to show: a reason may quote a peer (a close reason, a
    // venue's error message) through a path that did not escape it.
    const QString shown = peerText(reason);
    m_shared.setState(state, shown, wall, nextRetryAtWallMs);
    StreamEvent e;
    e.stream = m_shared.id;
    e.timeMs = wall;
    e.kind = EventKind::StateChanged;
    e.state = state;
    e.text = shown;
    m_events.publish(e);
}

void SessionStatus::emitEvent(EventKind kind, const QString &text, int closeCode)
{
    StreamEvent e;
    e.stream = m_shared.id;
    e.timeMs = m_clock.wallMs();
    e.kind = kind;
    e.state = m_state;
    e.closeCode = closeCode;
    e.text = peerText(text); // see setState()
    m_events.publish(e);
}

bool SessionStatus::allow(EventKind kind)
{
    return m_throttle.allow(kind, m_clock.monotonicMs());
}

void SessionStatus::record(const QString &name, const QJsonObject &fields)
{
    if (m_recorders.any())
        m_recorders.event(m_clock.wallUs(), name, fields);
}

bool SessionStatus::recording() const
{
    return m_recorders.any();
}

void SessionStatus::recordJson(const QByteArray &json)
{
    if (m_recorders.any())
        m_recorders.eventJson(m_clock.wallUs(), json);
}

qsizetype SessionStatus::recordLimit() const
{
    return m_recorders.maxEventBytes();
}

} // namespace streamscope
