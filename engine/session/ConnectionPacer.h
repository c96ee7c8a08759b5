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
// Thread contract: any thread. The streams of every worker share one pacer (the Engine owns
// it); a mutex guards the windows, taken once per connection attempt, never per message.
// Times are the monotonic ms of one clock for all callers (SystemClock in the engine).

#include "model/StreamTypes.h"

#include <QtCore/QtGlobal>

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

private:
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

} // namespace streamscope
