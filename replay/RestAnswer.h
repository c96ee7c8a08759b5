#pragma once

#include <QByteArray>
#include <QByteArrayView>

namespace streamscope::replay {

// Plain HTTP GETs on a replay server's websocket port, answered as a venue's REST API does:
// a request header's values, which targets ask for an order book's depth snapshot, and the bytes
// of an answer. Shared by the scenario server (ReplayConnection: the server time, a book
// scenario's snapshot) and the capture server (CaptureConnection: the capture's recorded
// snapshots).
// Thread contract: pure functions, any thread.

// The value of the header `name` (case-insensitive) in a request's header lines; empty if absent.
QByteArray headerValue(const QByteArray &head, const QByteArray &name);

// Binance's REST depth snapshot paths: spot's "/api/v3/depth" and USD-M futures'
// "/fapi/v1/depth", at the end of the target's path (after an optional prefix, a scenario's).
// Returns the path matched; empty when the target asks for none.
QByteArrayView depthPathOf(const QByteArray &target);

// The answer to the request whose header is `head`: `status` ("200 OK") and a JSON `body`.
// `close`: the connection ends after it (the client asked, or spoke HTTP/1.0).
QByteArray jsonAnswer(const QByteArray &head, const QByteArray &status, const QByteArray &body, bool *close);

} // namespace streamscope::replay
