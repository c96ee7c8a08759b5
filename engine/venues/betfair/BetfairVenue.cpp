#include "BetfairVenue.h"

#include "BetfairFields.h"
#include "BetfairKeepAlive.h"

#include "model/PeerText.h"
#include "platform/SecretStore.h"
#include "protocol/RequestIds.h"
#include "stats/StreamShared.h"
#include "venues/VenueHost.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

namespace streamscope {

BetfairVenue::BetfairVenue(const StreamConfig &config, VenueHost &host, const DecodeSpec &spec)
    : VenueHandler(config, host, spec)
{
    if (!m_config.keepAliveUrl.isEmpty())
        m_keepAlive = std::make_unique<BetfairKeepAlive>(m_config, m_host);
}

BetfairVenue::~BetfairVenue() = default;

BetfairVenue::ErrorAction BetfairVenue::errorAction(const QString &code, bool authentication, bool connectionClosed,
                                                    bool sessionKeptAlive)
{
    // Credentials, permissions and requests refused as they are: the same would be refused
    // again. The two limits are the account's (connections per app key, markets per
    // subscription): retrying would take a connection or subscribe again while they are in
    // use, so they stop the stream too, for its configuration (or another client) to change.
    static const QStringList kFatal = {QStringLiteral("NO_APP_KEY"),
                                       QStringLiteral("INVALID_APP_KEY"),
                                       QStringLiteral("NOT_AUTHORIZED"),
                                       QStringLiteral("NO_SESSION"),
                                       QStringLiteral("INVALID_INPUT"),
                                       QStringLiteral("INVALID_REQUEST"),
                                       QStringLiteral("MAX_CONNECTION_LIMIT_EXCEEDED"),
                                       QStringLiteral("SUBSCRIPTION_LIMIT_EXCEEDED")};
    static const QStringList kRetry = {QStringLiteral("TIMEOUT"), QStringLiteral("TOO_MANY_REQUESTS"),
                                       QStringLiteral("UNEXPECTED_ERROR"), QStringLiteral("CONNECTION_FAILED")};
    if (code == QLatin1String("INVALID_SESSION_INFORMATION"))
        return sessionKeptAlive ? ErrorAction::Retry : ErrorAction::Fatal;
    if (code == QLatin1String("INVALID_CLOCK"))
        return ErrorAction::RetryFresh;
    if (kFatal.contains(code))
        return ErrorAction::Fatal;
    if (kRetry.contains(code))
        return ErrorAction::Retry;
    // A code not known here: a refused authentication stops the stream, a closed connection
    // is reconnected.
    if (authentication)
        return ErrorAction::Fatal;
    return connectionClosed ? ErrorAction::Retry : ErrorAction::Record;
}

bool BetfairVenue::onConnected(int link, int shard, bool rollover, const QStringList &streams)
{
    Q_UNUSED(shard);
    Q_UNUSED(rollover);
    Q_UNUSED(streams);
    m_link = link;
    m_imagesThisConnection = 0;
    m_staleRaised = false;
    m_lastHeartbeatSentMs = m_host.monotonicMs();
    m_lastChangeMs = m_lastHeartbeatSentMs;
    m_changeSeen = false;
    bool keyOk = true;
    bool sessionOk = true;
    const QString appKey = SecretStore::resolve(m_config.appKey, &keyOk);
    const QString session = SecretStore::resolve(m_config.session, &sessionOk);
    if (!keyOk || !sessionOk) {
        m_host.venueFailed(
            QStringLiteral("Betfair credentials not available (%1)").arg(!keyOk ? m_config.appKey : m_config.session));
        return false;
    }
    const qint64 authId = nextRequestId();
    m_host.sendOn(link,
                  QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("op"), QStringLiteral("authentication")},
                                                              {QStringLiteral("id"), authId},
                                                              {QStringLiteral("appKey"), appKey},
                                                              {QStringLiteral("session"), session}})
                                        .toJson(QJsonDocument::Compact)),
                  QStringLiteral("authentication"), QString::number(authId));
    m_resubscribed = false;
    if (!m_config.marketSubscription.isEmpty())
        subscribe(link, QStringLiteral("marketSubscription"), m_config.marketSubscription, m_market);
    if (!m_config.orderSubscription.isEmpty())
        subscribe(link, QStringLiteral("orderSubscription"), m_config.orderSubscription, m_order);
    for (const QString &t : m_config.sendOnConnect)
        m_host.sendOn(link, t, QString(), QString());
    return true;
}

void BetfairVenue::subscribe(int link, const QString &op, QJsonObject body, const Resume &resume)
{
    const qint64 id = nextRequestId();
    body.insert(QStringLiteral("op"), op);
    body.insert(QStringLiteral("id"), id);
    if (op == QLatin1String("marketSubscription") && !body.contains(QStringLiteral("heartbeatMs")))
        body.insert(QStringLiteral("heartbeatMs"), m_config.heartbeatMs);
    // After a reconnect: resume where we were; the venue answers with one RESUB_DELTA.
    if (!resume.initialClk.empty())
        body.insert(QStringLiteral("initialClk"), QString::fromStdString(resume.initialClk));
    if (!resume.clk.empty())
        body.insert(QStringLiteral("clk"), QString::fromStdString(resume.clk));
    if (op == QLatin1String("marketSubscription"))
        m_images.subscribed(!resume.initialClk.empty() || !resume.clk.empty());
    if (!resume.initialClk.empty() || !resume.clk.empty()) {
        m_resubscribed = true;
        m_host.venueEvent(EventKind::Info,
                          QStringLiteral("%1 resubscribing with initialClk %2, clk %3")
                              .arg(op, QString::fromStdString(resume.initialClk), QString::fromStdString(resume.clk)));
    }
    m_host.sendOn(link, QString::fromUtf8(QJsonDocument(body).toJson(QJsonDocument::Compact)), op, QString::number(id));
}

void BetfairVenue::onDisconnected()
{
    VenueHandler::onDisconnected();
    m_images.disconnected();
    m_link = -1;
    m_liveState = StreamState::Live;
}

void BetfairVenue::track(const DecodedFields &f)
{
    // std::string::assign reuses its capacity: no allocation once a token has been seen.
    // The event type is the op: ocm (orders) or mcm (markets).
    Resume &resume = (f.eventType.size() == 3 && f.eventType[0] == 'o') ? m_order : m_market;
    if (const std::string_view clk = betfair::text(f, betfair::kClk); !clk.empty())
        resume.clk.assign(clk);
    if (const std::string_view initialClk = betfair::text(f, betfair::kInitialClk); !initialClk.empty())
        resume.initialClk.assign(initialClk);
    VenueCounters &v = m_host.shared().venue;
    if (const std::int64_t heartbeatMs = betfair::number(f, betfair::kHeartbeatMs);
        heartbeatMs != DecodedFields::kNone && heartbeatMs != m_heartbeatMs) {
        m_heartbeatMs = heartbeatMs;
        v.heartbeatMs.store(heartbeatMs);
    }
    if (const std::int64_t conflateMs = betfair::number(f, betfair::kConflateMs);
        conflateMs != DecodedFields::kNone && conflateMs != m_conflateMs) {
        m_conflateMs = conflateMs;
        v.conflateMs.store(conflateMs);
    }
    const bool stale = betfair::number(f, betfair::kStatus) == 503;
    if (stale)
        v.status503.add();
    const StreamState want = stale ? StreamState::Degraded : StreamState::Live;
    if (want != m_liveState) {
        m_liveState = want;
        m_liveReason = stale ? QStringLiteral("venue status 503: data may be stale (connection kept)")
                             : QStringLiteral("receiving data");
        m_host.venueEvent(EventKind::Info,
                          stale ? QStringLiteral("venue status 503: data may be stale")
                                : QStringLiteral("venue status back to normal"));
    }
}

void BetfairVenue::onData(int link, const DecodedFields &f, bool checkSequence)
{
    Q_UNUSED(link);
    Q_UNUSED(checkSequence);
    m_changeSeen = true;
    track(f);
    VenueCounters &v = m_host.shared().venue;
    const std::string_view segmentType = betfair::text(f, betfair::kSegmentType);
    const std::string_view changeType = betfair::text(f, betfair::kChangeType);
    if (segmentType.empty()) {
        v.updates.add();
    } else {
        v.segments.add();
        if (segmentType == std::string_view("SEG_END"))
            v.updates.add();
    }
    const bool subImage = changeType == std::string_view("SUB_IMAGE");
    m_wantsWholeMessage = m_images.follow(segmentType, subImage, f.eventType == std::string_view("mcm"));
    if (subImage) {
        // A segmented image counts once, at its first segment.
        if (segmentType.empty() || segmentType == std::string_view("SEG_START")) {
            v.images.add();
            if (m_imagesThisConnection++ > 0)
                m_host.venueEvent(EventKind::Info, QStringLiteral("SUB_IMAGE mid-stream: the cache is replaced"));
        }
    } else if (changeType == std::string_view("RESUB_DELTA")) {
        m_images.resumed();
        v.resubDeltas.add();
        m_host.venueEvent(EventKind::Info,
                          m_resubscribed ? QStringLiteral("RESUB_DELTA: resumed from the last clk")
                                         : QStringLiteral("RESUB_DELTA without a resubscription"));
    } else if (f.flag(betfair::kImage)) {
        // A market image inside a delta (img=true): that market's cache is replaced.
        v.images.add();
        m_host.venueEvent(EventKind::Info, QStringLiteral("market image (img=true): the market's cache is replaced"));
    }
    if (f.flag(betfair::kConflated)) {
        v.conflated.add();
        if (m_conflateMs == 0 && !m_conflationFlagged) {
            m_conflationFlagged = true;
            v.conflatedUnrequested.store(true);
            m_host.venueEvent(EventKind::Info,
                              QStringLiteral("con=true although conflateMs is 0: the venue conflated "
                                             "(the client reads too slowly or the market is too busy)"));
        }
    }
}

void BetfairVenue::onWholeMessage(int link, const char *data, qsizetype len)
{
    Q_UNUSED(link);
    m_wantsWholeMessage = false;
    m_images.readMarkets(data, len);
}

void BetfairVenue::onHeartbeat(int link, const DecodedFields *fields)
{
    Q_UNUSED(link);
    m_changeSeen = true;
    m_images.heartbeat();
    if (fields)
        track(*fields);
}

void BetfairVenue::onConnectionMessage(int link, const char *data, qsizetype len)
{
    Q_UNUSED(link);
    const QJsonObject o = QJsonDocument::fromJson(QByteArray(data, len)).object();
    const QString id = peerText(o.value(QStringLiteral("connectionId")).toString(), kMaxErrorChars);
    m_host.shared().editVenue([&](VenueDetails &d) { d.connectionId = id; });
}

void BetfairVenue::onResponse(int link, bool isError, const ResponseRecord &record)
{
    Q_UNUSED(link);
    const QJsonObject o = QJsonDocument::fromJson(record.body).object();
    if (o.contains(QStringLiteral("connectionsAvailable"))) {
        const int available = o.value(QStringLiteral("connectionsAvailable")).toInt();
        m_host.shared().editVenue([&](VenueDetails &d) { d.connectionsAvailable = available; });
    }
    if (!isError || o.value(QStringLiteral("statusCode")).toString() != QLatin1String("FAILURE"))
        return;
    const QString code = peerText(o.value(QStringLiteral("errorCode")).toString(), kMaxErrorChars);
    const QString message = peerText(o.value(QStringLiteral("errorMessage")).toString(), kMaxErrorChars);
    m_host.shared().editVenue([&](VenueDetails &d) {
        d.errorCode = code;
        d.errorMessage = message;
    });
    const QString why = QStringLiteral("%1: %2 %3")
                            .arg(record.method.isEmpty() ? QStringLiteral("status") : record.method, code, message);
    const bool authentication = record.method == QLatin1String("authentication");
    const bool keptAlive = m_keepAlive && m_keepAlive->sessionKeptAlive();
    switch (errorAction(code, authentication, o.value(QStringLiteral("connectionClosed")).toBool(), keptAlive)) {
    case ErrorAction::Fatal:
        m_host.venueFailed((authentication ? QStringLiteral("authentication failed: ") : QString()) + why
                           + QStringLiteral(" (not retried: the venue would refuse the same again)"));
        return;
    case ErrorAction::RetryFresh:
        // The clk we resumed with was refused: the next subscription asks for a new image.
        m_market = {};
        m_order = {};
        m_host.venueReconnect(why + QStringLiteral(" (subscribing again without clk)"));
        return;
    case ErrorAction::Retry:
        if (code == QLatin1String("INVALID_SESSION_INFORMATION"))
            m_keepAlive->checkSoon(); // retried only while a keep-alive is configured
        m_host.venueReconnect(why);
        return;
    case ErrorAction::Record:
    case ErrorAction::Unknown: return;
    }
}

qint64 BetfairVenue::staleAfterMs() const
{
    return 3 * (m_heartbeatMs > 0 ? m_heartbeatMs : qint64(m_config.heartbeatMs));
}

void BetfairVenue::onTick(qint64 nowMs)
{
    if (m_link < 0)
        return;
    if (m_config.heartbeatMs > 0 && nowMs - m_lastHeartbeatSentMs >= m_config.heartbeatMs) {
        m_lastHeartbeatSentMs = nowMs;
        const qint64 id = nextRequestId();
        m_host.sendOn(m_link, QStringLiteral("{\"op\":\"heartbeat\",\"id\":%1}").arg(id), QStringLiteral("heartbeat"),
                      QString::number(id));
    }
    if (m_keepAlive)
        m_keepAlive->tick(nowMs);
    if (m_market.clk != m_publishedClk) {
        m_publishedClk = m_market.clk;
        const QString clk = QString::fromStdString(m_market.clk);
        const QString initialClk = QString::fromStdString(m_market.initialClk);
        m_host.shared().editVenue([&](VenueDetails &d) {
            d.clk = clk;
            d.initialClk = initialClk;
        });
    }
    if (m_changeSeen) {
        m_lastChangeMs = nowMs;
        m_changeSeen = false;
    }
    const qint64 quietMs = nowMs - m_lastChangeMs;
    if (quietMs <= staleAfterMs()) {
        m_staleRaised = false;
        return;
    }
    if (m_staleRaised)
        return;
    m_staleRaised = true;
    m_host.shared().venue.staleAlarms.add();
    m_host.venueStalled(
        QStringLiteral("stale: no change message, not even a heartbeat, for %1 ms (3 x heartbeatMs = %2 ms)")
            .arg(quietMs)
            .arg(staleAfterMs()));
}

} // namespace streamscope
