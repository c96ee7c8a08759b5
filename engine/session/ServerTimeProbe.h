#pragma once

// Asks a venue's REST server-time endpoint (Binance: GET /api/v3/time → {"serverTime":<ms>};
// each venue's answer is read by its own reader, venues/ServerTimeAnswer.h) a few times a
// minute and keeps the offset between the venue's clock and this machine's, NTP-style: for a
// request sent at local time t0 and answered at t1, offset = serverTime − (t0 + t1)/2, within
// ± (t1 − t0)/2 and half the answer's step (1 ms for Binance, 1 s for Kraken). The sample with
// the shortest round trip in the window is the estimate; an answer in whole seconds is
// narrowed by the other samples of the window (each bounds the offset; the bounds of answers
// read at different fractions of the venue's second intersect far tighter than one of them).
// Its offset follows the local wall clock: a step or slew of the wall clock since the sample
// (the change of wall − monotonic) is taken out of it.
//
// Hostile answers are bounded and counted, never trusted: a reply over kMaxReplyBytes is
// aborted, a request has kTimeoutMs, redirects are not followed, and a body the venue's reader
// does not take for a plausible server time is an error. TLS uses the stream's configuration
// (its extra CA), with peer verification on.
//
// Thread contract: created, used and destroyed on one worker thread; it owns its timer and
// uses the worker's QNetworkAccessManager. Shared by the streams of that worker that ask the same URL
// (ServerTimeService).

#include "Clock.h"
#include "venues/ServerTimeAnswer.h"

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
    // Answers this coarse (Kraken's whole seconds) are narrowed by the window's other samples.
    static constexpr qint64 kCoarseResolutionUs = 100 * 1000;

    struct Estimate {
        qint64 offsetUs = 0;      // venue − local, as of now
        qint64 uncertaintyUs = 0; // half the round trip, plus half the answer's step
    };

    // `manager` is the worker's (ServerTimeService); the probe may outlive it, and then asks
    // nothing. `reader` reads the venue's answers.
    ServerTimeProbe(const QUrl &url, ServerTimeReader reader, const QSslConfiguration &tls, const Clock &clock,
                    QNetworkAccessManager &manager, QObject *parent = nullptr);
    ~ServerTimeProbe() override;

    const QUrl &url() const { return m_url; }
    std::optional<Estimate> estimate() const;
    quint64 samples() const { return m_samples; }
    quint64 errors() const { return m_errors; }
    const QString &lastError() const { return m_lastError; }

private:
    struct Sample {
        qint64 offsetUs;    // the middle of the interval the answer allows
        qint64 halfWidthUs; // half the round trip plus half the answer's step
        qint64 resolutionUs;
        qint64 rttUs;
        qint64 atMonotonicUs;
        qint64 wallMinusMonotonicUs; // at the sample: the wall clock's position against the monotonic one
    };

    void sendRequest();
    void onFinished(QNetworkReply *reply);
    void fail(const QString &why);
    void scheduleNext();

    QUrl m_url;
    ServerTimeReader m_reader;
    QSslConfiguration m_tls;
    const Clock &m_clock;
    QPointer<QNetworkAccessManager> m_manager;
    QTimer m_timer;
    QPointer<QNetworkReply> m_inFlight;
    qint64 m_sentWallUs = 0;
    qint64 m_sentMonotonicUs = 0;
    int m_requests = 0;
    std::deque<Sample> m_window;
    quint64 m_samples = 0;
    quint64 m_errors = 0;
    QString m_lastError;
};

} // namespace streamscope
