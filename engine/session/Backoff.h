#pragma once

// Reconnect delays: exponential backoff with full jitter. The n-th consecutive failure
// waits a uniformly random time in [0, min(cap, base * 2^n)]; a healthy period resets n.
//
// Thread contract: one instance per session, used on the session's worker. The jitter comes
// from Qt's global generator (thread-safe; drawn once a reconnect), so a stream holds no
// generator state of its own (a QRandomGenerator is 2.5 KB).

namespace streamscope {

class Backoff {
public:
    Backoff(int baseMs, int capMs)
        : m_baseMs(baseMs)
        , m_capMs(capMs)
    {
    }

    // The delay before the next attempt; advances the attempt counter.
    int nextDelayMs();
    void reset() { m_attempt = 0; }
    int attempt() const { return m_attempt; }
    // The ceiling of the next delay, for display ("retrying within 8 s").
    int currentCeilingMs() const;

private:
    int m_baseMs;
    int m_capMs;
    int m_attempt = 0;
};

} // namespace streamscope
