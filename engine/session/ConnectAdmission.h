#pragma once

// The gate before a stream's connection attempts: whether its configuration may connect at
// all (a URL with a host and a scheme we speak, every secret it names set), and when each
// connection's attempt may begin — at the venue's per-IP connection slot (ConnectionPacer,
// shared by the engine's streams), then once a place among the attempts under way is free
// (HandshakeTicket). A connection that waits keeps its slot in Link::pendingOpen, or waits
// for a place with Link::awaitingHandshake set.
//
// Thread contract: the session's worker only.

#include "ConnectionPacer.h"

#include <QtCore/QString>

#include <memory>

namespace streamscope {

class ConnectionGroup;
class VenueHandler;
struct Link;
struct StreamConfig;

class ConnectAdmission {
public:
    ConnectAdmission(const StreamConfig &config, VenueHandler &venue);

    // What keeps the stream from connecting at all ("unsupported URL scheme 'http' …"); empty:
    // nothing.
    QString configProblem() const;

    // Null: attempts are not paced. Set before the first attempt.
    void setPacer(std::shared_ptr<ConnectionPacer> pacer) { m_pacer = std::move(pacer); }

    // A new connection's slot under the venue's limit: its attempt begins now (returns `nowMs`,
    // begun or waiting for a place), or `link` waits for the slot the returned time gives.
    qint64 admit(Link &link, qint64 nowMs);
    // The links whose slot has come, or that wait for a place: each opened once it has a place.
    // Opening may drop every connection at once (a synchronous error): each is looked up again.
    void openDue(ConnectionGroup &links, qint64 nowMs);
    // Whether `link` has not begun its attempt yet (its slot, or a place, still to come).
    static bool waiting(const Link &link);

    // "OKX allows 3 connection attempts a second per IP address".
    QString limitText() const;

private:
    // Opens `link` if a place among the attempts under way is free; false: it waits. The link
    // may be gone when it returns true.
    bool begin(Link &link, qint64 nowMs);

    const StreamConfig &m_config;
    VenueHandler &m_venue;
    std::shared_ptr<ConnectionPacer> m_pacer;
};

} // namespace streamscope
