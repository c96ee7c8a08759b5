#include "Notifier.h"

#include "PeerText.h"
#include "RedactedUrl.h"
#include "SecretStore.h"
#include "ValueFormat.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QSysInfo>
#include <QtCore/QTimer>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>
#include <QtNetwork/QNetworkRequest>

#include <algorithm>
#include <chrono>

namespace streamscope::alerts {

namespace {

qint64 steadyMs()
{
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

const QString kRedacted = QStringLiteral("<redacted>");

} // namespace

QString AlertEvent::kindName(Kind kind)
{
    switch (kind) {
    case Kind::Raised: return QStringLiteral("raised");
    case Kind::Cleared: return QStringLiteral("cleared");
    case Kind::Test: return QStringLiteral("test");
    case Kind::Suppressed: return QStringLiteral("suppressed");
    case Kind::Unknown: break;
    }
    return QStringLiteral("unknown");
}

Notifier::Notifier(QObject *parent)
    : Notifier(Timing{}, parent)
{
}

Notifier::Notifier(const Timing &timing, QObject *parent)
    : QObject(parent)
    , m_timing(timing)
    , m_network(new QNetworkAccessManager(this))
    , m_host(QSysInfo::machineHostName())
{
}

Notifier::~Notifier() = default;

void Notifier::setDestinations(const QList<NotifyTarget> &all, const QList<QPair<QString, NotifyTarget>> &perStream)
{
    QVector<Destination> next;
    const auto add = [&next](const NotifyTarget &t, const QString &stream) {
        Destination d;
        d.target = t;
        d.stream = stream;
        next.append(d);
    };
    for (const NotifyTarget &t : all)
        add(t, QString());
    for (const auto &[stream, t] : perStream)
        add(t, stream);
    bool same = next.size() == m_destinations.size();
    for (qsizetype i = 0; same && i < next.size(); ++i)
        same = next[i].target == m_destinations[i].target && next[i].stream == m_destinations[i].stream;
    if (same)
        return;
    for (Destination &d : m_destinations)
        delete d.summaryTimer;
    m_destinations = std::move(next);
    ++m_generation;
    for (int i = 0; i < m_destinations.size(); ++i) {
        auto *timer = new QTimer(this);
        timer->setSingleShot(true);
        connect(timer, &QTimer::timeout, this, [this, i] { sendSummary(i); });
        m_destinations[i].summaryTimer = timer;
    }
}

QString Notifier::label(int index) const
{
    return QStringLiteral("%1-%2").arg(NotifyTarget::typeName(m_destinations[index].target.type)).arg(index);
}

QString Notifier::describe(int index) const
{
    return describe(m_destinations[index].target, label(index));
}

QString Notifier::describe(const NotifyTarget &target, const QString &label)
{
    // A reference names a secret without holding it; a literal URL is shown without its password
    // and literal credentials (the workspace refuses those anyway).
    const QString url = target.apiUrlOrDefault();
    const QString where = SecretStore::isReference(url) ? url : RedactedUrl::of(QUrl(url)).toString();
    if (target.type == NotifyTarget::Type::Telegram)
        return QStringLiteral("%1 (%2, chat %3)").arg(label, where, target.chatId);
    return QStringLiteral("%1 (%2)").arg(label, where);
}

QByteArray Notifier::webhookBody(const AlertEvent &e, const QString &host)
{
    QJsonObject o{{QStringLiteral("version"), 1},
                  {QStringLiteral("event"), AlertEvent::kindName(e.kind)},
                  {QStringLiteral("stream"), e.stream},
                  {QStringLiteral("condition"), e.condition},
                  {QStringLiteral("text"), e.text},
                  {QStringLiteral("time"), formatIsoUtcMs(e.timeMs)},
                  {QStringLiteral("host"), host},
                  {QStringLiteral("since"), e.sinceMs > 0 ? QJsonValue(formatIsoUtcMs(e.sinceMs)) : QJsonValue()}};
    if (e.kind == AlertEvent::Kind::Suppressed)
        o.insert(QStringLiteral("suppressed"), qint64(e.suppressed));
    if (!e.flightFile.isEmpty())
        o.insert(QStringLiteral("flight_recorder_file"), e.flightFile);
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

QString Notifier::messageText(const AlertEvent &e, const QString &host)
{
    const QString who = QStringLiteral("[StreamScope %1]").arg(host);
    switch (e.kind) {
    case AlertEvent::Kind::Raised:
        return QStringLiteral("%1 ALERT %2: %3 (since %4)").arg(who, e.stream, e.text, formatIsoUtcMs(e.sinceMs))
            + (e.flightFile.isEmpty() ? QString() : QStringLiteral("; flight recorder saving to %1").arg(e.flightFile));
    case AlertEvent::Kind::Cleared:
        return QStringLiteral("%1 RECOVERED %2: %3 (began %4)").arg(who, e.stream, e.text, formatIsoUtcMs(e.sinceMs));
    case AlertEvent::Kind::Test:
    case AlertEvent::Kind::Suppressed:
    case AlertEvent::Kind::Unknown: break;
    }
    return QStringLiteral("%1 %2").arg(who, e.text);
}

void Notifier::notify(const AlertEvent &event)
{
    for (int i = 0; i < m_destinations.size(); ++i) {
        const Destination &d = m_destinations[i];
        if (!d.stream.isEmpty() && d.stream != event.stream)
            continue;
        if (!admit(i))
            continue;
        send(makeDelivery(i, d.target, event, false));
    }
}

void Notifier::sendTest(int index)
{
    if (index < 0 || index >= m_destinations.size())
        return;
    sendTest(m_destinations[index].target, index);
}

void Notifier::sendTest(const NotifyTarget &target, int index)
{
    AlertEvent e;
    e.kind = AlertEvent::Kind::Test;
    e.condition = QStringLiteral("test");
    e.text = tr("test notification: this destination works");
    e.timeMs = QDateTime::currentMSecsSinceEpoch();
    send(makeDelivery(index, target, e, true));
}

Notifier::Delivery Notifier::makeDelivery(int index, const NotifyTarget &target, const AlertEvent &event,
                                          bool test) const
{
    Delivery d;
    d.index = index;
    d.target = target;
    d.event = event;
    d.test = test;
    d.generation = m_generation;
    return d;
}

bool Notifier::admit(int index)
{
    Destination &d = m_destinations[index];
    const qint64 now = steadyMs();
    while (!d.recentMs.empty() && now - d.recentMs.front() >= m_timing.rateWindowMs)
        d.recentMs.pop_front();
    if (int(d.recentMs.size()) < d.target.maxPerMinute) {
        d.recentMs.push_back(now);
        return true;
    }
    ++d.suppressed;
    ++d.unsummarised;
    if (!d.summaryTimer->isActive())
        d.summaryTimer->start(int(std::max<qint64>(1, d.recentMs.front() + m_timing.rateWindowMs - now)));
    return false;
}

void Notifier::sendSummary(int index)
{
    Destination &d = m_destinations[index];
    if (d.unsummarised == 0)
        return;
    const qint64 now = steadyMs();
    while (!d.recentMs.empty() && now - d.recentMs.front() >= m_timing.rateWindowMs)
        d.recentMs.pop_front();
    if (int(d.recentMs.size()) >= d.target.maxPerMinute) {
        d.summaryTimer->start(int(std::max<qint64>(1, d.recentMs.front() + m_timing.rateWindowMs - now)));
        return;
    }
    d.recentMs.push_back(now);
    AlertEvent e;
    e.kind = AlertEvent::Kind::Suppressed;
    e.condition = QStringLiteral("rate_cap");
    e.suppressed = d.unsummarised;
    e.text =
        tr("%n more alert message(s) held back by the rate cap (at most %1 a minute)", nullptr, int(d.unsummarised))
            .arg(d.target.maxPerMinute);
    e.timeMs = QDateTime::currentMSecsSinceEpoch();
    d.unsummarised = 0;
    send(makeDelivery(index, d.target, e, false));
}

void Notifier::send(Delivery delivery)
{
    const NotifyTarget &t = delivery.target;
    bool ok = true;
    const QString base = SecretStore::resolve(t.apiUrlOrDefault(), &ok);
    if (!ok) {
        fail(delivery, tr("%1 is not set, nothing sent").arg(t.apiUrlOrDefault()));
        return;
    }
    QString unresolved;
    QUrl url = SecretStore::resolveQuery(QUrl(base), &unresolved);
    QByteArray body;
    if (t.type == NotifyTarget::Type::Telegram) {
        const QString token = SecretStore::resolve(t.token, &ok);
        if (!ok || token.isEmpty()) {
            fail(delivery, tr("%1 is not set, nothing sent").arg(t.token));
            return;
        }
        QString path = url.path();
        if (path.endsWith(QLatin1Char('/')))
            path.chop(1);
        url.setPath(path + QStringLiteral("/bot") + token + QStringLiteral("/sendMessage"));
        body = QJsonDocument(QJsonObject{{QStringLiteral("chat_id"), t.chatId},
                                         {QStringLiteral("text"), messageText(delivery.event, m_host)}})
                   .toJson(QJsonDocument::Compact);
    } else if (t.type == NotifyTarget::Type::Slack) {
        body = QJsonDocument(QJsonObject{{QStringLiteral("text"), messageText(delivery.event, m_host)}})
                   .toJson(QJsonDocument::Compact);
    } else {
        body = webhookBody(delivery.event, m_host);
    }
    if (!unresolved.isEmpty()) {
        fail(delivery, tr("the URL's %1 is not set, nothing sent").arg(unresolved));
        return;
    }
    if (!url.isValid() || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https"))) {
        fail(delivery, tr("expected an http or https URL, nothing sent"));
        return;
    }
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    request.setHeader(QNetworkRequest::UserAgentHeader, QByteArrayLiteral("StreamScope/" STREAMSCOPE_VERSION));
    request.setTransferTimeout(m_timing.timeoutMs);
    for (const auto &[name, value] : t.headers) {
        const QString resolved = SecretStore::resolve(value, &ok);
        if (!ok) {
            fail(delivery, tr("header %1: %2 is not set, nothing sent").arg(name, value));
            return;
        }
        request.setRawHeader(name.toLatin1(), resolved.toUtf8());
    }
    ++delivery.tries;
    ++m_pending;
    QNetworkReply *reply = m_network->post(request, body);
    connect(reply, &QNetworkReply::finished, this, [this, reply, delivery] { onFinished(reply, delivery); });
}

void Notifier::onFinished(QNetworkReply *reply, Delivery delivery)
{
    reply->deleteLater();
    --m_pending;
    const bool current = delivery.test || delivery.generation == m_generation;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status >= 200 && status < 300) {
        if (delivery.test) {
            emit testFinished(delivery.index, true, tr("sent (HTTP %1)").arg(status));
        } else if (current) {
            ++m_destinations[delivery.index].sent;
            emit delivered(delivery.index, delivery.event);
        }
        return;
    }
    bool retry = false;
    int delayMs = m_timing.firstRetryMs << std::min(delivery.tries - 1, 10);
    QString why;
    if (status == 429) {
        retry = true;
        why = QStringLiteral("HTTP 429");
        bool ok = false;
        const int seconds = reply->rawHeader("Retry-After").trimmed().toInt(&ok);
        if (ok && seconds >= 0)
            delayMs = int(std::min<qint64>(qint64(seconds) * 1000, m_timing.maxRetryAfterMs));
    } else if (status >= 500) {
        retry = true;
        why = QStringLiteral("HTTP %1").arg(status);
    } else if (status > 0) {
        const QString reason = peerText(reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toByteArray(), 80);
        why = QStringLiteral("HTTP %1 %2").arg(status).arg(reason).trimmed();
    } else {
        retry = true;
        const auto error = reply->error();
        why = error == QNetworkReply::OperationCanceledError || error == QNetworkReply::TimeoutError
            ? tr("no answer within %1 s").arg(m_timing.timeoutMs / 1000.0)
            : redactSecrets(delivery.target, peerText(reply->errorString(), 200));
    }
    if (delivery.test) {
        emit testFinished(delivery.index, false, why);
        return;
    }
    if (!current)
        return;
    if (retry && delivery.tries < kMaxTries) {
        QTimer::singleShot(delayMs, this, [this, delivery] {
            if (delivery.generation == m_generation)
                send(delivery);
        });
        return;
    }
    fail(delivery,
         retry ? tr("%1, given up after %2 tries").arg(why).arg(delivery.tries) : tr("%1, not retried").arg(why));
}

void Notifier::fail(const Delivery &delivery, const QString &why)
{
    if (delivery.test) {
        emit testFinished(delivery.index, false, why);
        return;
    }
    if (delivery.generation != m_generation)
        return;
    ++m_destinations[delivery.index].failures;
    emit deliveryFailed(
        delivery.index,
        tr("%1: %2 not delivered: %3").arg(describe(delivery.index), AlertEvent::kindName(delivery.event.kind), why));
}

QString Notifier::redactSecrets(const NotifyTarget &target, QString text)
{
    // Network error strings quote the URL; the resolved URL, token and header values never appear.
    QStringList secrets;
    bool ok = true;
    const QString url = SecretStore::resolve(target.apiUrlOrDefault(), &ok);
    if (ok && !url.isEmpty() && SecretStore::isReference(target.apiUrlOrDefault())) {
        secrets << url << QUrl(url).toString() << QUrl(url).toString(QUrl::FullyEncoded);
    }
    if (!target.token.isEmpty()) {
        const QString token = SecretStore::resolve(target.token, &ok);
        if (ok && !token.isEmpty())
            secrets << token << QString::fromLatin1(QUrl::toPercentEncoding(token));
    }
    for (const auto &[name, value] : target.headers) {
        const QString resolved = SecretStore::resolve(value, &ok);
        if (ok && !resolved.isEmpty() && resolved != value)
            secrets << resolved;
    }
    if (const QString query = SecretStore::resolveQuery(QUrl(url)).toString(); query != QUrl(url).toString())
        secrets << query << SecretStore::resolveQuery(QUrl(url)).toString(QUrl::FullyEncoded);
    // Longest first, so that a URL is replaced whole before the token inside it.
    std::sort(secrets.begin(), secrets.end(), [](const QString &a, const QString &b) { return a.size() > b.size(); });
    for (const QString &s : std::as_const(secrets))
        if (!s.isEmpty())
            text.replace(s, kRedacted);
    // A literal URL is shown redacted too, should one with a secret have come (the workspace
    // loader and the dialog refuse them).
    if (const QString literal = target.apiUrlOrDefault(); !SecretStore::isReference(literal))
        text = RedactedUrl::replaceIn(text, QUrl(literal));
    return text;
}

QByteArray Notifier::renderMetrics(bool classic) const
{
    QByteArray out;
    const auto family = [&](const char *name, const char *help, quint64 Destination::*field) {
        const QByteArray full = QByteArrayLiteral("streamscope_notify_") + name;
        out += "# TYPE " + full + (classic ? "_total" : "") + " counter\n# HELP " + full + (classic ? "_total " : " ")
            + help + '\n';
        for (int i = 0; i < m_destinations.size(); ++i)
            out += full + "_total{destination=\"" + label(i).toUtf8() + "\"} "
                + QByteArray::number(m_destinations[i].*field) + '\n';
    };
    family("sent", "Alert notifications delivered (2xx), per destination (type-index in the workspace).",
           &Destination::sent);
    family("failures", "Alert notifications given up: a 4xx other than 429, or every try failed.",
           &Destination::failures);
    family("suppressed", "Alert notifications held back by the destination's rate cap (summarised instead).",
           &Destination::suppressed);
    return out;
}

} // namespace streamscope::alerts
