#pragma once

// A stream session of an in-stream-snapshot venue (Bybit, OKX, Kraken, Coinbase, Betfair) without
// sockets, for the tests of its order-book rules: messages written as the venue sends them go
// through the real path (head scan, decoder, the venue's handler, the book keeper), the test
// steps the clock, and reads each book's levels, its status and what the handler sent (a
// resubscribe).
//
// Thread contract: everything on the test's thread, which stands for the session's worker.

#include "../common/SessionRig.h"
#include "book/BookSync.h"
#include "session/BookKeeper.h"

#include <QtTest/QtTest>

namespace streamscope::testing {

// Expected levels in the form StreamBooksRig::levels() gives them.
inline QStringList texts(std::initializer_list<const char *> items)
{
    QStringList out;
    for (const char *i : items)
        out << QLatin1String(i);
    return out;
}

struct StreamBooksRig {
    static StreamConfig configFor(const char *venue, const QStringList &subscribe)
    {
        StreamConfig c;
        c.name = QStringLiteral("books");
        c.venue = Venue(venue);
        c.url = QUrl(QStringLiteral("ws://127.0.0.1:1/ws"));
        c.subscribe = subscribe;
        return c;
    }

    StreamBooksRig(const char *venue, const QStringList &subscribe)
        : StreamBooksRig(configFor(venue, subscribe))
    {
    }
    // A stream configured in full (Betfair: its market subscription).
    explicit StreamBooksRig(const StreamConfig &c)
        : config(c)
        , rig(config)
    {
        rig.session.start();
        rig.last()->up();
    }

    void send(const QByteArray &message) { rig.last()->deliver(message); }
    const book::BookSync *sync(const char *instrument) const
    {
        const BookKeeper *keeper = rig.session.books();
        return keeper ? keeper->book(QLatin1String(instrument)) : nullptr;
    }
    BookState state(const char *instrument) const
    {
        const book::BookSync *s = sync(instrument);
        return s ? s->state() : BookState::Unknown;
    }
    // The status as the report shows it (published on the tick).
    BookStatus status(const char *instrument)
    {
        rig.run(100);
        for (const BookStatus &b : rig.snapshot().books) {
            if (b.instrument == QLatin1String(instrument))
                return b;
        }
        return {};
    }
    // A side as "price:qty" lines in the venue's text, best first ("45283.5:0.1").
    QStringList levels(const char *instrument, book::Side side) const
    {
        QStringList out;
        const book::BookSync *s = sync(instrument);
        if (!s)
            return out;
        const book::OrderBook &b = s->book();
        for (std::size_t r = 0; r < b.levels(side); ++r)
            out << book::fixedText(b.at(side, r).price) + QLatin1Char(':') + book::fixedText(b.at(side, r).qty);
        return out;
    }
    // What the handler sent since the last call.
    QStringList takeSent()
    {
        QStringList s = rig.last()->sent;
        rig.last()->sent.clear();
        return s;
    }

    StreamConfig config;
    SessionRig rig;
};

} // namespace streamscope::testing
