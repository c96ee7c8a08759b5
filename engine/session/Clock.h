#pragma once

// Time as a stream session sees it. Two clocks, for two different questions:
// - monotonic: how long since something happened. Every watchdog, timeout, backoff delay
//   and pacing window is measured on it, so that a step of the wall clock (NTP, a user, a
//   VM resumed) never makes a connection look dead or a stream stalled.
// - wall: what time it is in the world. Used only where the world's time is meant: latency
//   against an exchange's event time, and times shown to people.
// Injected into sessions so that tests can step either clock.
//
// Thread contract: const methods, callable from any thread; SystemClock is stateless.

#include <QtCore/QtGlobal>

namespace streamscope {

class Clock {
public:
    virtual ~Clock() = default;
    virtual qint64 monotonicMs() const = 0; // arbitrary origin, never steps
    virtual qint64 wallUs() const = 0;      // µs since the Unix epoch, UTC
    // The monotonic clock in µs (round trips of server-time requests); same origin.
    virtual qint64 monotonicUs() const { return monotonicMs() * 1000; }

    qint64 wallMs() const { return wallUs() / 1000; }
};

// std::chrono::steady_clock and std::chrono::system_clock.
class SystemClock final : public Clock {
public:
    qint64 monotonicMs() const override;
    qint64 wallUs() const override;
    qint64 monotonicUs() const override;

    static SystemClock &instance();
};

} // namespace streamscope
