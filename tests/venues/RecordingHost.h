#pragma once

// A venue handler's host for tests that call a handler directly: it keeps what the handler
// sends and reports, and counts into a stream's shared state of its own; nothing is sent
// anywhere.

#include "model/StreamSnapshot.h"
#include "stats/StreamShared.h"
#include "venues/VenueHost.h"

namespace streamscope::testing {

// A host that keeps what the handler reports; nothing is sent anywhere.
struct RecordingHost final : VenueHost {
    void sendOn(int, const QString &text, const QString &, const QString &) override { sent << text; }
    void venueEvent(EventKind kind, const QString &text) override { events << qMakePair(kind, text); }
    void venueFailed(const QString &) override { }
    void venueReconnect(const QString &) override { }
    void venueStalled(const QString &) override { }
    void rollOver(int, const QString &) override { }
    StreamShared &shared() override { return m_shared; }
    qint64 monotonicMs() const override { return 0; }
    qint64 wallMs() const override { return 1700000000000; }
    StreamShared m_shared{1, StreamConfig{}};
    QStringList sent;
    QList<QPair<EventKind, QString>> events;
};

// What a host's stream has counted.
inline StreamSnapshot snapshotOf(RecordingHost &host)
{
    StreamSnapshot s;
    host.m_shared.fillSnapshot(s, false);
    return s;
}

} // namespace streamscope::testing
