#include "ServerTimeProbe.h"

#include "model/PeerText.h"
#include "transport/BoundedGet.h"

#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>

#include <algorithm>

namespace streamscope {

namespace {
constexpr qint64 kMaxSamples = 64;
} // namespace

ServerTimeProbe::ServerTimeProbe(const QUrl &url, ServerTimeReader reader, const QSslConfiguration &tls,
                                 const Clock &clock, QNetworkAccessManager &manager, QObject *parent)
    : QObject(parent)
    , m_url(url)
    , m_reader(reader)
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
    ++m_requests;
    m_sentWallUs = m_clock.wallUs();
    m_sentMonotonicUs = m_clock.monotonicUs();
    QNetworkReply *reply = boundedget::send(*m_manager, boundedget::request(m_url, kTimeoutMs, m_tls), kMaxReplyBytes);
    m_inFlight = reply;
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
    QString why;
    const std::optional<QByteArray> body = boundedget::body(*reply, kMaxReplyBytes, m_url, -1, &why);
    if (!body)
        return fail(why);
    const std::optional<ServerTimeReading> reading = m_reader ? m_reader(*body) : std::nullopt;
    if (!reading)
        return fail(QStringLiteral("not a server time: %1").arg(peerText(*body, 80)));

    // The answer is truncated to its step: the venue's time lies in [time, time + step).
    const qint64 rttUs = std::max<qint64>(0, recvMonotonicUs - m_sentMonotonicUs);
    const qint64 midWallUs = m_sentWallUs + rttUs / 2;
    Sample s;
    s.offsetUs = reading->timeUs + reading->resolutionUs / 2 - midWallUs;
    s.halfWidthUs = rttUs / 2 + reading->resolutionUs / 2;
    s.resolutionUs = reading->resolutionUs;
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
    const auto inWindow = [nowMonoUs](const Sample &s) { return nowMonoUs - s.atMonotonicUs <= kWindowMs * 1000; };
    const Sample *best = nullptr;
    for (const Sample &s : m_window) {
        if (inWindow(s) && (!best || s.rttUs < best->rttUs))
            best = &s;
    }
    if (!best)
        return std::nullopt;
    // offset = venue − wall; a wall step of J since the sample moved wall − monotonic by J.
    const qint64 wallMinusMonoNow = m_clock.wallUs() - nowMonoUs;
    const auto offsetNow = [wallMinusMonoNow](const Sample &s) {
        return s.offsetUs - (wallMinusMonoNow - s.wallMinusMonotonicUs);
    };
    Estimate e;
    e.offsetUs = offsetNow(*best);
    e.uncertaintyUs = best->halfWidthUs;
    if (best->resolutionUs < kCoarseResolutionUs)
        return e;
    // Whole seconds: every sample bounds the offset; their intersection, when it holds, is
    // tighter than any one of them.
    qint64 low = e.offsetUs - e.uncertaintyUs;
    qint64 high = e.offsetUs + e.uncertaintyUs;
    for (const Sample &s : m_window) {
        if (!inWindow(s))
            continue;
        low = std::max(low, offsetNow(s) - s.halfWidthUs);
        high = std::min(high, offsetNow(s) + s.halfWidthUs);
    }
    if (low <= high) {
        e.offsetUs = low + (high - low) / 2;
        e.uncertaintyUs = std::max<qint64>(1, (high - low + 1) / 2);
    }
    return e;
}

} // namespace streamscope
