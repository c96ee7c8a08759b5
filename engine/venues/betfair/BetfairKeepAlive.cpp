#include "BetfairKeepAlive.h"

#include "model/PeerText.h"
#include "platform/SecretStore.h"
#include "platform/TlsConfiguration.h"
#include "stats/StreamShared.h"
#include "transport/BoundedGet.h"
#include "venues/VenueHost.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>
#include <QtNetwork/QNetworkRequest>

namespace streamscope {

namespace {
constexpr qsizetype kMaxErrorChars = 120;
}

BetfairKeepAlive::BetfairKeepAlive(const StreamConfig &config, VenueHost &host)
    : m_config(config)
    , m_host(host)
{
    QString tlsError; // a CA file that cannot be read fails the stream's own connection, which says so
    m_tls = tlsConfiguration(config, &tlsError);
    m_host.shared().editVenue([](VenueDetails &d) { d.keepAlive.configured = true; });
}

BetfairKeepAlive::~BetfairKeepAlive()
{
    if (m_inFlight) {
        m_inFlight->disconnect(this);
        m_inFlight->abort();
        m_inFlight->deleteLater();
    }
}

void BetfairKeepAlive::tick(qint64 nowMs)
{
    if (nowMs < m_nextCallMs)
        return;
    m_nextCallMs = nowMs + qint64(m_config.keepAliveS) * 1000;
    call();
}

void BetfairKeepAlive::call()
{
    if (m_inFlight)
        return; // the last call is still out; it ends by itself within kTimeoutMs
    bool keyOk = true;
    bool sessionOk = true;
    const QString appKey = SecretStore::resolve(m_config.appKey, &keyOk);
    const QString session = SecretStore::resolve(m_config.session, &sessionOk);
    if (!keyOk || !sessionOk)
        return result(
            Outcome::Error,
            QStringLiteral("credentials not available (%1)").arg(!keyOk ? m_config.appKey : m_config.session));
    QNetworkAccessManager *manager = m_host.networkManager();
    if (!manager)
        return result(Outcome::Error, QStringLiteral("no network access on this worker"));
    QNetworkRequest request = boundedget::request(m_config.keepAliveUrl, kTimeoutMs, m_tls);
    request.setRawHeader("Accept", "application/json");
    request.setRawHeader("X-Application", appKey.toUtf8());
    request.setRawHeader("X-Authentication", session.toUtf8());
    QNetworkReply *reply = boundedget::send(*manager, request, kMaxReplyBytes);
    m_inFlight = reply;
    connect(reply, &QNetworkReply::finished, this, [this, reply] { onFinished(reply); });
}

void BetfairKeepAlive::onFinished(QNetworkReply *reply)
{
    m_inFlight = nullptr;
    reply->deleteLater();
    QString why;
    const std::optional<QByteArray> body =
        boundedget::body(*reply, kMaxReplyBytes, m_config.keepAliveUrl, kMaxErrorChars, &why);
    if (!body)
        return result(Outcome::Error, why);
    // The answer carries the session token: only its status and error are read, and no part
    // of the body is ever quoted.
    const QJsonObject o = QJsonDocument::fromJson(*body).object();
    const QString answer = o.value(QLatin1String("status")).toString();
    if (answer == QLatin1String("SUCCESS"))
        return result(Outcome::Success, QString());
    if (answer == QLatin1String("FAIL")) {
        const QString code = peerText(o.value(QLatin1String("error")).toString(), kMaxErrorChars);
        return result(Outcome::Fail, code.isEmpty() ? QStringLiteral("(no error code)") : code);
    }
    result(Outcome::Error, QStringLiteral("not a keep-alive answer (no status SUCCESS or FAIL)"));
}

void BetfairKeepAlive::result(Outcome outcome, const QString &detail)
{
    m_host.shared().editVenue([&](VenueDetails &d) {
        KeepAliveStatus &k = d.keepAlive;
        switch (outcome) {
        case Outcome::Success:
            ++k.succeeded;
            k.lastStatus = QStringLiteral("SUCCESS");
            k.lastError.clear();
            break;
        case Outcome::Fail:
            ++k.failed;
            k.lastStatus = QStringLiteral("FAIL");
            k.lastError = detail;
            break;
        case Outcome::Error:
        case Outcome::Unknown:
            ++k.errors;
            k.lastStatus = QStringLiteral("error");
            k.lastError = detail;
            break;
        }
    });
    // No answer says nothing of the session: only FAIL and SUCCESS change what the stream's
    // INVALID_SESSION_INFORMATION means (BetfairVenue::errorAction).
    if (outcome == Outcome::Fail)
        m_failed = true;
    else if (outcome == Outcome::Success)
        m_failed = false;
    const bool changed = outcome != m_lastOutcome;
    m_lastOutcome = outcome;
    if (outcome == Outcome::Success) {
        if (changed)
            m_host.venueEvent(EventKind::Info, QStringLiteral("session keep-alive: SUCCESS"));
    } else if (outcome == Outcome::Fail) {
        m_host.venueEvent(EventKind::Info,
                          QStringLiteral("session keep-alive: FAIL %1; the session is not extended, "
                                         "and INVALID_SESSION_INFORMATION stops the stream")
                              .arg(detail));
    } else {
        m_host.venueEvent(EventKind::Info, QStringLiteral("session keep-alive: no answer (%1)").arg(detail));
    }
}

} // namespace streamscope
