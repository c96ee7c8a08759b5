#pragma once

// Where a venue's REST requests go when the stream names no "rest_url": the REST host of one
// of the venue's known stream hosts (Binance: stream.binance.com → api.binance.com), over
// https; any other host (a testnet the table does not know, a replay server, a test's
// loopback peer) is asked itself, on the stream's port, over http for ws and https for wss.
// The server time (docs/clock.md) and Binance's book snapshots (docs/books.md) are asked there.
//
// Thread contract: pure functions.

#include "model/StreamConfig.h"

#include <QtCore/QString>
#include <QtCore/QUrl>

#include <span>

namespace streamscope {

// A stream host and the REST host that serves its venue's requests.
struct RestHost {
    const char *stream;
    const char *rest;
};

// The REST base of a stream at `stream` (scheme, host, port; no path) by the table `known`.
QUrl mappedRestBase(const QUrl &stream, std::span<const RestHost> known);
// The stream's "rest_url", else mappedRestBase() of its URL.
QUrl restBase(const StreamConfig &config, std::span<const RestHost> known);
// `path` ("/api/v3/time") under `base`, keeping a path the base has; no query, no fragment.
QUrl restUrl(const QUrl &base, const QString &path);

} // namespace streamscope
