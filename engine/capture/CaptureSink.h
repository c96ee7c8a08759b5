#pragma once

// What the capture writer thread (CaptureWriter) drives: a stream's recording to disk
// (CaptureRecorder) or its flight recorder (FlightRecorder). Each drains its own ring.
//
// Thread contract: finish() on any thread; the rest on the writer thread only.

#include <QtCore/QtGlobal>

namespace streamscope {

class CaptureSink {
public:
    virtual ~CaptureSink() = default;
    // No more input will come (the session is gone): what is left is handled, then done().
    virtual void finish() = 0;
    // Handles what the ring holds and whatever is due. True if there was anything to do.
    // `wallUs` and `steadyMs` are the writer's clocks.
    virtual bool service(qint64 wallUs, qint64 steadyMs) = 0;
    // Whether finish() was called and everything has been handled.
    virtual bool done() const = 0;
    // The process is ending: handle what is left now.
    virtual void close(qint64 wallUs, qint64 steadyMs) = 0;
};

} // namespace streamscope
