#include "RemoteAgent.h"

#include "PeerText.h"
#include "RedactedUrl.h"
#include "SecretStore.h"

#include <QtCore/QDateTime>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTimer>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>
#include <QtNetwork/QSslConfiguration>

#include <cmath>
#include <optional>

namespace streamscope::ui {

namespace {

StreamState stateFromName(const QString &name)
{
    for (int s = int(StreamState::Idle); s <= int(StreamState::Degraded); ++s) {
        if (stateName(StreamState(s)) == name)
            return StreamState(s);
    }
    return StreamState::Unknown;
}

// A count from the answer: a non-negative integral number, else 0 (the peer is not trusted).
quint64 count(const QJsonObject &o, const QString &key)
{
    const double v = o.value(key).toDouble();
    return std::isfinite(v) && v >= 0 && v < 9e18 ? quint64(v) : 0;
}

// A duration in ms from the answer, within a day either way; nothing otherwise (null, text,
// out of range).
std::optional<double> milliseconds(const QJsonObject &o, const QString &key)
{
    const QJsonValue v = o.value(key);
    if (!v.isDouble() || !std::isfinite(v.toDouble()) || std::abs(v.toDouble()) > 86'400'000.0)
        return std::nullopt;
    return v.toDouble();
}

// The report's clock fields (docs/clock.md) back into the estimate the table, the details
// pane and the corrected latency read.
ClockEstimate clockFrom(const QJsonObject &o)
{
    ClockEstimate c;
    const QString source = o.value(QStringLiteral("clock_offset_source")).toString();
    const std::optional<double> offset = milliseconds(o, QStringLiteral("clock_offset_ms"));
    for (ClockOffsetSource known : {ClockOffsetSource::ServerTime, ClockOffsetSource::LatencyFloor})
        if (offset && source == QLatin1String(clockOffsetSourceName(known)))
            c.source = known;
    if (c.source != ClockOffsetSource::Unknown) {
        c.offsetMs = *offset;
        const std::optional<double> uncertainty = milliseconds(o, QStringLiteral("clock_offset_uncertainty_ms"));
        c.uncertaintyMs = uncertainty && *uncertainty >= 0 ? *uncertainty : -1;
    }
    if (const std::optional<double> floor = milliseconds(o, QStringLiteral("latency_floor_ms"))) {
        c.hasFloor = true;
        c.latencyFloorMs = *floor;
    }
    const QJsonObject serverTime = o.value(QStringLiteral("server_time")).toObject();
    if (!serverTime.isEmpty()) {
        c.serverTimeUrl = RedactedUrl::fromText(peerText(serverTime.value(QStringLiteral("url")).toString(), 500));
        c.serverTimeSamples = count(serverTime, QStringLiteral("samples"));
        c.serverTimeErrors = count(serverTime, QStringLiteral("errors"));
        c.serverTimeError = peerText(serverTime.value(QStringLiteral("last_error")).toString().toUtf8(), 300);
    }
    c.note = peerText(o.value(QStringLiteral("clock_note")).toString().toUtf8(), 500);
    return c;
}

// The report's order books (docs/books.md) back into their status: the Book column and Details
// show an agent's books as a local stream's. At most 1,024 (the engine's bound), names cut to 32.
QVector<BookStatus> booksFrom(const QJsonArray &list)
{
    QVector<BookStatus> out;
    for (const QJsonValue &v : list) {
        if (out.size() >= 1024)
            break;
        const QJsonObject o = v.toObject();
        BookStatus b;
        b.instrument = peerText(o.value(QStringLiteral("instrument")).toString().toUtf8(), 32);
        const QString state = o.value(QStringLiteral("state")).toString();
        for (BookState known :
             {BookState::Syncing, BookState::Synced, BookState::Resyncing, BookState::Desynced, BookState::Crossed})
            if (state == QLatin1String(bookStateName(known)))
                b.state = known;
        b.resyncs = count(o, QStringLiteral("resyncs"));
        b.checksumFailures = count(o, QStringLiteral("checksum_failures"));
        b.crossedEpisodes = count(o, QStringLiteral("crossed_episodes"));
        b.audits = count(o, QStringLiteral("audits"));
        b.auditMismatches = count(o, QStringLiteral("audit_mismatches"));
        const auto ratio = [&o](const char *key) {
            const QJsonValue r = o.value(QLatin1String(key));
            return r.isDouble() && r.toDouble() >= 0.0 && r.toDouble() <= 1.0 ? r.toDouble() : -1.0;
        };
        b.lastAuditMatchRatio = ratio("last_audit_match_ratio");
        b.minAuditMatchRatio = ratio("min_audit_match_ratio");
        b.staleLevels = qint64(std::min<quint64>(count(o, QStringLiteral("stale_levels")), quint64(INT64_MAX)));
        b.bidLevels = int(std::min<quint64>(count(o, QStringLiteral("bid_levels")), 1'000'000));
        b.askLevels = int(std::min<quint64>(count(o, QStringLiteral("ask_levels")), 1'000'000));
        const std::optional<double> toSync = milliseconds(o, QStringLiteral("time_to_sync_ms"));
        b.timeToSyncMs = toSync && *toSync >= 0 ? qint64(*toSync) : -1;
        b.lastResyncReason = peerText(o.value(QStringLiteral("last_resync_reason")).toString().toUtf8(), 300);
        out.append(b);
    }
    return out;
}

// A histogram from the agent's [index, count] pairs; indices outside the bucket range and
// counts that are no count are dropped.
void readBuckets(const QJsonArray &pairs, LatencySnapshot &out)
{
    for (const QJsonValue &b : pairs) {
        const QJsonArray pair = b.toArray();
        const int index = pair.at(0).toInt(-1);
        const double n = pair.at(1).toDouble();
        if (index < 0 || index >= LatencyBuckets::kCount || !(n > 0) || n > 9e18)
            continue;
        if (out.buckets.size() <= index)
            out.buckets.resize(index + 1);
        out.buckets[index] += quint64(n);
        out.count += quint64(n);
    }
}

} // namespace

RemoteAgent::RemoteAgent(const Settings &settings, int index, QObject *parent)
    : QObject(parent)
    , m_settings(settings)
    , m_idBase(kFirstRemoteId + StreamId(index) * kIdsPerAgent)
    , m_network(new QNetworkAccessManager(this))
    , m_timer(new QTimer(this))
    , m_status(tr("connecting"))
{
    m_network->setTransferTimeout(kTimeoutMs);
    m_timer->setInterval(kPollMs);
    connect(m_timer, &QTimer::timeout, this, &RemoteAgent::pollNow);
    connect(m_network, &QNetworkAccessManager::finished, this, &RemoteAgent::onFinished);
    m_timer->start();
    pollNow();
}

RemoteAgent::~RemoteAgent()
{
    if (m_pending) {
        m_pending->disconnect(this);
        m_pending->abort();
    }
}

void RemoteAgent::pollNow()
{
    if (m_pending)
        return; // one request at a time: a slow agent is not asked twice
    QUrl url = m_settings.url;
    url.setPath(QStringLiteral("/api/v1/streams"));
    QNetworkRequest request(url);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    QByteArray basicAuth = m_settings.basicAuth;
    if (!m_settings.passwordRef.isEmpty()) {
        bool ok = false;
        const QString password = SecretStore::resolve(m_settings.passwordRef, &ok);
        if (!ok) {
            fail(tr("the password %1 is not set").arg(m_settings.passwordRef));
            return;
        }
        basicAuth = (m_settings.user + QLatin1Char(':') + password).toUtf8();
    }
    if (!basicAuth.isEmpty())
        request.setRawHeader("Authorization", "Basic " + basicAuth.toBase64());
    if (url.scheme() == QLatin1String("https") && !m_settings.caCertificates.isEmpty()) {
        QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
        tls.addCaCertificates(m_settings.caCertificates);
        request.setSslConfiguration(tls);
    }
    m_pending = m_network->get(request);
    // Bounded: a reply larger than any honest answer is cut off and counted as an error.
    connect(m_pending, &QNetworkReply::downloadProgress, this, [this](qint64 received, qint64) {
        if (received > kMaxReplyBytes && m_pending)
            m_pending->abort();
    });
}

void RemoteAgent::onFinished(QNetworkReply *reply)
{
    reply->deleteLater();
    if (reply != m_pending)
        return;
    m_pending = nullptr;
    const int http = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    QString error;
    QVector<StreamSnapshot> streams;
    if (reply->error() == QNetworkReply::OperationCanceledError)
        error = tr("no answer within %1 s, or an answer over %2 MB").arg(kTimeoutMs / 1000).arg(kMaxReplyBytes >> 20);
    else if (http == 401)
        error = tr("HTTP 401: wrong or missing user and password");
    else if (http != 0 && http != 200)
        error = tr("HTTP %1").arg(http);
    else if (reply->error() != QNetworkReply::NoError)
        error = peerText(reply->errorString().toUtf8(), 200);
    else
        parse(reply->read(kMaxReplyBytes), &streams, &error);

    if (!error.isEmpty()) {
        fail(error);
        return;
    }
    m_streams = std::move(streams);
    setStatus(tr("connected"), true);
    emit streamsChanged();
}

void RemoteAgent::fail(const QString &error)
{
    // Its rows stay, failed and still: the user sees which streams went out of sight.
    for (StreamSnapshot &s : m_streams) {
        s.state = StreamState::Failed;
        s.stateReason = tr("agent %1 not answering: %2").arg(m_settings.name, error);
    }
    setStatus(error, false);
    emit streamsChanged();
}

bool RemoteAgent::parse(const QByteArray &json, QVector<StreamSnapshot> *out, QString *error)
{
    QJsonParseError parseError{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    const QJsonObject report = doc.object();
    if (parseError.error != QJsonParseError::NoError || report.value(QStringLiteral("version")).toInt() != 1
        || !report.value(QStringLiteral("streams")).isArray()) {
        *error = tr("the answer is not a StreamScope agent's stream list");
        return false;
    }
    // The agent's own uptime times the snapshots: rates come out exact whatever the network did.
    const double uptimeS = report.value(QStringLiteral("duration_s")).toDouble();
    qint64 takenNs = std::isfinite(uptimeS) && uptimeS >= 0 && uptimeS < 1e9 ? qint64(uptimeS * 1e9) : 0;
    if (takenNs < m_lastTakenNs) // restarted: its counters started again, and so do ours
        m_ids.clear();
    m_lastTakenNs = takenNs;
    const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
    const QJsonArray list = report.value(QStringLiteral("streams")).toArray();
    out->clear();
    out->reserve(list.size());
    for (const QJsonValue &v : list) {
        const QJsonObject o = v.toObject();
        const QString name = peerText(o.value(QStringLiteral("name")).toString().toUtf8(), 200);
        const StreamId id = idFor(name);
        if (id == kInvalidStreamId)
            break; // more streams than the block holds: the rest are not shown
        StreamSnapshot s;
        s.id = id;
        s.name = QStringLiteral("%1 @ %2").arg(name, m_settings.name);
        // Shown in tooltips and the details pane: the agent's text, escaped like any peer's.
        s.url = RedactedUrl::fromText(peerText(o.value(QStringLiteral("url")).toString(), 500));
        s.venue = venueFromName(o.value(QStringLiteral("venue")).toString());
        s.mode = modeFromName(o.value(QStringLiteral("mode")).toString());
        s.state = stateFromName(o.value(QStringLiteral("state")).toString());
        s.stateReason = peerText(o.value(QStringLiteral("state_reason")).toString().toUtf8(), 300);
        s.takenAtNs = takenNs;
        s.messages = count(o, QStringLiteral("messages"));
        s.dataMessages = count(o, QStringLiteral("data_messages"));
        s.bytes = count(o, QStringLiteral("bytes"));
        s.results = count(o, QStringLiteral("results"));
        s.errors = count(o, QStringLiteral("errors"));
        s.controlMessages = count(o, QStringLiteral("control_messages"));
        s.heartbeats = count(o, QStringLiteral("heartbeats"));
        s.parseErrors = count(o, QStringLiteral("parse_errors"));
        s.gaps = count(o, QStringLiteral("gaps"));
        s.reconnects = count(o, QStringLiteral("reconnects"));
        s.lastCloseCode = o.value(QStringLiteral("last_close_code")).toInt();
        s.subscriptionCount = o.value(QStringLiteral("subscriptions")).toInt();
        for (const QJsonValue &c : o.value(QStringLiteral("connections")).toArray()) {
            const QJsonObject co = c.toObject();
            ConnectionInfo info;
            info.shard = co.value(QStringLiteral("shard")).toInt();
            info.rollover = co.value(QStringLiteral("rollover")).toBool();
            info.connected = co.value(QStringLiteral("connected")).toBool();
            info.subscriptions = co.value(QStringLiteral("subscriptions")).toInt();
            info.url = RedactedUrl::fromText(peerText(co.value(QStringLiteral("url")).toString(), 500));
            s.connections.append(info);
        }
        s.books = booksFrom(o.value(QStringLiteral("books")).toArray());
        const QJsonObject live = o.value(QStringLiteral("live")).toObject();
        const QJsonValue age = live.value(QStringLiteral("last_message_age_ms"));
        if (age.isDouble() && age.toDouble() >= 0 && age.toDouble() < 1e12)
            s.lastMessageMs = nowMs - qint64(age.toDouble());
        // The latency histogram, bucket by bucket, so that the table's windows work as for a
        // local stream; indices outside the bucket range are dropped.
        const QJsonObject latency = o.value(QStringLiteral("latency_ms")).toObject();
        s.latency.negative = count(latency, QStringLiteral("negative"));
        s.latency.invalid = count(latency, QStringLiteral("invalid"));
        s.latency.sumUs = count(live, QStringLiteral("latency_sum_us"));
        s.latency.maxUs = count(live, QStringLiteral("latency_max_us"));
        readBuckets(live.value(QStringLiteral("latency_buckets")).toArray(), s.latency);
        s.clock = clockFrom(o);
        // The corrected histogram (docs/clock.md), for View → Corrected latency.
        const QJsonObject corrected = o.value(QStringLiteral("latency_corrected_ms")).toObject();
        s.latencyCorrected.negative = count(corrected, QStringLiteral("negative"));
        s.latencyCorrected.invalid = count(corrected, QStringLiteral("invalid"));
        s.latencyCorrected.sumUs = count(live, QStringLiteral("latency_corrected_sum_us"));
        s.latencyCorrected.maxUs = count(live, QStringLiteral("latency_corrected_max_us"));
        readBuckets(live.value(QStringLiteral("latency_corrected_buckets")).toArray(), s.latencyCorrected);
        out->append(s);
    }
    return true;
}

StreamId RemoteAgent::idFor(const QString &name)
{
    const auto it = m_ids.constFind(name);
    if (it != m_ids.cend())
        return *it;
    // Never reused: a restarted agent's streams are new rows, not old rows whose counters fell.
    if (m_nextOffset >= kIdsPerAgent)
        return kInvalidStreamId;
    const StreamId id = m_idBase + m_nextOffset++;
    m_ids.insert(name, id);
    return id;
}

void RemoteAgent::setStatus(const QString &status, bool connected)
{
    if (status == m_status && connected == m_connected)
        return;
    m_status = status;
    m_connected = connected;
    emit statusChanged(m_settings.name, status, connected);
}

} // namespace streamscope::ui
