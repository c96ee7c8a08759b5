#include "BoundedGet.h"

#include "model/PeerText.h"
#include "model/RedactedUrl.h"

#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>
#include <QtNetwork/QSslConfiguration>

namespace streamscope::boundedget {

namespace {
// Set on a reply that send() aborted for its size.
constexpr char kTooLargeProperty[] = "streamscope_too_large";
} // namespace

QNetworkRequest request(const QUrl &url, int timeoutMs, const QSslConfiguration &tls)
{
    QNetworkRequest r(url);
    r.setTransferTimeout(timeoutMs);
    r.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    r.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    r.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    if (url.scheme() == QLatin1String("https"))
        r.setSslConfiguration(tls);
    return r;
}

QNetworkReply *send(QNetworkAccessManager &manager, const QNetworkRequest &request, qint64 maxBytes)
{
    QNetworkReply *reply = manager.get(request);
    QObject::connect(reply, &QNetworkReply::readyRead, reply, [reply, maxBytes] {
        if (reply->bytesAvailable() > maxBytes && !tooLarge(*reply)) {
            reply->setProperty(kTooLargeProperty, true);
            reply->abort();
        }
    });
    return reply;
}

bool tooLarge(const QNetworkReply &reply)
{
    return reply.property(kTooLargeProperty).toBool();
}

std::optional<QByteArray> body(QNetworkReply &reply, qint64 maxBytes, const QUrl &url, qsizetype maxErrorChars,
                               QString *why)
{
    const auto tooLong = [&] {
        *why = QStringLiteral("answer over %1 bytes").arg(maxBytes);
        return std::nullopt;
    };
    if (tooLarge(reply))
        return tooLong();
    if (reply.error() != QNetworkReply::NoError) {
        *why = peerText(RedactedUrl::replaceIn(reply.errorString(), url), maxErrorChars); // Qt's text quotes the URL
        return std::nullopt;
    }
    const int status = reply.attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status != 200) {
        *why = QStringLiteral("HTTP status %1").arg(status);
        return std::nullopt;
    }
    QByteArray text = reply.read(maxBytes + 1);
    if (text.size() > maxBytes)
        return tooLong();
    return text;
}

} // namespace streamscope::boundedget
