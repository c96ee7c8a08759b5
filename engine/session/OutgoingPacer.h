#pragma once

// The outgoing queue of one connection, paced under the venue's per-connection limit
// (Binance: 5 messages a second on spot, 10 on futures, pings included). Messages wait in
// order; a message goes out when fewer than limit - 1 messages and pings were sent within
// the window, so that one slot a second stays free for pongs. Limit 0: unpaced.
//
// Thread contract: the session's worker only. Times are the session's monotonic ms.

#include <QtCore/QString>

#include <algorithm>
#include <deque>
#include <functional>

namespace streamscope {

class OutgoingPacer {
public:
    // The venue counts on its own clock: a window of 1.1 s leaves room for jitter in
    // delivery, so that two bursts never land within one of the venue's seconds.
    static constexpr qint64 kWindowMs = 1100;

    // 0: unpaced; otherwise at least 2 (one slot for messages, one kept free).
    void setLimit(int perSecond) { m_limit = perSecond > 0 ? std::max(perSecond, 2) : 0; }

    void enqueue(const QString &text) { m_queue.push_back(text); }
    // A ping went out at `nowMs`: it takes a slot.
    void notePing(qint64 nowMs);
    // Sends what the limit allows through `send`, which returns false when the connection
    // can take no more (it went away): the message stays queued. Returns the ms until the
    // next message may go, or 0 when nothing waits for the pace.
    qint64 flush(qint64 nowMs, const std::function<bool(const QString &)> &send);

    int queued() const { return int(m_queue.size()); }
    // Messages and pings sent within the current window (for the peak figure).
    int sentInWindow() const { return int(m_sentMs.size()); }

private:
    void expire(qint64 nowMs);

    int m_limit = 0;
    std::deque<QString> m_queue;
    std::deque<qint64> m_sentMs;
};

} // namespace streamscope
