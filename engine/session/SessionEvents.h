#pragma once

// Where a session's events go: state changes, connects and disconnects, stalls, gaps,
// parse errors. Implemented by EngineWorker, which hands them to the facade's thread; tests
// collect them.
//
// Thread contract: called on the session's worker thread.

#include "model/StreamRecords.h"

namespace streamscope {

class SessionEvents {
public:
    virtual void publish(const StreamEvent &event) = 0;

protected:
    ~SessionEvents() = default;
};

} // namespace streamscope
