#pragma once

// The client's side of the websocket opening handshake (RFC 6455 §4.1): the HTTP/1.1 Upgrade
// request, and the check of the server's answer as its bytes arrive.
//
// The request carries a fresh random Sec-WebSocket-Key and the stream's extra headers (their
// secrets resolved by the caller); a header the handshake writes itself, a name that is not an
// HTTP token or a value with CR, LF or NUL is refused before anything is sent. The answer must
// be "HTTP/1.1 101" with Upgrade: websocket, Connection: upgrade and the Sec-WebSocket-Accept
// that the key gives. A subprotocol or extension is accepted only when the stream's headers
// asked for it (Sec-WebSocket-Protocol, Sec-WebSocket-Extensions); redirects are refused with
// the place they point to, other statuses with theirs. The answer's head is bounded
// (kMaxResponseBytes); what the server sent after it (its first frames) is handed back.
//
// Thread contract: one per connection attempt, used on its worker thread.

#include <QtCore/QByteArray>
#include <QtCore/QList>
#include <QtCore/QPair>
#include <QtCore/QString>

#include <utility>

class QUrl;

namespace streamscope {

class WebSocketHandshake {
public:
    static constexpr qsizetype kMaxResponseBytes = 16 * 1024;

    // The request for `url` (ws or wss) with `headers` (names and values as sent); empty, with
    // `error` set, when a header cannot be sent.
    QByteArray request(const QUrl &url, const QList<QPair<QByteArray, QByteArray>> &headers, QString *error);

    enum class Result : quint8 { Unknown = 0, NeedMore, Done, Failed };
    // Reads more of the answer. Done: the connection is a websocket, and takeRest() gives the bytes
    // that followed the answer's head. Failed: errorText() says why (peer text escaped).
    Result read(const char *data, qsizetype len);
    // How many more bytes read() takes before the head is over its bound.
    qsizetype room() const { return kMaxResponseBytes - m_response.size(); }

    QByteArray takeRest() { return std::exchange(m_rest, {}); } // the connection keeps none of it
    const QString &errorText() const { return m_error; }
    // The subprotocol the server chose (one the request offered), or empty.
    const QByteArray &subprotocol() const { return m_subprotocol; }
    // The Sec-WebSocket-Accept the key gives (§4.2.2): base64 of SHA-1 of key + the RFC's GUID.
    static QByteArray acceptFor(const QByteArray &key);

private:
    Result fail(const QString &text);
    Result check(QByteArrayView head);

    QByteArray m_expectedAccept;
    QList<QByteArray> m_offeredProtocols;  // lower case
    QList<QByteArray> m_offeredExtensions; // names, lower case
    QByteArray m_response;
    QByteArray m_rest;
    QByteArray m_subprotocol;
    QString m_error;
};

} // namespace streamscope
