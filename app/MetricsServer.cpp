#include "MetricsServer.h"

#include "Engine.h"
#include "HttpConnection.h"

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

} // namespace

MetricsServer::MetricsServer(const Engine &engine, QObject *parent)
    : MetricsServer(engine, HttpServerLimits{}, parent)
{
}

MetricsServer::MetricsServer(const Engine &engine, const HttpServerLimits &limits, QObject *parent)
    : QObject(parent)
    , m_engine(engine)
    , m_limits(limits)
{
}

MetricsServer::~MetricsServer() = default;

quint16 MetricsServer::listen(const QHostAddress &address, quint16 port, QString *error)
{
    delete m_tcp;
    m_tcp = new QTcpServer(this);
    connect(m_tcp, &QTcpServer::newConnection, this, &MetricsServer::onNewConnection);
    if (!m_tcp->listen(address, port)) {
        if (error)
            *error = m_tcp->errorString();
        return 0;
    }
    return m_tcp->serverPort();
}

void MetricsServer::onNewConnection()
{
    while (QTcpSocket *socket = m_tcp->nextPendingConnection()) {
        if (m_openConnections >= m_limits.maxConnections) {
            // Over the cap: closed at once, so that held connections cannot pile up and use
            // the descriptors the streams need.
            socket->abort();
            socket->deleteLater();
            continue;
        }
        ++m_openConnections;
        auto *connection = new HttpConnection(
            socket, m_limits,
            [this](const HttpRequestHead &request) {
                if (request.path != "/metrics")
                    return plainTextResponse(404);
                if (request.method != "GET" && request.method != "HEAD")
                    return plainTextResponse(405, QByteArrayLiteral("Allow: GET, HEAD\r\n"));
                const Format format = negotiate(request.accept);
                QByteArray body = render(m_engine, format);
                if (m_extra) {
                    const bool classic = format == Format::PrometheusText;
                    if (!classic)
                        body.chop(qstrlen("# EOF\n"));
                    body += m_extra(classic) + (classic ? "" : "# EOF\n");
                }
                return HttpResponse{200, contentType(format), body, {}};
            },
            this);
        connect(connection, &HttpConnection::finished, this, [this] { --m_openConnections; });
    }
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
        out += "# TYPE " + familyName + ' ' + type + "\n# HELP " + familyName + ' ' + help + '\n';
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
    counter("reconnects", "Reconnection attempts.", &StreamSnapshot::reconnects);
    counter("heartbeats", "Venue heartbeats received.", &StreamSnapshot::heartbeats);
    counter("updates", "Logical updates (a segmented Betfair change counts once).", &StreamSnapshot::updates);
    counter("duplicates", "Messages seen on both connections of a rollover, counted once.",
            &StreamSnapshot::duplicates);
    counter("rollovers", "Make-before-break connection rollovers completed.", &StreamSnapshot::rollovers);
    counter("conflated", "Betfair change messages marked conflated (con=true).", &StreamSnapshot::conflated);
    counter("status_503", "Betfair change messages with status 503 (data may be stale).", &StreamSnapshot::status503);
    counter("stale_alarms", "Nothing received within three heartbeat intervals.", &StreamSnapshot::staleAlarms);
    counter("outgoing_messages", "Text messages sent to the venue.", &StreamSnapshot::outgoingMessages);

    family("connections", "gauge",
           "Connections the stream uses now (more than one while rolling over or past 1,024 subscriptions).");
    for (const StreamSnapshot &s : streams)
        out +=
            "streamscope_connections{stream=\"" + nameOf(s) + "\"} " + QByteArray::number(s.connections.size()) + '\n';
    const auto rateLimits = [&](const char *name, const char *help, qint64 RateLimitInfo::*field) {
        family(name, "gauge", help);
        for (const StreamSnapshot &s : streams)
            for (const RateLimitInfo &r : s.rateLimits)
                out += "streamscope_" + QByteArray(name) + "{stream=\"" + nameOf(s) + "\",type=\"" + escapeLabel(r.type)
                    + "\",interval=\"" + QByteArray::number(r.intervalNum) + escapeLabel(r.interval) + "\"} "
                    + QByteArray::number(r.*field) + '\n';
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

    family("latency_seconds", "histogram", "Receive time minus event time.");
    for (const StreamSnapshot &s : streams) {
        const QByteArray label = "stream=\"" + nameOf(s) + '"';
        const LatencySnapshot &l = s.latency;
        quint64 cumulative = 0;
        int bucket = 0;
        for (double bound : kBoundsS) {
            const auto boundUs = std::uint64_t(bound * 1e6);
            while (bucket < l.buckets.size() && LatencyBuckets::upperUs(bucket) < boundUs)
                cumulative += l.buckets[bucket++];
            out += "streamscope_latency_seconds_bucket{" + label + ",le=\"" + QByteArray::number(bound) + "\"} "
                + QByteArray::number(cumulative) + '\n';
        }
        out += "streamscope_latency_seconds_bucket{" + label + ",le=\"+Inf\"} " + QByteArray::number(l.count) + '\n';
        out += "streamscope_latency_seconds_sum{" + label + "} " + QByteArray::number(double(l.sumUs) / 1e6, 'f', 6)
            + '\n';
        out += "streamscope_latency_seconds_count{" + label + "} " + QByteArray::number(l.count) + '\n';
    }
    family("negative_latencies", "counter", "Latencies below zero (clock skew), kept out of the histogram.");
    for (const StreamSnapshot &s : streams)
        out += "streamscope_negative_latencies_total{stream=\"" + nameOf(s) + "\"} "
            + QByteArray::number(s.latency.negative) + '\n';
    family("invalid_event_times", "counter",
           "Event times not between 2000 and 2100 (in the stream's unit): no latency recorded.");
    for (const StreamSnapshot &s : streams)
        out += "streamscope_invalid_event_times_total{stream=\"" + nameOf(s) + "\"} "
            + QByteArray::number(s.latency.invalid) + '\n';
    if (!classic)
        out += "# EOF\n";
    return out;
}

} // namespace streamscope::app
