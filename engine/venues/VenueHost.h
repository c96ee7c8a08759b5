#pragma once

// What a venue handler may ask of the stream session that owns it: send on a connection,
// report, change state, fail, reconnect, roll a connection over. Implemented by
// StreamSession.
//
// Thread contract: called only on the session's worker thread, from the handler's hooks.

#include "model/StreamRecords.h"

#include <QtCore/QString>
#include <QtCore/QStringList>

class QNetworkAccessManager;

namespace streamscope {

class StreamShared;

class VenueHost {
public:
    // Queues `text` on connection `link` (paced by the venue's limit). A non-empty
    // requestId is remembered so that the response is matched to `method`.
    virtual void sendOn(int link, const QString &text, const QString &method, const QString &requestId) = 0;
    // An event for the log (at most ten of one kind a second; counters keep exact numbers).
    virtual void venueEvent(EventKind kind, const QString &text) = 0;
    virtual void venueFailed(const QString &reason) = 0;        // Failed, no retry
    virtual void venueReconnect(const QString &reason) = 0;     // drop and reconnect with backoff
    virtual void venueStalled(const QString &reason) = 0;       // Stalled (reconnects if configured)
    virtual void rollOver(int link, const QString &reason) = 0; // make-before-break replacement
    virtual StreamShared &shared() = 0;
    // The books of these instruments are known wrong and their new snapshots asked for (the
    // venue's own rule found it: Coinbase's connection sequence broke, and it resubscribed).
    virtual void booksLost(const QStringList &instruments, const QString &reason)
    {
        Q_UNUSED(instruments);
        Q_UNUSED(reason);
    }
    // The venue said the depth it keeps an instrument's book at, `levels` a side (Kraken's
    // subscribe answer): the book is cut to it rather than to a depth guessed from its snapshot.
    virtual void bookDepth(const QString &instrument, int levels)
    {
        Q_UNUSED(instrument);
        Q_UNUSED(levels);
    }
    // The session's clocks: monotonic ms for every duration and deadline (the times the
    // hooks are given), epoch ms for times that are shown (a gap's time).
    virtual qint64 monotonicMs() const = 0;
    virtual qint64 wallMs() const = 0;
    // The worker's network access manager, for a venue's own REST calls (Betfair's session
    // keep-alive); null when the session has none (a test's host).
    virtual QNetworkAccessManager *networkManager() { return nullptr; }

protected:
    ~VenueHost() = default;
};

// A host that sends nothing and acts on nothing, for a handler run outside a session: the
// preview of a stream's opening messages, a capture's books read back, a test. What is left to
// give: the shared block and the clocks.
class InertVenueHost : public VenueHost {
public:
    void sendOn(int, const QString &, const QString &, const QString &) override { }
    void venueEvent(EventKind, const QString &) override { }
    void venueFailed(const QString &) override { }
    void venueReconnect(const QString &) override { }
    void venueStalled(const QString &) override { }
    void rollOver(int, const QString &) override { }

protected:
    ~InertVenueHost() = default;
};

} // namespace streamscope
