#pragma once

// The bounds of the metrics endpoint's HTTP server (docs/architecture.md, "The metrics
// endpoint"). Every field has a default that the product uses; tests shorten the timeouts and
// lower the connection shares.

#include <QtCore/QtGlobal>

namespace streamscope::app {

// A request line longer than this is answered 414: our one path with a query string is far
// shorter, and 8 KB is what common servers (nginx, Apache) allow by default.
inline constexpr qsizetype kMaxRequestLineBytes = 8 * 1024;
// The header section (after the request line, up to the empty line) longer than this is
// answered 431. Prometheus sends a few hundred bytes; 16 KB leaves room for proxies' headers.
inline constexpr qsizetype kMaxHeaderBytes = 16 * 1024;
// A request must be complete within this long of the connection (or of its first byte on a
// kept-alive connection), and a response must be taken by the client within it: a slow
// client cannot hold a connection. A scrape's request arrives in one segment.
inline constexpr int kRequestTimeoutMs = 10'000;
// A kept-alive connection with no request for this long is closed. Prometheus scrapes every
// 15 s by default and keeps its connection; 30 s keeps it, and drops a forgotten one.
inline constexpr int kIdleTimeoutMs = 30'000;
// After an answer that closes the connection, we stop sending and read (and discard) what
// the client still sends for at most this long, so that it receives the answer rather than a
// reset caused by its unread bytes; then the connection is dropped.
inline constexpr int kLingerMs = 2'000;
// Connections open at once. A handful of scrapers need a few; 64 is far below the usual
// descriptor limit (1,024), which keeps the rest for the streams' sockets, so a client holding
// thousands of connections cannot starve them. Over it, a waiting connection is closed, oldest
// first (ConnectionSlots).
inline constexpr int kMaxConnections = 64;
// Connections waiting for a whole request (new, sending their head, kept alive between
// requests, or answered and closing) may hold three quarters of the slots: the last quarter
// is kept for requests being answered, so that idle connections never stop a scrape.
inline constexpr int kMaxWaitingConnections = 48;
// One peer address may hold half of the slots waiting and three quarters in all: a client that
// opens connections in a loop closes its own oldest ones, not other clients'.
inline constexpr int kMaxWaitingPerPeer = 32;
inline constexpr int kMaxConnectionsPerPeer = 48;
// Connections the kernel may queue before we accept them: a burst of connections (a client
// re-opening hundreds) overflows a short queue, and then a scraper's connection waits for the
// kernel's SYN retry (1 s, then 3 s...) before we even see it.
inline constexpr int kListenBacklog = 1024;

struct HttpServerLimits {
    qsizetype maxRequestLineBytes = kMaxRequestLineBytes;
    qsizetype maxHeaderBytes = kMaxHeaderBytes;
    int requestTimeoutMs = kRequestTimeoutMs;
    int idleTimeoutMs = kIdleTimeoutMs;
    int lingerMs = kLingerMs;
    int maxConnections = kMaxConnections;
    int maxWaitingConnections = kMaxWaitingConnections;
    int maxWaitingPerPeer = kMaxWaitingPerPeer;
    int maxConnectionsPerPeer = kMaxConnectionsPerPeer;
};

} // namespace streamscope::app
