#pragma once

// Asks a venue's REST server-time endpoint (Binance: GET /api/v3/time, /fapi/v1/time →
// {"serverTime":<ms>}) a few times a minute and keeps the offset between the venue's clock
// and this machine's, NTP-style: for a request sent at local time t0 and answered at t1,
// offset = serverTime − (t0 + t1)/2, within ± (t1 − t0)/2. The sample with the shortest round
// trip in the window is the estimate. Its offset follows the local wall clock: a step or slew
// of the wall clock since the sample (the change of wall − monotonic) is taken out of it.
//
// Hostile answers are bounded and counted, never trusted: a reply over kMaxReplyBytes is
// aborted, a request has kTimeoutMs, redirects are not followed, and a body that is not an
// object with a plausible integral serverTime is an error. TLS uses the stream's
// configuration (its extra CA), with peer verification on.
//
// Thread contract: created, used and destroyed on one worker thread; it owns its timer and
// uses the worker's QNetworkAccessManager. Shared by the streams of that worker that ask the same URL
// (ServerTimeService).

#include "Clock.h"

#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <QtCore/QTimer>
#include <QtCore/QUrl>
#include <QtNetwork/QSslConfiguration>

#include <deque>
#include <optional>

class QNetworkAccessManager;
class QNetworkReply;

namespace streamscope {

class ServerTimeProbe final : public QObject {
    Q_OBJECT
public:
    static constexpr qint64 kMaxReplyBytes = 4096;
    static constexpr int kTimeoutMs = 5000;
    static constexpr int kFirstDelayMs = 200;    // soon after the stream connects
    static constexpr int kBurstIntervalMs = 700; // the first few samples, for a good estimate early
    static constexpr int kBurstSamples = 5;
    static constexpr int kIntervalMs = 15000; // then four a minute
    static constexpr qint64 kWindowMs = 5 * 60 * 1000;

    struct Estimate {
        qint64 offsetUs = 0;      // venue − local, as of now
        qint64 uncertaintyUs = 0; // half the round trip, plus the answer's 1 ms resolution
    };

    // `manager` is the worker's (ServerTimeService); the probe may outlive it, and then asks nothing.
    ServerTimeProbe(const QUrl &url, const QSslConfiguration &tls, const Clock &clock, QNetworkAccessManager &manager,
                    QObject *parent = nullptr);
    ~ServerTimeProbe() override;

    const QUrl &url() const { return m_url; }
    std::optional<Estimate> estimate() const;
    quint64 samples() const { return m_samples; }
    quint64 errors() const { return m_errors; }
    const QString &lastError() const { return m_lastError; }

private:
    struct Sample {
        qint64 offsetUs;
        qint64 rttUs;
        qint64 atMonotonicUs;
        qint64 wallMinusMonotonicUs; // at the sample: the wall clock's position against the monotonic one
    };

    void sendRequest();
    void onFinished(QNetworkReply *reply);
    void fail(const QString &why);
    void scheduleNext();

    QUrl m_url;
    QSslConfiguration m_tls;
    const Clock &m_clock;
    QPointer<QNetworkAccessManager> m_manager;
    QTimer m_timer;
    QPointer<QNetworkReply> m_inFlight;
    bool m_tooLarge = false;
    qint64 m_sentWallUs = 0;
    qint64 m_sentMonotonicUs = 0;
    int m_requests = 0;
    std::deque<Sample> m_window;
    quint64 m_samples = 0;
    quint64 m_errors = 0;
    QString m_lastError;
};

} // namespace streamscope
