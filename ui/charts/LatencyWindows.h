#pragma once

// The latency histogram of one stream over the last 10 s, the last 60 s or since start,
// from the cumulative snapshots SelectionController pushes once a second (a window is the
// newest snapshot minus the one taken N seconds earlier). Holds at most 61 snapshots of
// 8 KiB, for the one stream the latency chart shows. GUI thread only.

#include "LatencySnapshot.h"
#include "StreamTypes.h"

#include <deque>

namespace streamscope::ui {

class LatencyWindows {
public:
    enum class Window { Unknown = 0, Last10s, Last60s, SinceStart };
    static QString windowName(Window w);
    static Window windowFromName(const QString &name);

    void reset(StreamId id);
    StreamId stream() const { return m_stream; }
    void push(const LatencySnapshot &cumulative);
    // The histogram of the window; shorter while fewer seconds have been sampled.
    LatencySnapshot window(Window w) const;
    int samples() const { return int(m_ring.size()); }

private:
    StreamId m_stream = kInvalidStreamId;
    std::deque<LatencySnapshot> m_ring; // oldest first, one a second
};

} // namespace streamscope::ui
