#pragma once

// The capture events that keep a local order book reproducible (docs/capture.md, "Order
// books"): what a book fetched over REST was built from, in order with the messages.
//   book_request   {"event":"book_request","instrument":"BTCUSDT","purpose":"sync"|"audit"}
//                  a REST depth snapshot was asked for (from here on the book keeps its diffs)
//   book_snapshot  {"event":"book_snapshot","instrument":"BTCUSDT","last_update_id":N,
//                   "purpose":"sync"|"audit","body":{...the answer as received...}}
//                  its answer, handed to the book; instead of a body, "error" (the fetch
//                  failed: why), or "body_omitted" and "body_bytes" (an answer too large for a
//                  capture event, or not a JSON object)
//   book_reset     the stream's connections went: every book starts over
// Written by the book keeper (engine/session/BookKeeper) where it asks and where it applies;
// read back by the capture analysis (engine/api/CaptureAnalysis, File → Open capture) and the
// replay server (replay/CaptureServer, which answers the depth requests of a replayed capture).
// The body is the event's last key, written as received (control characters, which JSON allows
// only as white space there, as spaces), so a reader takes its bytes without parsing it.
//
// Thread contract: pure functions, any thread.

#include <QtCore/QByteArray>
#include <QtCore/QString>

namespace streamscope::capture {

inline constexpr char kBookRequestEvent[] = "book_request";
inline constexpr char kBookSnapshotEvent[] = "book_snapshot";
inline constexpr char kBookResetEvent[] = "book_reset";

struct BookSnapshotEvent {
    QString instrument;
    bool audit = false; // "purpose": "audit", else "sync"
    qint64 lastUpdateId = 0;
    QByteArray body; // the answer's JSON object as received; empty when there is none
    QString error;   // the fetch failed: why (no body)
    QString omitted; // the answer was not recorded: why (no body)
    qint64 bodyBytes = 0;
};

// Whether an event's JSON (as a capture writes it: "event" its first key) is the event `name`,
// from its first bytes only.
bool isEventNamed(const QByteArray &json, const char *name);

QByteArray bookRequestJson(const QString &instrument, bool audit);
// The book_snapshot event of `event`, whose body must be one valid JSON object (the writer checks
// it, BookKeeper with MessageDecoder::isJsonObject; else it sets `omitted`). A body that would
// make the event longer than `maxBytes` is left out and said so ("body_omitted").
QByteArray bookSnapshotJson(const BookSnapshotEvent &event, qsizetype maxBytes);

// Reads a book_request or book_snapshot event's JSON; false when it is not one or lacks its
// instrument. The texts are the file's, unescaped: escape them before they are shown.
bool readBookRequest(const QByteArray &json, QString *instrument, bool *audit);
bool readBookSnapshot(const QByteArray &json, BookSnapshotEvent *out);
// A book_snapshot event's JSON without its body (what an event log shows of it).
QByteArray withoutBody(const QByteArray &json);

} // namespace streamscope::capture
