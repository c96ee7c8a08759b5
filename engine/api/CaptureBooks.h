#pragma once

// The order books of a capture read back (docs/capture.md, "Order books"): a book keeper of its
// own (session/BookKeeper, the live engine's, with the same venue rules) fed the capture's
// messages and its book events (io/BookEvents.h) at their recorded times, so that the capture's
// row shows the books the live stream had: their states, resyncs and reasons, crossed episodes,
// and their events (a book that lost sync, crossed, synced again) at the message that caused
// them. A book fetched over REST (Binance) is built from the book_request and book_snapshot
// events; a venue that sends its snapshots in the stream (Bybit, OKX, Kraken, Coinbase) from the
// messages alone (a resubscribe the live stream asked for is taken as made: its snapshot is in
// the capture). The keeper's housekeeping tick runs on the recorded times, every 100 ms of
// them, and after a message that made a book lose sync.
// Not rebuilt: a Coinbase connection whose sequence broke (its handler is not run here).
//
// Thread contract: one thread (CaptureAnalysis's), a plain object.

#include "CaptureAnalysis.h"

#include <QtCore/QJsonObject>

#include <memory>

namespace streamscope {

class MessageDecoder;
struct DecodedFields;
struct MessageView;

class CaptureBooks {
public:
    static constexpr qint64 kTickMs = 100; // the live keeper's housekeeping period

    // `decoder`: the analysis's, which decoded the message handed to message().
    explicit CaptureBooks(MessageDecoder &decoder);
    ~CaptureBooks();
    CaptureBooks(const CaptureBooks &) = delete;
    CaptureBooks &operator=(const CaptureBooks &) = delete;

    // From the capture's first line (its "capture" event): whether its stream kept books (a
    // parsed stream of a venue with book rules that reads the venue's own fields, without
    // "book": false).
    bool start(Venue venue, const QJsonObject &header);
    bool active() const { return m_state != nullptr; }

    // Before each line: the clock to its time, and the housekeeping ticks due by then.
    void advance(qint64 timeUs);
    // A decoded data message, the capture's `index`-th (from 1), whole and padded.
    void message(const DecodedFields &fields, const MessageView &view, quint64 index);
    // An event line; true when it was a book event (and was handed to the books).
    bool event(const QByteArray &json);
    // The books' events since the last call ("book", "book_desync"), each with its time and the
    // message it came at.
    QVector<CaptureEvent> takeEvents();
    // The books at the end of the capture.
    QVector<BookStatus> books();

private:
    struct State;
    MessageDecoder &m_decoder;
    std::unique_ptr<State> m_state;
};

} // namespace streamscope
