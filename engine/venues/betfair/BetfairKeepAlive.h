#pragma once

// Betfair's session keep-alive (docs/venues.md): every keep_alive_s while the stream is
// connected (the first at its first tick), a GET of the configured endpoint (keep_alive_url;
// Betfair's is https://identitysso.betfair.com/api/keepAlive) with the session token in
// X-Authentication and the app key in X-Application, resolved from the stream's
// env:/keychain: references for each call and never kept, logged or shown. The endpoint
// answers {"token":..,"product":..,"status":"SUCCESS"|"FAIL","error":..}; only the status and
// the error code are read (the token, the session itself, is not kept). Results are counted
// and shown (VenueDetails::keepAlive) and logged when they change; after a FAIL the session
// is taken as not kept alive (sessionKeptAlive()) until a SUCCESS.
//
// Bounded like the other REST calls of a stream (transport/BoundedGet.h): an answer over
// kMaxReplyBytes is aborted, a call has kTimeoutMs, redirects are not followed, one call at a
// time; anything but an object with a status of SUCCESS or FAIL is an error. TLS uses the
// stream's configuration (its extra CA), with peer verification on.
//
// Thread contract: created, used and destroyed on the stream's worker thread by its Betfair
// handler; it uses the worker's QNetworkAccessManager (VenueHost::networkManager), which it
// may outlive: an answer it is waiting for is then dropped with it.

#include "model/StreamConfig.h"

#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <QtCore/QString>
#include <QtNetwork/QSslConfiguration>

class QNetworkReply;

namespace streamscope {

class VenueHost;

class BetfairKeepAlive final : public QObject {
    Q_OBJECT
public:
    static constexpr qint64 kMaxReplyBytes = 4096;
    static constexpr int kTimeoutMs = 10000;

    enum class Outcome : quint8 { Unknown = 0, Success, Fail, Error };

    BetfairKeepAlive(const StreamConfig &config, VenueHost &host);
    ~BetfairKeepAlive() override;

    // The stream's tick while it is connected: a call when one is due.
    void tick(qint64 nowMs);
    // False once the endpoint answered FAIL (until it answers SUCCESS again).
    bool sessionKeptAlive() const { return !m_failed; }
    // The venue doubted the session: the next tick calls at once, so that a session the
    // endpoint cannot extend is known (FAIL) before long, rather than retried until the next call.
    void checkSoon() { m_nextCallMs = 0; }

private:
    void call();
    void onFinished(QNetworkReply *reply);
    // `detail`: the venue's error code of a FAIL, or what went wrong (escaped).
    void result(Outcome outcome, const QString &detail);

    const StreamConfig &m_config;
    VenueHost &m_host;
    QSslConfiguration m_tls;
    QPointer<QNetworkReply> m_inFlight;
    qint64 m_nextCallMs = 0;
    bool m_failed = false;
    Outcome m_lastOutcome = Outcome::Unknown;
};

} // namespace streamscope
