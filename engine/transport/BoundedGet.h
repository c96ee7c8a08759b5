#pragma once

// A stream's REST GET, bounded (the server time, Betfair's keep-alive, a book's snapshot): the
// request asks the network and never a cache, over HTTP/1.1, within a transfer timeout, and
// follows no redirect (a redirect is an answer of its own status); https uses the stream's TLS
// configuration. Its reply is aborted as soon as more than `maxBytes` of it wait to be read,
// and its body is read only when it is whole, of status 200 and within `maxBytes`: a hostile or
// broken server costs at most that much memory and that much time.
//
// Thread contract: the thread of the QNetworkAccessManager (a worker's); the reply as Qt's.

#include <QtCore/QByteArray>
#include <QtCore/QString>
#include <QtCore/QUrl>
#include <QtNetwork/QNetworkRequest>

#include <optional>

class QNetworkAccessManager;
class QNetworkReply;
class QSslConfiguration;

namespace streamscope::boundedget {

// The request for `url`, bounded as above; the caller may add headers.
QNetworkRequest request(const QUrl &url, int timeoutMs, const QSslConfiguration &tls);

// Sends `request`: the reply is aborted once more than `maxBytes` of it are waiting (tooLarge()).
QNetworkReply *send(QNetworkAccessManager &manager, const QNetworkRequest &request, qint64 maxBytes);

// Whether send() aborted the reply for its size.
bool tooLarge(const QNetworkReply &reply);

// The body of a finished reply, or nothing and `*why`: "answer over N bytes", Qt's error text
// (`url`'s secrets redacted, escaped, at most `maxErrorChars` characters; -1: no limit), or
// "HTTP status N".
std::optional<QByteArray> body(QNetworkReply &reply, qint64 maxBytes, const QUrl &url, qsizetype maxErrorChars,
                               QString *why);

} // namespace streamscope::boundedget
