#include "WebSocketHandshake.h"

#include "model/PeerText.h"
#include "model/RedactedUrl.h"

#include <QtCore/QCryptographicHash>
#include <QtCore/QRandomGenerator>
#include <QtCore/QUrl>

#include <array>

namespace streamscope {

namespace {

constexpr char kGuid[] = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"; // RFC 6455 §1.3
constexpr qsizetype kMaxShownChars = 200;                        // of a peer's status text or Location

// The headers the handshake writes itself; the stream's own may not replace them.
constexpr std::array kOwnHeaders{"host", "upgrade", "connection", "sec-websocket-key", "sec-websocket-version"};

bool isToken(const QByteArray &name)
{
    if (name.isEmpty())
        return false;
    for (char ch : name) {
        const auto c = quint8(ch);
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
            || QByteArrayView("!#$%&'*+-.^_`|~").contains(char(c));
        if (!ok)
            return false;
    }
    return true;
}

// The comma-separated tokens of a header value, trimmed and in lower case; for extensions only
// their names (before any ';').
QList<QByteArray> listOf(const QByteArray &value, bool namesOnly)
{
    QList<QByteArray> out;
    for (QByteArray item : value.split(',')) {
        if (namesOnly)
            item = item.left(item.indexOf(';') < 0 ? item.size() : item.indexOf(';'));
        item = item.trimmed().toLower();
        if (!item.isEmpty())
            out.append(item);
    }
    return out;
}

} // namespace

QByteArray WebSocketHandshake::acceptFor(const QByteArray &key)
{
    return QCryptographicHash::hash(key + kGuid, QCryptographicHash::Sha1).toBase64();
}

QByteArray WebSocketHandshake::request(const QUrl &url, const QList<QPair<QByteArray, QByteArray>> &headers,
                                       QString *error)
{
    m_response.clear();
    m_rest.clear();
    m_subprotocol.clear();
    m_error.clear();
    m_offeredProtocols.clear();
    m_offeredExtensions.clear();

    // A nonce of 16 random bytes (§4.1), from the system's generator.
    std::array<quint32, 4> nonce{};
    QRandomGenerator::system()->fillRange(nonce.data(), nonce.size());
    const QByteArray key = QByteArray(reinterpret_cast<const char *>(nonce.data()), 16).toBase64();
    m_expectedAccept = acceptFor(key);

    const bool tls = url.scheme() == QLatin1String("wss");
    QByteArray host = url.host(QUrl::FullyEncoded).toUtf8();
    if (host.contains(':'))
        host = '[' + host + ']'; // IPv6
    if (url.port() >= 0 && url.port() != (tls ? 443 : 80))
        host += ':' + QByteArray::number(url.port());
    QByteArray target = url.path(QUrl::FullyEncoded).toUtf8();
    if (target.isEmpty())
        target = "/";
    if (url.hasQuery())
        target += '?' + url.query(QUrl::FullyEncoded).toUtf8();

    QByteArray out = "GET " + target + " HTTP/1.1\r\nHost: " + host
        + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: " + key
        + "\r\nSec-WebSocket-Version: 13\r\n";
    for (const auto &[name, value] : headers) {
        const QByteArray lower = name.toLower();
        if (!isToken(name)) {
            *error = QStringLiteral("header name \"%1\" is not an HTTP token").arg(peerText(name, kMaxShownChars));
            return {};
        }
        if (std::find(kOwnHeaders.begin(), kOwnHeaders.end(), lower) != kOwnHeaders.end()) {
            *error =
                QStringLiteral("header \"%1\" is written by the websocket handshake itself").arg(QLatin1String(name));
            return {};
        }
        if (value.contains('\r') || value.contains('\n') || value.contains('\0')) {
            *error = QStringLiteral("header \"%1\" has a value with CR, LF or NUL").arg(QLatin1String(name));
            return {};
        }
        if (lower == "sec-websocket-protocol")
            m_offeredProtocols += listOf(value, false);
        else if (lower == "sec-websocket-extensions")
            m_offeredExtensions += listOf(value, true);
        out += name + ": " + value + "\r\n";
    }
    out += "\r\n";
    return out;
}

WebSocketHandshake::Result WebSocketHandshake::fail(const QString &text)
{
    m_error = QStringLiteral("websocket handshake: ") + text;
    return Result::Failed;
}

WebSocketHandshake::Result WebSocketHandshake::read(const char *data, qsizetype len)
{
    if (!m_error.isEmpty())
        return Result::Failed;
    const qsizetype searchFrom = std::max<qsizetype>(0, m_response.size() - 3);
    m_response.append(data, len);
    const qsizetype end = m_response.indexOf("\r\n\r\n", searchFrom);
    if ((end < 0 && m_response.size() >= kMaxResponseBytes) || end + 4 > kMaxResponseBytes)
        return fail(QStringLiteral("the server's answer has a head over %1 bytes").arg(kMaxResponseBytes));
    if (end < 0)
        return Result::NeedMore;
    m_rest = m_response.mid(end + 4);
    const Result r = check(QByteArrayView(m_response).first(end + 2)); // each line with its CRLF
    m_response.clear();
    if (r != Result::Done)
        m_rest.clear();
    return r;
}

WebSocketHandshake::Result WebSocketHandshake::check(QByteArrayView head)
{
    QList<QByteArrayView> lines;
    for (qsizetype start = 0; start < head.size();) {
        const qsizetype eol = head.indexOf(QByteArrayView("\r\n"), start);
        lines.append(head.sliced(start, eol - start));
        start = eol + 2;
    }
    // Status line: HTTP/1.1 SP 3DIGIT SP reason.
    const QByteArrayView status = lines.value(0);
    if (!status.startsWith("HTTP/1.1 ") || status.size() < 12 || (status.size() > 12 && status[12] != ' '))
        return fail(QStringLiteral("the server did not answer in HTTP/1.1 (\"%1\")")
                        .arg(peerText(status.toByteArray(), kMaxShownChars)));
    bool numeric = false;
    const int code = status.sliced(9, 3).toByteArray().toInt(&numeric);
    if (!numeric)
        return fail(QStringLiteral("the server's status line has no status code (\"%1\")")
                        .arg(peerText(status.toByteArray(), kMaxShownChars)));

    QByteArray upgrade, connection, accept, protocol, extensions, location;
    int accepts = 0;
    int protocols = 0;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArrayView line = lines[i];
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0 || line.front() == ' ' || line.front() == '\t')
            return fail(QStringLiteral("the server sent a malformed header line (\"%1\")")
                            .arg(peerText(line.toByteArray(), kMaxShownChars)));
        const QByteArray name = line.first(colon).toByteArray().toLower();
        const QByteArray value = line.sliced(colon + 1).toByteArray().trimmed();
        // Repeated fields are joined with commas (RFC 9110 §5.3).
        const auto join = [&value](QByteArray &to) { to = to.isEmpty() ? value : to + ", " + value; };
        if (name == "upgrade") {
            join(upgrade);
        } else if (name == "connection") {
            join(connection);
        } else if (name == "sec-websocket-accept") {
            accept = value;
            ++accepts;
        } else if (name == "sec-websocket-protocol") {
            protocol = value;
            ++protocols;
        } else if (name == "sec-websocket-extensions") {
            join(extensions);
        } else if (name == "location") {
            location = value;
        }
    }

    if (code >= 300 && code < 400) {
        const QUrl to(QString::fromUtf8(location), QUrl::TolerantMode);
        return fail(QStringLiteral("the server redirects (HTTP %1) to %2; redirects are not followed, put the new "
                                   "URL in the stream")
                        .arg(code)
                        .arg(location.isEmpty() ? QStringLiteral("nowhere (no Location)")
                                                : peerText(RedactedUrl::of(to).toString(), kMaxShownChars)));
    }
    if (code != 101)
        return fail(
            QStringLiteral("the server answered HTTP %1 instead of switching to websocket (\"%2\")")
                .arg(code)
                .arg(peerText(status.sliced(std::min<qsizetype>(13, status.size())).toByteArray(), kMaxShownChars)));
    if (upgrade.trimmed().toLower() != "websocket")
        return fail(QStringLiteral("the server's answer has no \"Upgrade: websocket\""));
    if (!listOf(connection, false).contains("upgrade"))
        return fail(QStringLiteral("the server's answer has no \"Connection: Upgrade\""));
    if (accepts != 1 || accept != m_expectedAccept)
        return fail(accepts == 0 ? QStringLiteral("the server's answer has no Sec-WebSocket-Accept")
                                 : QStringLiteral("the server's Sec-WebSocket-Accept does not match the key sent"));
    for (const QByteArray &name : listOf(extensions, true))
        if (!m_offeredExtensions.contains(name))
            return fail(QStringLiteral("the server chose the extension \"%1\", which was not asked for")
                            .arg(peerText(name, kMaxShownChars)));
    if (protocols > 1 || (protocols == 1 && !m_offeredProtocols.contains(protocol.toLower())))
        return fail(QStringLiteral("the server chose the subprotocol \"%1\", which was not asked for")
                        .arg(peerText(protocol, kMaxShownChars)));
    m_subprotocol = protocol;
    return Result::Done;
}

} // namespace streamscope
