#pragma once

// Everything the engine needs to run one stream. Built by the workspace loader or the UI,
// handed to Engine::addStream by value, then owned by the stream's session on its worker.
// Secrets are never held here in clear: header values, app keys and sessions keep their
// "env:NAME" / "keychain:NAME" references and are resolved by SecretStore when the session
// connects, so that saving a config never writes a secret.

#include "NotifyTarget.h"
#include "RecordConfig.h"
#include "StreamTypes.h"

#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QPair>
#include <QtCore/QStringList>
#include <QtCore/QUrl>

namespace streamscope {

struct StreamConfig {
    QString name;
    Venue venue = Venue::Generic;
    QUrl url; // ws, wss (websocket) or tcp, tls (CRLF-delimited lines)
    // ws/wss: our own framing (NativeWebSocketTransport, the default) or QtWebSockets; tcp/tls
    // ignore it.
    WebSocketClient transport = WebSocketClient::Native;

    // Binance: stream names sent as SUBSCRIBE after connect (and after every reconnect).
    QStringList subscribe;
    // Any venue: raw text messages sent after connect (and after every reconnect).
    QStringList sendOnConnect;
    // Extra HTTP headers for the websocket handshake; values may be secret references.
    QList<QPair<QString, QString>> headers;

    DecodeMode mode = DecodeMode::Parsed;
    QString latencyField; // JSON pointer; empty: Binance "E" (also under "data"), Betfair "pt"
    LatencyUnit latencyUnit = LatencyUnit::Milliseconds;

    int stallTimeoutMs = 30000;    // no data message for this long: Stalled
    bool reconnectOnStall = false; // Stalled also reconnects
    int reconnectBaseMs = 1000;    // backoff: full jitter in [0, min(max, base * 2^attempt)]
    int reconnectMaxMs = 60000;
    int healthyResetMs = 30000; // Live this long resets the backoff attempt counter
    int pingIntervalMs = 20000; // websocket ping; 0 disables
    int pongTimeoutMs = 60000;  // no frame at all for this long: the connection is dead
    int connectTimeoutMs = 15000;
    qint64 maxMessageBytes = 16 * 1024 * 1024;
    int inspectorCapacity = 2000; // messages kept while somebody inspects the stream

    // Make-before-break rollover: a connection older than this is replaced by a new one
    // (opened, subscribed, switched to once it delivers, the overlap deduplicated).
    // -1: the venue's default (Binance 23 h 50 min, others never); 0: never.
    qint64 maxConnectionAgeMs = -1;
    // Longest overlap of a rollover before the old connection is closed anyway.
    int rolloverOverlapMaxMs = 10000;
    // Streams (Binance) or channel subscriptions (OKX) per connection; more are split over
    // several connections of this one stream. 0: the venue's default (Binance 1,024, the
    // venue's limit; OKX 256, docs/venues.md).
    int maxStreamsPerConnection = 0;
    // Binance: USD-M futures (10 control messages/s, pu continuity); also implied by an
    // fstream host.
    bool futures = false;

    // Betfair
    QString appKey;  // secret reference
    QString session; // secret reference
    QJsonObject marketSubscription;
    QJsonObject orderSubscription;
    int heartbeatMs = 5000;
    // Betfair's session keep-alive (docs/venues.md): its endpoint, called every keepAliveS
    // with the session and app key above; empty: none.
    QUrl keepAliveUrl;
    int keepAliveS = 1200;

    // Where the venue's server time is asked (docs/clock.md), its answer read in the venue's
    // shape; empty: the venue's default (Binance, OKX, Bybit, Kraken, Coinbase: an endpoint
    // under its REST host), none for other venues.
    QUrl serverTimeUrl;
    // The venue's REST base for this stream (docs/books.md): order-book snapshots and audits,
    // and the server time when serverTimeUrl is empty. Empty: the venue's own host mapping.
    QUrl restUrl;
    // A local order book per instrument on a depth stream of a venue with book rules
    // (docs/books.md); false turns it off.
    bool book = true;
    // Seconds between REST audits of each book; 0 off.
    int bookAuditS = 0;

    // TLS
    QString caFile; // extra trusted CA (PEM), e.g. a test server's certificate

    // Recording to disk (docs/capture.md).
    RecordConfig record;
    // Where this stream's alerts are sent besides the workspace's own destinations. The engine
    // does not use it; it travels with the stream so that editing or saving keeps it.
    QList<NotifyTarget> notify;

    bool isLineProtocol() const { return url.scheme() == QLatin1String("tcp") || url.scheme() == QLatin1String("tls"); }
};

} // namespace streamscope
