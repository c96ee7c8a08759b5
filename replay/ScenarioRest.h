#pragma once

#include "ReplayOptions.h"

#include <QByteArray>

#include <optional>

namespace streamscope::replay {

class ReplayServer;

// The scenario server's answers to plain HTTP GETs (no upgrade) on its websocket port, as the
// venues' REST APIs give them: the server time, a book scenario's depth snapshot
// (DepthSnapshot.h). ReplayConnection writes them (RestAnswer.h's jsonAnswer) and keeps the
// connection for further requests.
//
// Thread contract: the server's thread (the depth snapshot asks the server where its
// connections are).

// A status line's text ("200 OK") and a JSON body.
struct RestReply {
    QByteArray status;
    QByteArray body;
};

// The answer to GET `target` (path and query); nothing when the target asks for none of them.
// - GET <a venue's server-time path> (every venue's, from its scenarios' folder:
//   VenueScenarios::findServerTime, e.g. Binance's /api/v3/time, OKX's /api/v5/public/time): the
//   venue's answer, by the server's clock shifted by the target's own ?clock_offset_ms=N (which
//   pairs with a stream's);
// - GET [/<scenario>]/api/v3/depth?symbol=S&limit=N (or /fapi/v1/depth): a book scenario's
//   snapshot at the last diff its latest connection sent; the scenario is the path's prefix,
//   else the server's (`serverOptions`).
std::optional<RestReply> scenarioRestAnswer(const QByteArray &target, const ReplayOptions &serverOptions,
                                            const ReplayServer *server);

// The server's clock: now, in ms (ns) since the epoch, plus `clockOffsetMs` (clock_offset_ms).
quint64 venueNowMs(qint64 clockOffsetMs);
quint64 venueNowNs(qint64 clockOffsetMs);

} // namespace streamscope::replay
