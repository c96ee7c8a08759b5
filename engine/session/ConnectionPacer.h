#pragma once

// Connection attempts paced per venue across every stream of one engine: a venue that limits
// the connections one IP address may open (OKX: 3 a second; Bybit: 500 in 5 minutes;
// VenueHandler::connectLimit) sees no more than that, however many streams, shards,
// reconnects and rollovers start at once on however many workers. Each attempt reserves a
// slot, the time it may be made: at once while the venue's window has room, else when the
// oldest attempt in it has left the window. The window is a tenth longer than the venue's
// (as OutgoingPacer's): the venue counts on its own clock, and delivery jitters.
//
// A slot not used (the stream stopped, its connections dropped before the attempt) is given
// back by its ConnectSlot, so a stream that is restarted while it waits does not push the
// others back.
//
// It also bounds the connection attempts under way at once (opened, not yet connected),
// whatever the venue: 10,000 streams started together would otherwise open 10,000 sockets at
// once, overflow the server's listen backlog (the kernel drops the SYNs beyond it and retries
// them 1, 3, 7, 15 s later) and queue handshakes behind each other until the later ones pass
// their connect timeout, reconnect and queue again: a storm that never settles. An attempt
// holds a HandshakeTicket until its connection is up or gone; one without a ticket waits (the
// session's tick tries again), and its connect timeout runs from when it opens.
//
// Thread contract: any thread. The streams of every worker share one pacer (the Engine owns
// it); a mutex guards the windows, taken once per connection attempt, never per message.
// Times are the monotonic ms of one clock for all callers (SystemClock in the engine).

#include "model/StreamTypes.h"

#include <QtCore/QtGlobal>

#include <algorithm>
#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace streamscope {

class ConnectionPacer {
public:
    struct Limit {
        int attempts = 0; // 0: unpaced
        qint64 windowMs = 0;
    };

    // The time (≥ nowMs) at which an attempt to `venue` under `limit` may be made, reserved.
    qint64 reserve(Venue venue, Limit limit, qint64 nowMs);
    // A reserved slot that will not be used: freed (no attempt was made at its time, so the
    // room is the venue's again, whenever it is given back).
    void release(Venue venue, qint64 slotMs);

    // The window a limit is kept over: a tenth longer than the venue's.
    static qint64 windowMs(Limit limit) { return limit.windowMs + limit.windowMs / 10; }

    // Attempts under way at once, at most (lock-free; taken and given back once per attempt).
    static constexpr int kDefaultMaxHandshakes = 256;
    void setMaxHandshakes(int max) { m_maxHandshakes.store(std::max(1, max)); }
    int maxHandshakes() const { return m_maxHandshakes.load(); }
    int handshakesInFlight() const { return m_handshakes.load(); }
    bool tryBeginHandshake();
    void endHandshake() { m_handshakes.fetch_sub(1); }

private:
    std::atomic<int> m_maxHandshakes{kDefaultMaxHandshakes};
    std::atomic<int> m_handshakes{0};
    std::mutex m_mutex;
    std::unordered_map<std::string, std::deque<qint64>> m_slots; // by venue, ascending
};

// One connection's reserved slot, given back when it goes unused. Movable, not copyable.
class ConnectSlot {
public:
    ConnectSlot() = default;
    ConnectSlot(std::shared_ptr<ConnectionPacer> pacer, Venue venue, qint64 atMs);
    ConnectSlot(ConnectSlot &&other) noexcept;
    ConnectSlot &operator=(ConnectSlot &&other) noexcept;
    ConnectSlot(const ConnectSlot &) = delete;
    ConnectSlot &operator=(const ConnectSlot &) = delete;
    ~ConnectSlot() { release(); }

    bool pending() const { return bool(m_pacer); }
    qint64 atMs() const { return m_atMs; }
    // The attempt is made now: the slot is used.
    void use() { m_pacer.reset(); }
    // The attempt will not be made: the slot is given back.
    void release();

private:
    std::shared_ptr<ConnectionPacer> m_pacer; // null: nothing pending
    Venue m_venue;
    qint64 m_atMs = 0;
};

// One connection attempt's place among those under way (ConnectionPacer::tryBeginHandshake),
// given back when the connection is up, or when the attempt goes. Movable, not copyable.
class HandshakeTicket {
public:
    HandshakeTicket() = default;
    // Takes a place when one is free; held() says whether it did.
    static HandshakeTicket tryTake(const std::shared_ptr<ConnectionPacer> &pacer);
    HandshakeTicket(HandshakeTicket &&other) noexcept
        : m_pacer(std::move(other.m_pacer))
    {
    }
    HandshakeTicket &operator=(HandshakeTicket &&other) noexcept
    {
        if (this != &other) {
            release();
            m_pacer = std::move(other.m_pacer);
        }
        return *this;
    }
    HandshakeTicket(const HandshakeTicket &) = delete;
    HandshakeTicket &operator=(const HandshakeTicket &) = delete;
    ~HandshakeTicket() { release(); }

    bool held() const { return bool(m_pacer); }
    void release()
    {
        if (m_pacer)
            m_pacer->endHandshake();
        m_pacer.reset();
    }

private:
    std::shared_ptr<ConnectionPacer> m_pacer; // null: no place held
};

} // namespace streamscope
