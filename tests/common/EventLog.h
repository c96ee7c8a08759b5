#pragma once

// A session's events as the test reads them: every event a StreamSession published, in order.
// Used on the session's own thread only, as the fakes of SessionRig.h are.

#include "session/SessionEvents.h"

#include <QtCore/QVector>

#include <algorithm>

namespace streamscope::testing {

class EventLog final : public SessionEvents {
public:
    void publish(const StreamEvent &event) override { events << event; }
    int count(EventKind kind) const
    {
        return int(
            std::count_if(events.begin(), events.end(), [kind](const StreamEvent &e) { return e.kind == kind; }));
    }
    QVector<StreamEvent> events;
};

} // namespace streamscope::testing
