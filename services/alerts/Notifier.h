#pragma once

// Sends alert episodes to the workspace's "notify" destinations (docs/alerts.md): a generic
// webhook (JSON of a documented schema), a Slack incoming webhook ({"text": ...}) and a
// Telegram bot (sendMessage). Through QNetworkAccessManager, asynchronously: notify()
// returns at once and never blocks the GUI or headless event loop; the engine's workers are
// not involved at all.
//
// Manners, per destination: a rate cap (max_per_minute; the rest are counted as suppressed
// and summarised in one message once the minute is over); retries with exponential backoff
// (1, 2, 4, 8 s; at most kMaxTries tries) on a network error, a timeout (10 s), HTTP 5xx and
// 429 (its Retry-After honoured up to a bound); any other 4xx is a permanent failure.
// Failures are reported by deliveryFailed() with a text that never holds a secret: URLs are
// shown redacted (a reference is shown as written, a resolved secret never) and error
// strings from the network are scrubbed of the resolved URL and token.
//
// Thread contract: lives on the thread that owns it (GUI or headless main thread); every
// call and signal is on that thread. Owns its QNetworkAccessManager and pending replies.

#include "NotifyTarget.h"

#include <QtCore/QDateTime>
#include <QtCore/QHash>
#include <QtCore/QObject>
#include <QtCore/QVector>

#include <deque>

class QNetworkAccessManager;
class QNetworkReply;
class QTimer;

namespace streamscope::alerts {

struct AlertEvent {
    enum class Kind { Unknown = 0, Raised, Cleared, Test, Suppressed };
    Kind kind = Kind::Unknown;
    QString stream;
    QString condition; // the rule key: "silent_s", "rate_below", ...
    QString text;
    qint64 timeMs = 0;      // epoch ms, when the event happened
    qint64 sinceMs = 0;     // epoch ms, when the condition began to hold (0: unknown)
    quint64 suppressed = 0; // Kind::Suppressed: how many messages the rate cap held back
    QString flightFile;     // Kind::Raised: the flight recorder's file saved for it (empty: none)

    static QString kindName(Kind kind);
};

class Notifier : public QObject {
    Q_OBJECT
public:
    static constexpr int kMaxTries = 5;

    // Timings; tests shorten them.
    struct Timing {
        int firstRetryMs = 1000;     // then doubled per try
        int maxRetryAfterMs = 60000; // a 429's Retry-After beyond this is cut to it
        int timeoutMs = 10000;       // per request
        int rateWindowMs = 60000;    // the rate cap's window
    };

    explicit Notifier(QObject *parent = nullptr);
    Notifier(const Timing &timing, QObject *parent = nullptr);
    ~Notifier() override;

    // The workspace's destinations (every stream) and the streams' own. Destinations are
    // numbered in that order; a list equal to the current one keeps the counters.
    void setDestinations(const QList<NotifyTarget> &all, const QList<QPair<QString, NotifyTarget>> &perStream);
    int destinationCount() const { return int(m_destinations.size()); }
    const NotifyTarget &target(int index) const { return m_destinations[index].target; }
    // "webhook-0", "slack-1": the metrics label (type and index: bounded by the workspace).
    QString label(int index) const;
    // The label and where it sends, redacted: "webhook-0 (https://example.com/hook)",
    // "slack-1 (env:SLACK_URL)", "telegram-2 (https://api.telegram.org, chat 42)".
    QString describe(int index) const;
    // The stream a destination is for (a stream's own "notify"), empty for every stream.
    const QString &destinationStream(int index) const { return m_destinations[index].stream; }

    // An alert raised or cleared: sent to every destination that applies to its stream.
    void notify(const AlertEvent &event);
    // A "test" event to one destination, tried once; the result comes with testFinished().
    void sendTest(int index);
    // A "test" event to a target that is not (yet) one of the destinations (the GUI's editor).
    void sendTest(const NotifyTarget &target, int index);

    quint64 sent(int index) const { return m_destinations[index].sent; }
    quint64 failures(int index) const { return m_destinations[index].failures; }
    quint64 suppressed(int index) const { return m_destinations[index].suppressed; }
    int pendingRequests() const { return m_pending; }

    // streamscope_notify_sent_total / _failures_total / _suppressed_total{destination="..."}
    // in the OpenMetrics text (`classic`: Prometheus's 0.0.4 text format).
    QByteArray renderMetrics(bool classic) const;

    // `text` (a network error string) with the target's resolved secrets replaced by
    // "<redacted>": its URL when that is a reference, its token, its header values.
    static QString redactSecrets(const NotifyTarget &target, QString text);

    // The message bodies, for tests and docs/alerts.md.
    static QByteArray webhookBody(const AlertEvent &event, const QString &host);
    static QString messageText(const AlertEvent &event, const QString &host);

signals:
    void delivered(int index, const streamscope::alerts::AlertEvent &event);
    void deliveryFailed(int index, const QString &text);
    void testFinished(int index, bool ok, const QString &result);

private:
    struct Destination {
        NotifyTarget target;
        QString stream; // empty: every stream
        quint64 sent = 0;
        quint64 failures = 0;
        quint64 suppressed = 0;
        quint64 unsummarised = 0;    // suppressed since the last summary
        std::deque<qint64> recentMs; // accepted messages within the rate window (steady ms)
        QTimer *summaryTimer = nullptr;
    };
    struct Delivery {
        int index = -1;
        NotifyTarget target;
        AlertEvent event;
        int tries = 0;
        bool test = false;
        quint64 generation = 0;
    };

    Delivery makeDelivery(int index, const NotifyTarget &target, const AlertEvent &event, bool test) const;
    bool admit(int index);
    void sendSummary(int index);
    void send(Delivery delivery);
    void onFinished(QNetworkReply *reply, Delivery delivery);
    void fail(const Delivery &delivery, const QString &why);
    static QString describe(const NotifyTarget &target, const QString &label);

    Timing m_timing;
    QNetworkAccessManager *m_network = nullptr;
    QVector<Destination> m_destinations;
    QString m_host;
    quint64 m_generation = 0; // bumped by setDestinations: late replies of old ones are not counted
    int m_pending = 0;
};

} // namespace streamscope::alerts
