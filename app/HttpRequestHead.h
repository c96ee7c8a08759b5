#pragma once

// The head of one HTTP/1.x request (request line and headers), and the parser that reads it
// from the bytes received so far, within the limits of HttpServerLimits. Bodies are not read:
// the metrics endpoint takes none.
//
// Thread contract: plain values and a pure function; any thread.

#include "HttpServerLimits.h"

#include <QtCore/QByteArray>
#include <QtCore/QByteArrayView>

namespace streamscope::app {

struct HttpRequestHead {
    QByteArray method;
    QByteArray path;          // the target without its query string
    int versionMinor = 0;     // HTTP/1.versionMinor
    QByteArray connection;    // the Connection headers' tokens, lower case, comma-separated
    QByteArray accept;        // the Accept headers' values, lower case, comma-separated
    QByteArray authorization; // the Authorization header's value as sent (one; a second is a 400)
    bool hasBody = false;     // Content-Length above 0 or any Transfer-Encoding
};

enum class HeadParseStatus {
    Unknown = 0,
    NeedMore,
    Complete,
    BadRequest,          // 400
    UriTooLong,          // 414
    HeadersTooLarge,     // 431
    VersionNotSupported, // 505
};

struct HeadParseResult {
    HeadParseStatus status = HeadParseStatus::Unknown;
    qsizetype consumed = 0; // bytes of the head, when Complete
    HttpRequestHead head;
};

// Reads a request head from the start of `buffered`. Lines end in CRLF or LF. A request line
// or a header section over its limit is refused as soon as that is known, without waiting
// for its end; so is a malformed or unsupported request line.
HeadParseResult parseRequestHead(QByteArrayView buffered, const HttpServerLimits &limits);

// The status code that answers an error status: 400, 414, 431 or 505.
int statusCode(HeadParseStatus status);

} // namespace streamscope::app
