#include "MetricsServer.h"

#include "BookReport.h"
#include "ClockReport.h"
#include "Engine.h"
#include "FlightReport.h"
#include "FreshnessReport.h"
#include "HttpConnection.h"
#include "InputFile.h"
#include "InstrumentReport.h"
#include "MetricsText.h"
#include "Report.h"

#include <QtCore/QDateTime>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QSet>
#include <QtNetwork/QSslCertificate>
#include <QtNetwork/QSslKey>
#include <QtNetwork/QSslSocket>
#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>

#include <algorithm>
#include <array>

namespace streamscope::app {

namespace {

// Histogram bounds in seconds; our log-linear buckets are folded into them.
constexpr std::array<double, 17> kBoundsS = {0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
                                             0.05,    0.1,    0.25,    0.5,    1.0,   2.5,    5.0,   10.0};

constexpr char kOpenMetricsContentType[] = "application/openmetrics-text; version=1.0.0; charset=utf-8";
constexpr char kPrometheusTextContentType[] = "text/plain; version=0.0.4; charset=utf-8";

QByteArray escapeLabel(const QString &v)
{
    QByteArray out = v.toUtf8();
    out.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n");
    return out;
}

// Rate-limit labels come from the venue's responses: only Binance's documented values become
// label values, each combination once, so that a peer cannot grow the number of series
// (docs/operations.md, "Metrics and labels").
bool exportedRateLimit(const RateLimitInfo &r, QSet<QString> &seen)
{
    static const QStringList kTypes{QStringLiteral("REQUEST_WEIGHT"), QStringLiteral("ORDERS"),
                                    QStringLiteral("RAW_REQUESTS"), QStringLiteral("CONNECTIONS")};
    static const QStringList kIntervals{QStringLiteral("SECOND"), QStringLiteral("MINUTE"), QStringLiteral("HOUR"),
                                        QStringLiteral("DAY")};
    constexpr int kMaxIntervalNum = 60;
    if (!kTypes.contains(r.type) || !kIntervals.contains(r.interval) || r.intervalNum < 1
        || r.intervalNum > kMaxIntervalNum)
        return false;
    const QString key = r.type + QLatin1Char(' ') + QString::number(r.intervalNum) + r.interval;
    if (seen.contains(key))
        return false;
    seen.insert(key);
    return true;
}

// Accepts TLS connections: each socket starts its server handshake at once and is handed to an
// HttpConnection like a plain one (its request timeout bounds a handshake that never ends).
class TlsServer : public QTcpServer {
public:
    TlsServer(const QSslConfiguration &tls, QObject *parent)
        : QTcpServer(parent)
        , m_tls(tls)
    {
    }

protected:
    void incomingConnection(qintptr descriptor) override
    {
        auto *socket = new QSslSocket(this);
        if (!socket->setSocketDescriptor(descriptor)) {
            delete socket;
            return;
        }
        socket->setSslConfiguration(m_tls);
        socket->startServerEncryption();
        addPendingConnection(socket);
    }

private:
    QSslConfiguration m_tls;
};

constexpr qint64 kMaxAuthFileBytes = 4096;

} // namespace

bool MetricsServer::authorized(const QByteArray &authorization, const QByteArray &userColonPassword)
{
    const QByteArray expected = "Basic " + userColonPassword.toBase64();
    // Every byte is compared whatever the first difference: the time says nothing of it.
    unsigned char diff = authorization.size() == expected.size() ? 0 : 1;
    for (qsizetype i = 0; i < expected.size(); ++i)
        diff |= static_cast<unsigned char>(expected[i] ^ (i < authorization.size() ? authorization[i] : 0));
    return diff == 0;
}

bool MetricsServer::readAuthFile(const QString &path, QByteArray *userColonPassword, QString *error)
{
    // Through the one opener: a FIFO or a device given here must not block the start.
    QString why;
    std::optional<QByteArray> read =
        InputFile::readAll(path, {kMaxAuthFileBytes, InputFile::kSmallFileTimeout, nullptr}, &why);
    if (!read) {
        *error = why + QStringLiteral(" (expected one line \"user:password\")");
        return false;
    }
    QByteArray text = std::move(*read);
    while (text.endsWith('\n') || text.endsWith('\r'))
        text.chop(1);
    const qsizetype colon = text.indexOf(':');
    if (colon <= 0 || colon == text.size() - 1 || text.contains('\n') || text.contains('\r')) {
        *error =
            QStringLiteral("%1: expected one line \"user:password\" (a user and a password, neither empty)").arg(path);
        return false;
    }
    *userColonPassword = text;
    return true;
}

bool MetricsServer::tlsFromFiles(const QString &certPath, const QString &keyPath, QSslConfiguration *tls,
                                 QString *error)
{
    const InputFile::Limits limits{InputFile::kMaxPemBytes, InputFile::kSmallFileTimeout, nullptr};
    const std::optional<QByteArray> certPem = InputFile::readAll(certPath, limits, error);
    if (!certPem)
        return false;
    const std::optional<QByteArray> keyPem = InputFile::readAll(keyPath, limits, error);
    if (!keyPem)
        return false;
    const QList<QSslCertificate> chain = QSslCertificate::fromData(*certPem, QSsl::Pem);
    if (chain.isEmpty()) {
        *error = QStringLiteral("%1: expected a PEM certificate").arg(certPath);
        return false;
    }
    QSslKey key(*keyPem, QSsl::Rsa, QSsl::Pem);
    if (key.isNull())
        key = QSslKey(*keyPem, QSsl::Ec, QSsl::Pem);
    if (key.isNull()) {
        *error = QStringLiteral("%1: expected an unencrypted PEM RSA or EC private key").arg(keyPath);
        return false;
    }
    QSslConfiguration c = QSslConfiguration::defaultConfiguration();
    c.setLocalCertificate(chain.first());
    c.setLocalCertificateChain(chain);
    c.setPrivateKey(key);
    c.setPeerVerifyMode(QSslSocket::VerifyNone); // clients are not asked for certificates
    *tls = c;
    return true;
}

MetricsServer::MetricsServer(const Engine &engine, QObject *parent)
    : MetricsServer(engine, HttpServerLimits{}, parent)
{
}

MetricsServer::MetricsServer(const Engine &engine, const HttpServerLimits &limits, QObject *parent)
    : QObject(parent)
    , m_engine(engine)
    , m_limits(limits)
    , m_slots(limits)
{
    m_since.start();
}

MetricsServer::~MetricsServer() = default;

quint16 MetricsServer::listen(const QHostAddress &address, quint16 port, QString *error)
{
    delete m_tcp;
    m_tcp = m_access.usesTls() ? new TlsServer(m_access.tls, this) : new QTcpServer(this);
    connect(m_tcp, &QTcpServer::newConnection, this, &MetricsServer::onNewConnection);
    m_tcp->setListenBacklogSize(kListenBacklog);
    if (!m_tcp->listen(address, port)) {
        if (error)
            *error = m_tcp->errorString();
        return 0;
    }
    return m_tcp->serverPort();
}

void MetricsServer::onNewConnection()
{
    if (m_acceptQueued)
        return;
    m_acceptQueued = true;
    QMetaObject::invokeMethod(this, &MetricsServer::acceptPending, Qt::QueuedConnection);
}

void MetricsServer::acceptPending()
{
    m_acceptQueued = false;
    // At most the pending list's length: what arrives meanwhile waits for the next turn (Qt
    // stops accepting while the list is full, and starts again as it is taken from).
    for (int taken = 0; taken < m_tcp->maxPendingConnections(); ++taken) {
        QTcpSocket *socket = m_tcp->nextPendingConnection();
        if (!socket)
            return;
        const ConnectionSlots::Id id = ++m_lastId;
        auto *connection = new HttpConnection(
            socket, m_limits, [this](const HttpRequestHead &request) { return answer(request); }, this);
        m_connections.insert(id, connection);
        m_slots.add(id, socket->peerAddress().toString().toLatin1());
        connect(connection, &HttpConnection::busyChanged, this, [this, id](bool busy) { m_slots.setBusy(id, busy); });
        connect(connection, &HttpConnection::finished, this, [this, id] {
            m_slots.remove(id);
            m_connections.remove(id);
        });
        // A request that came with the connection (a scraper writes it at once, and under
        // pressure it waited in the kernel's queue) makes it busy before any slot is chosen.
        connection->pollRequest();
        // Over a limit: a waiting connection is closed at once, so that held connections
        // neither pile up (they would use the descriptors the streams need) nor stop a scrape.
        makeRoom();
    }
    if (m_tcp->hasPendingConnections())
        onNewConnection();
}

void MetricsServer::makeRoom()
{
    QList<ConnectionSlots::Id> polled;
    while (const ConnectionSlots::Id id = m_slots.toClose()) {
        HttpConnection *connection = m_connections.value(id);
        if (!connection) {
            m_slots.remove(id);
            continue;
        }
        // Its request may have arrived since it was last read: then it is answered, not closed.
        if (!polled.contains(id)) {
            polled.append(id);
            if (connection->pollRequest())
                continue;
        }
        connection->close();
    }
}

HttpResponse MetricsServer::answer(const HttpRequestHead &request) const
{
    const bool metrics = request.path == "/metrics";
    const bool streams = request.path == "/api/v1/streams";
    if (!metrics && !streams)
        return plainTextResponse(404);
    if (request.method != "GET" && request.method != "HEAD")
        return plainTextResponse(405, QByteArrayLiteral("Allow: GET, HEAD\r\n"));
    if (!m_access.basicAuth.isEmpty() && !authorized(request.authorization, m_access.basicAuth)) {
        // Told why, and closed at once: a client without the password holds no slot.
        HttpResponse refused = plainTextResponse(
            401, QByteArrayLiteral("WWW-Authenticate: Basic realm=\"streamscope\", charset=\"UTF-8\"\r\n"));
        refused.closeAtOnce = true;
        return refused;
    }
    if (streams)
        return HttpResponse{200, QByteArrayLiteral("application/json"), liveReport(), {}};
    const Format format = negotiate(request.accept);
    QByteArray body = render(m_engine, format);
    if (m_extra) { // the alerts' families, before OpenMetrics' "# EOF"
        const bool classic = format == Format::PrometheusText;
        if (!classic)
            body.chop(qstrlen("# EOF\n"));
        body += m_extra(classic) + (classic ? "" : "# EOF\n");
    }
    return HttpResponse{200, contentType(format), body, {}};
}

QByteArray MetricsServer::liveReport() const
{
    const QVector<StreamSnapshot> snaps = m_engine.snapshot(true);
    QJsonObject report = buildReport(snaps, double(m_since.elapsed()) / 1000.0);
    // Beyond the report: what a remote viewer needs to show the stream as a local one (its
    // own latency windows from the histogram, the age of the last message on this clock).
    QJsonArray streams = report.value(QStringLiteral("streams")).toArray();
    const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
    for (qsizetype i = 0; i < streams.size() && i < snaps.size(); ++i) {
        const StreamSnapshot &s = snaps[i];
        const auto buckets = [](const LatencySnapshot &l) {
            QJsonArray pairs;
            for (qsizetype b = 0; b < l.buckets.size(); ++b) {
                if (l.buckets[b])
                    pairs.append(QJsonArray{qint64(b), qint64(l.buckets[b])});
            }
            return pairs;
        };
        QJsonObject o = streams[i].toObject();
        o.insert(QStringLiteral("live"),
                 QJsonObject{{QStringLiteral("last_message_age_ms"),
                              s.lastMessageMs > 0 ? QJsonValue(std::max<qint64>(0, nowMs - s.lastMessageMs))
                                                  : QJsonValue(QJsonValue::Null)},
                             {QStringLiteral("latency_buckets"), buckets(s.latency)},
                             {QStringLiteral("latency_sum_us"), qint64(s.latency.sumUs)},
                             {QStringLiteral("latency_max_us"), qint64(s.latency.maxUs)},
                             {QStringLiteral("latency_corrected_buckets"), buckets(s.latencyCorrected)},
                             {QStringLiteral("latency_corrected_sum_us"), qint64(s.latencyCorrected.sumUs)},
                             {QStringLiteral("latency_corrected_max_us"), qint64(s.latencyCorrected.maxUs)}});
        streams[i] = o;
    }
    report.insert(QStringLiteral("streams"), streams);
    return QJsonDocument(report).toJson(QJsonDocument::Compact);
}

MetricsServer::Format MetricsServer::negotiate(const QByteArray &accept)
{
    // The highest q-value given to each of the two media types (-1: not named).
    double openMetrics = -1;
    double text = -1;
    for (const QByteArray &range : accept.split(',')) {
        const QList<QByteArray> parts = range.split(';');
        const QByteArray type = parts.first().trimmed();
        double q = 1;
        for (qsizetype i = 1; i < parts.size(); ++i) {
            const QByteArray param = parts[i].trimmed();
            if (param.startsWith("q=")) {
                bool ok = false;
                q = param.mid(2).toDouble(&ok);
                if (!ok || q < 0 || q > 1)
                    q = 0;
            }
        }
        if (type == "application/openmetrics-text")
            openMetrics = std::max(openMetrics, q);
        else if (type == "text/plain")
            text = std::max(text, q);
    }
    return text > 0 && text > openMetrics ? Format::PrometheusText : Format::OpenMetrics;
}

QByteArray MetricsServer::contentType(Format format)
{
    return format == Format::PrometheusText ? kPrometheusTextContentType : kOpenMetricsContentType;
}

QByteArray MetricsServer::render(const Engine &engine, Format format)
{
    // The classic text format names a counter by its sample (`_total`) in # TYPE and # HELP,
    // has no stateset type (a gauge of 0/1 instead) and no # EOF.
    const bool classic = format == Format::PrometheusText;
    const QVector<StreamSnapshot> streams = engine.snapshot(true);
    // Each stream's label value, escaped once for every line that carries it.
    QList<QByteArray> names;
    names.reserve(streams.size());
    for (const StreamSnapshot &s : streams)
        names << escapeLabel(s.name);
    const auto nameOf = [&](const StreamSnapshot &s) -> const QByteArray & { return names[&s - streams.constData()]; };
    QByteArray out;
    out.reserve(4096 + streams.size() * 2048);
    const auto family = [&out, classic](const char *name, const char *type, const char *help) {
        QByteArray familyName = QByteArrayLiteral("streamscope_") + name;
        if (classic && qstrcmp(type, "counter") == 0)
            familyName += "_total";
        if (classic && qstrcmp(type, "stateset") == 0)
            type = "gauge";
        appendFamily(out, familyName, type, help);
    };
    const auto counter = [&](const char *name, const char *help, quint64 StreamSnapshot::*field) {
        family(name, "counter", help);
        for (const StreamSnapshot &s : streams)
            out += "streamscope_" + QByteArray(name) + "_total{stream=\"" + nameOf(s) + "\"} "
                + QByteArray::number(s.*field) + '\n';
    };
    counter("messages", "Messages received.", &StreamSnapshot::messages);
    counter("data_messages", "Messages routed as data.", &StreamSnapshot::dataMessages);
    counter("bytes", "Payload bytes received.", &StreamSnapshot::bytes);
    counter("results", "Responses routed as results.", &StreamSnapshot::results);
    counter("errors", "Responses routed as errors.", &StreamSnapshot::errors);
    counter("parse_errors", "Data messages that could not be decoded: not valid JSON, or a field of the wrong type.",
            &StreamSnapshot::parseErrors);
    counter("gaps", "Sequence gaps detected.", &StreamSnapshot::gaps);
    counter("sequence_resets", "Legal restarts of the venue's sequence (not gaps).", &StreamSnapshot::sequenceResets);
    counter("reconnects", "Reconnection attempts.", &StreamSnapshot::reconnects);
    counter("heartbeats", "Venue heartbeats received.", &StreamSnapshot::heartbeats);
    counter("updates", "Logical updates (a segmented Betfair change counts once).", &StreamSnapshot::updates);
    counter("duplicates", "Messages seen on both connections of a rollover, counted once.",
            &StreamSnapshot::duplicates);
    counter("rollovers", "Make-before-break connection rollovers completed.", &StreamSnapshot::rollovers);
    counter("venue_errors", "Error messages from the venue (a refused subscription).", &StreamSnapshot::venueErrors);
    counter("venue_notices", "Notices from the venue (a coming maintenance).", &StreamSnapshot::venueNotices);
    counter("conflated", "Betfair change messages marked conflated (con=true).", &StreamSnapshot::conflated);
    counter("status_503", "Betfair change messages with status 503 (data may be stale).", &StreamSnapshot::status503);
    counter("stale_alarms", "Nothing received within three heartbeat intervals.", &StreamSnapshot::staleAlarms);
    counter("outgoing_messages", "Text messages sent to the venue.", &StreamSnapshot::outgoingMessages);
    // Recording (docs/capture.md): only streams that record have samples.
    if (std::any_of(streams.begin(), streams.end(), [](const StreamSnapshot &s) { return s.record.on; })) {
        const auto recordCounter = [&](const char *name, const char *help, quint64 RecordStatus::*field) {
            family(name, "counter", help);
            for (const StreamSnapshot &s : streams)
                if (s.record.on)
                    out += "streamscope_" + QByteArray(name) + "_total{stream=\"" + nameOf(s) + "\"} "
                        + QByteArray::number(s.record.*field) + '\n';
        };
        recordCounter("recorded_messages", "Messages written to the stream's capture.", &RecordStatus::messages);
        recordCounter("record_dropped", "Messages not recorded: the hand-off buffer was full or the file not writable.",
                      &RecordStatus::dropped);
    }

    family("connections", "gauge",
           "Connections the stream uses now (more than one while rolling over or past 1,024 subscriptions).");
    for (const StreamSnapshot &s : streams)
        out +=
            "streamscope_connections{stream=\"" + nameOf(s) + "\"} " + QByteArray::number(s.connections.size()) + '\n';
    const auto rateLimits = [&](const char *name, const char *help, qint64 RateLimitInfo::*field) {
        family(name, "gauge", help);
        for (const StreamSnapshot &s : streams) {
            QSet<QString> seen;
            for (const RateLimitInfo &r : s.rateLimits) {
                if (!exportedRateLimit(r, seen))
                    continue;
                out += "streamscope_" + QByteArray(name) + "{stream=\"" + nameOf(s) + "\",type=\"" + escapeLabel(r.type)
                    + "\",interval=\"" + QByteArray::number(r.intervalNum) + escapeLabel(r.interval) + "\"} "
                    + QByteArray::number(r.*field) + '\n';
            }
        }
    };
    rateLimits("rate_limit_used", "Requests counted by the venue in its rate-limit window (last response).",
               &RateLimitInfo::count);
    rateLimits("rate_limit", "The venue's limit for that window.", &RateLimitInfo::limit);

    family("stream_state", "stateset", "Current state of each stream.");
    for (const StreamSnapshot &s : streams) {
        for (StreamState st : {StreamState::Idle, StreamState::Connecting, StreamState::Subscribing, StreamState::Live,
                               StreamState::Stalled, StreamState::Reconnecting, StreamState::Stopped,
                               StreamState::Failed, StreamState::Degraded}) {
            out += "streamscope_stream_state{stream=\"" + nameOf(s) + "\",streamscope_stream_state=\""
                + stateName(st).toUtf8() + "\"} " + (s.state == st ? "1" : "0") + '\n';
        }
    }
    family("last_message_timestamp_seconds", "gauge", "Time of the last message received.");
    for (const StreamSnapshot &s : streams)
        out += "streamscope_last_message_timestamp_seconds{stream=\"" + nameOf(s) + "\"} "
            + QByteArray::number(double(s.lastMessageMs) / 1000.0, 'f', 3) + '\n';

    const auto histogram = [&](const char *name, const char *help, LatencySnapshot StreamSnapshot::*field) {
        const QByteArray base = QByteArrayLiteral("streamscope_") + name;
        family(name, "histogram", help);
        for (const StreamSnapshot &s : streams) {
            const QByteArray label = "stream=\"" + nameOf(s) + '"';
            const LatencySnapshot &l = s.*field;
            quint64 cumulative = 0;
            int bucket = 0;
            for (double bound : kBoundsS) {
                const auto boundUs = std::uint64_t(bound * 1e6);
                while (bucket < l.buckets.size() && LatencyBuckets::upperUs(bucket) < boundUs)
                    cumulative += l.buckets[bucket++];
                out += base + "_bucket{" + label + ",le=\"" + QByteArray::number(bound) + "\"} "
                    + QByteArray::number(cumulative) + '\n';
            }
            out += base + "_bucket{" + label + ",le=\"+Inf\"} " + QByteArray::number(l.count) + '\n';
            out += base + "_sum{" + label + "} " + QByteArray::number(double(l.sumUs) / 1e6, 'f', 6) + '\n';
            out += base + "_count{" + label + "} " + QByteArray::number(l.count) + '\n';
        }
    };
    histogram("latency_seconds", "Receive time minus event time.", &StreamSnapshot::latency);
    histogram("latency_corrected_seconds", "Receive time plus the clock offset minus event time (docs/clock.md).",
              &StreamSnapshot::latencyCorrected);
    family("negative_latencies", "counter", "Latencies below zero (clock skew), kept out of the histogram.");
    for (const StreamSnapshot &s : streams)
        out += "streamscope_negative_latencies_total{stream=\"" + nameOf(s) + "\"} "
            + QByteArray::number(s.latency.negative) + '\n';
    family("invalid_event_times", "counter",
           "Event times not between 2000 and 2100 (in the stream's unit): no latency recorded.");
    for (const StreamSnapshot &s : streams)
        out += "streamscope_invalid_event_times_total{stream=\"" + nameOf(s) + "\"} "
            + QByteArray::number(s.latency.invalid) + '\n';
    appendClockMetrics(out, streams, names, HostClockState::read(), classic);
    appendFreshnessMetrics(out, streams, names, classic);
    appendFlightMetrics(out, streams, names, classic);
    appendBookMetrics(out, streams, names, classic); // docs/books.md
    appendInstrumentMetrics(out, streams, names);    // docs/freshness.md
    if (!classic)
        out += "# EOF\n";
    return out;
}

} // namespace streamscope::app
