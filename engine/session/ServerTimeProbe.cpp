#include "ServerTimeProbe.h"

#include "model/PeerText.h"
#include "model/RedactedUrl.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QJsonValue>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>
#include <QtNetwork/QNetworkRequest>

#include <cmath>

namespace streamscope {

namespace {
// A server time outside 2000..2100 (ms since the epoch) is no time at all.
constexpr double kMinPlausibleMs = 946'684'800'000.0;
constexpr double kMaxPlausibleMs = 4'102'444'800'000.0;
// The answer is in whole ms, truncated: the venue's time lies in [serverTime, serverTime + 1 ms).
constexpr qint64 kResolutionUs = 1000;
constexpr qint64 kMaxSamples = 64;
} // namespace

ServerTimeProbe::ServerTimeProbe(const QUrl &url, const QSslConfiguration &tls, const Clock &clock,
                                 QNetworkAccessManager &manager, QObject *parent)
    : QObject(parent)
    , m_url(url)
    , m_tls(tls)
    , m_clock(clock)
    , m_manager(&manager)
    , m_timer(this)
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &ServerTimeProbe::sendRequest);
    m_timer.start(kFirstDelayMs);
}

ServerTimeProbe::~ServerTimeProbe()
{
    if (m_inFlight) {
        m_inFlight->disconnect(this);
        m_inFlight->abort();
        m_inFlight->deleteLater();
    }
}

void ServerTimeProbe::scheduleNext()
{
    m_timer.start(m_requests < kBurstSamples ? kBurstIntervalMs : kIntervalMs);
}

void ServerTimeProbe::sendRequest()
{
    if (m_inFlight || !m_manager)
        return; // the previous one is still out (it times out by itself), or the worker is going
    QNetworkRequest request(m_url);
    request.setTransferTimeout(kTimeoutMs);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    request.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    if (m_url.scheme() == QLatin1String("https"))
        request.setSslConfiguration(m_tls);
    ++m_requests;
    m_tooLarge = false;
    m_sentWallUs = m_clock.wallUs();
    m_sentMonotonicUs = m_clock.monotonicUs();
    QNetworkReply *reply = m_manager->get(request);
    m_inFlight = reply;
    connect(reply, &QNetworkReply::readyRead, this, [this, reply] {
        if (reply->bytesAvailable() > kMaxReplyBytes && !m_tooLarge) {
            m_tooLarge = true;
            reply->abort();
        }
    });
    connect(reply, &QNetworkReply::finished, this, [this, reply] { onFinished(reply); });
    scheduleNext();
}

void ServerTimeProbe::fail(const QString &why)
{
    ++m_errors;
    m_lastError = why;
}

void ServerTimeProbe::onFinished(QNetworkReply *reply)
{
    const qint64 recvMonotonicUs = m_clock.monotonicUs();
    m_inFlight = nullptr;
    reply->deleteLater();
    if (m_tooLarge)
        return fail(QStringLiteral("answer over %1 bytes").arg(kMaxReplyBytes));
    if (reply->error() != QNetworkReply::NoError)
        return fail(peerText(RedactedUrl::replaceIn(reply->errorString(), m_url))); // Qt's text quotes the URL
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status != 200)
        return fail(QStringLiteral("HTTP status %1").arg(status));
    const QByteArray body = reply->read(kMaxReplyBytes + 1);
    if (body.size() > kMaxReplyBytes)
        return fail(QStringLiteral("answer over %1 bytes").arg(kMaxReplyBytes));
    const QJsonValue v = QJsonDocument::fromJson(body).object().value(QLatin1String("serverTime"));
    const double serverMs = v.toDouble(qQNaN());
    if (!v.isDouble() || !(serverMs >= kMinPlausibleMs && serverMs <= kMaxPlausibleMs)
        || serverMs != std::floor(serverMs))
        return fail(QStringLiteral("not a server time: %1").arg(peerText(body, 80)));

    const qint64 rttUs = std::max<qint64>(0, recvMonotonicUs - m_sentMonotonicUs);
    const qint64 midWallUs = m_sentWallUs + rttUs / 2;
    Sample s;
    s.offsetUs = qint64(serverMs) * 1000 + kResolutionUs / 2 - midWallUs;
    s.rttUs = rttUs;
    s.atMonotonicUs = recvMonotonicUs;
    s.wallMinusMonotonicUs = m_sentWallUs - m_sentMonotonicUs;
    m_window.push_back(s);
    ++m_samples;
    while (!m_window.empty()
           && (qint64(m_window.size()) > kMaxSamples
               || recvMonotonicUs - m_window.front().atMonotonicUs > kWindowMs * 1000))
        m_window.pop_front();
}

std::optional<ServerTimeProbe::Estimate> ServerTimeProbe::estimate() const
{
    const qint64 nowMonoUs = m_clock.monotonicUs();
    const Sample *best = nullptr;
    for (const Sample &s : m_window) {
        if (nowMonoUs - s.atMonotonicUs > kWindowMs * 1000)
            continue;
        if (!best || s.rttUs < best->rttUs)
            best = &s;
    }
    if (!best)
        return std::nullopt;
    // offset = venue − wall; a wall step of J since the sample moved wall − monotonic by J.
    const qint64 wallMinusMonoNow = m_clock.wallUs() - nowMonoUs;
    Estimate e;
    e.offsetUs = best->offsetUs - (wallMinusMonoNow - best->wallMinusMonotonicUs);
    e.uncertaintyUs = best->rttUs / 2 + kResolutionUs / 2;
    return e;
}

} // namespace streamscope
