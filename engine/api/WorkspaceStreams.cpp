// The workspace's streams: reading one (with its notify destinations) and writing one.

#include "Workspace.h"

#include "VenueCatalog.h"
#include "WorkspaceReader.h"
#include "model/ChannelSubscription.h"
#include "model/RedactedUrl.h"
#include "model/UrlSecrets.h"
#include "platform/SecretStore.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>

namespace streamscope {

namespace workspace_detail {

namespace {

// "\"binance\", \"betfair\" or \"generic\"": the registry's venues, for error messages.
QString knownVenues()
{
    QStringList names;
    for (const Venue v : VenueCatalog::venues())
        names << QLatin1Char('"') + venueName(v) + QLatin1Char('"');
    const QString last = names.takeLast();
    return names.isEmpty() ? last : names.join(QStringLiteral(", ")) + QStringLiteral(" or ") + last;
}

constexpr qint64 kMaxMs = 24LL * 3600 * 1000;

// RFC 9110's token, what a header name is made of. The handshake writes "name: value" lines as
// given, so a name with ':' or a value with a line break would write other headers.
bool isHeaderName(const QString &name)
{
    static const QString kSymbols = QStringLiteral("!#$%&'*+-.^_`|~");
    return !name.isEmpty() && std::all_of(name.begin(), name.end(), [](QChar c) {
        return c.unicode() < 0x80 && (c.isLetterOrNumber() || kSymbols.contains(c));
    });
}

// A "headers" key of `r` that is not a header name: the error, naming it.
bool checkHeaderName(ObjectReader &r, const QString &name)
{
    if (isHeaderName(name))
        return true;
    return r.error(
        QStringLiteral("headers"),
        QStringLiteral("expected header names of letters, digits and !#$%&'*+-.^_`|~, found \"%1\"").arg(name));
}

bool hasLineBreak(const QString &value)
{
    return value.contains(QLatin1Char('\r')) || value.contains(QLatin1Char('\n')) || value.contains(QChar(0));
}

// The one message for a literal where a secret belongs (auth, credential headers).
QString referenceExpected()
{
    return QStringLiteral("expected a reference such as \"env:NAME\" or \"keychain:NAME\"; "
                          "secrets are never stored in a workspace");
}

// Where the URL written as `text` carries a literal secret: read strictly, as the stream will
// use it, and tolerantly, as a user's invalid URL is quoted, so that neither kind of error
// message repeats a secret.
UrlSecret urlSecretIn(const QString &text)
{
    const UrlSecret strict = findUrlSecret(QUrl(text, QUrl::StrictMode));
    return strict.found() ? strict : findUrlSecret(QUrl(text, QUrl::TolerantMode));
}

// A stream's URL with a literal secret is refused, naming the part and not the secret: a
// workspace holds references (env:NAME, keychain:NAME), never secrets.
bool refuseUrlSecret(ObjectReader &r, const QString &key, const QString &text)
{
    const UrlSecret secret = urlSecretIn(text);
    if (secret.part == UrlSecret::Part::Password)
        return r.error(key,
                       QStringLiteral("expected a URL without a password; secrets are never stored in a "
                                      "workspace, send it in a header whose value is a reference such as "
                                      "\"env:NAME\" or \"keychain:NAME\""));
    if (secret.found())
        return r.error(key,
                       QStringLiteral("expected %1 as a reference such as \"env:NAME\" or \"keychain:NAME\"; "
                                      "secrets are never stored in a workspace")
                           .arg(secret.describe()));
    return true;
}

} // namespace

// One "notify" array (docs/alerts.md): destinations of alert notifications.
bool readNotify(const QJsonArray &array, const QString &path, Workspace::LoadResult &result, const QString &file,
                QList<NotifyTarget> &out)
{
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString where = QStringLiteral("%1[%2]").arg(path).arg(i);
        if (!array.at(i).isObject()) {
            result.error = QStringLiteral("%1: %2: expected an object, found %3")
                               .arg(file, where, ObjectReader::typeName(array.at(i)));
            return false;
        }
        ObjectReader r(array.at(i).toObject(), where, result, file);
        NotifyTarget t;
        if (auto v = r.string(QStringLiteral("type"), true)) {
            t.type = NotifyTarget::typeFromName(*v);
            if (t.type == NotifyTarget::Type::Unknown)
                return r.error(QStringLiteral("type"),
                               QStringLiteral("expected \"webhook\", \"slack\" or \"telegram\", found \"%1\"").arg(*v));
        }
        if (!r.ok())
            return false;
        const bool telegram = t.type == NotifyTarget::Type::Telegram;
        if (auto v = r.string(QStringLiteral("url"), !telegram)) {
            if (t.type == NotifyTarget::Type::Slack && !SecretStore::isReference(*v))
                return r.error(QStringLiteral("url"),
                               QStringLiteral("expected a reference such as \"env:SLACK_WEBHOOK_URL\": a Slack "
                                              "webhook URL is itself the secret, and secrets are never stored in a "
                                              "workspace"));
            if (!SecretStore::isReference(*v)) {
                const QUrl url(*v, QUrl::StrictMode);
                const UrlSecret secret = urlSecretIn(*v);
                if (secret.part == UrlSecret::Part::Password)
                    return r.error(QStringLiteral("url"),
                                   QStringLiteral("expected a URL without a password; put the whole URL in a "
                                                  "reference such as \"env:NAME\""));
                if (secret.found())
                    return r.error(QStringLiteral("url"),
                                   QStringLiteral("expected %1 as a reference such as \"env:NAME\"; secrets are "
                                                  "never stored in a workspace")
                                       .arg(secret.describe()));
                if (!url.isValid() || url.host().isEmpty()
                    || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")))
                    return r.error(
                        QStringLiteral("url"),
                        QStringLiteral("expected an http or https URL such as https://host/path, found '%1'").arg(*v));
            }
            t.url = *v;
        }
        if (auto v = r.string(QStringLiteral("token"), telegram)) {
            if (!telegram)
                return r.error(QStringLiteral("token"), QStringLiteral("expected only in a telegram destination"));
            if (!SecretStore::isReference(*v))
                return r.error(QStringLiteral("token"), referenceExpected());
            t.token = *v;
        }
        if (r.has(QStringLiteral("chat_id"))) {
            const QJsonValue v = array.at(i).toObject().value(QStringLiteral("chat_id"));
            if (!telegram)
                return r.error(QStringLiteral("chat_id"), QStringLiteral("expected only in a telegram destination"));
            if (v.isString() && !v.toString().trimmed().isEmpty() && !hasLineBreak(v.toString()))
                t.chatId = v.toString();
            else if (v.isDouble() && v.toDouble() == std::trunc(v.toDouble()) && std::abs(v.toDouble()) < 1e15)
                t.chatId = QString::number(qint64(v.toDouble()));
            else
                return r.error(QStringLiteral("chat_id"),
                               QStringLiteral("expected a chat id: an integer or a string such as \"@channel\""));
        } else if (telegram) {
            return r.error(QStringLiteral("chat_id"), QStringLiteral("missing, expected a chat id"));
        }
        if (auto v = r.object(QStringLiteral("headers"))) {
            if (t.type != NotifyTarget::Type::Webhook)
                return r.error(QStringLiteral("headers"), QStringLiteral("expected only in a webhook destination"));
            for (auto it = v->begin(); it != v->end(); ++it) {
                if (!checkHeaderName(r, it.key()))
                    return false;
                if (!it.value().isString() || hasLineBreak(it.value().toString()))
                    return r.error(QStringLiteral("headers.") + it.key(),
                                   QStringLiteral("expected a string on one line"));
                if (Workspace::isLiteralCredential(it.key(), it.value().toString()))
                    return r.error(QStringLiteral("headers.") + it.key(), referenceExpected());
                t.headers.append({it.key(), it.value().toString()});
            }
        }
        if (auto v = r.integer(QStringLiteral("max_per_minute"), 1, 600))
            t.maxPerMinute = int(*v);
        if (!r.ok())
            return false;
        r.warnUnknownKeys();
        out.append(t);
    }
    return true;
}

bool readStream(const QJsonObject &json, const QString &path, Workspace::LoadResult &result, const QString &file,
                StreamConfig &c)
{
    ObjectReader r(json, path, result, file);
    if (auto v = r.string(QStringLiteral("name"), true)) {
        if (v->trimmed().isEmpty())
            return r.error(QStringLiteral("name"), QStringLiteral("expected a non-empty name"));
        c.name = *v;
    }
    if (auto v = r.string(QStringLiteral("url"), true)) {
        c.url = QUrl(*v, QUrl::StrictMode);
        // Checked first, so that no later message repeats the URL with its secret.
        if (!refuseUrlSecret(r, QStringLiteral("url"), *v))
            return false;
        const QString scheme = c.url.scheme();
        if (!c.url.isValid() || c.url.host().isEmpty())
            return r.error(QStringLiteral("url"),
                           QStringLiteral("expected a URL such as wss://host:port/path, found '%1'").arg(*v));
        if (scheme != QLatin1String("ws") && scheme != QLatin1String("wss") && scheme != QLatin1String("tcp")
            && scheme != QLatin1String("tls"))
            return r.error(QStringLiteral("url"),
                           QStringLiteral("expected a ws, wss, tcp or tls URL, found scheme '%1'").arg(scheme));
        if ((scheme == QLatin1String("tcp") || scheme == QLatin1String("tls")) && c.url.port() < 0)
            return r.error(QStringLiteral("url"), QStringLiteral("expected a port in a %1 URL").arg(scheme));
    }
    if (auto v = r.string(QStringLiteral("venue"))) {
        c.venue = venueFromName(*v);
        if (!VenueCatalog::isKnown(c.venue))
            return r.error(QStringLiteral("venue"), QStringLiteral("expected %1, found \"%2\"").arg(knownVenues(), *v));
    }
    if (auto v = r.stringList(QStringLiteral("subscribe")))
        c.subscribe = *v;
    if (auto v = r.stringList(QStringLiteral("send_on_connect")))
        c.sendOnConnect = *v;
    if (auto v = r.string(QStringLiteral("mode"))) {
        c.mode = modeFromName(*v);
        if (c.mode == DecodeMode::Unknown)
            return r.error(QStringLiteral("mode"),
                           QStringLiteral("expected \"parsed\" or \"raw\", found \"%1\"").arg(*v));
    }
    if (auto v = r.string(QStringLiteral("transport"))) {
        c.transport = webSocketClientFromName(*v);
        if (c.transport == WebSocketClient::Unknown)
            return r.error(QStringLiteral("transport"),
                           QStringLiteral("expected \"qt\" or \"native\", found \"%1\"").arg(*v));
    }
    if (auto v = r.string(QStringLiteral("latency_field"))) {
        if (!v->isEmpty() && !v->startsWith(QLatin1Char('/')))
            return r.error(QStringLiteral("latency_field"),
                           QStringLiteral("expected a JSON pointer starting with '/', found \"%1\"").arg(*v));
        // The decoder compares keys as written in the message, escapes and all (MessageDecoder.h).
        if (v->contains(QLatin1Char('"')) || v->contains(QLatin1Char('\\')))
            return r.error(QStringLiteral("latency_field"),
                           QStringLiteral("expected a JSON pointer without '\"' or '\\' in its keys"));
        c.latencyField = *v;
    }
    if (auto v = r.string(QStringLiteral("latency_unit"))) {
        c.latencyUnit = latencyUnitFromName(*v);
        if (c.latencyUnit == LatencyUnit::Unknown)
            return r.error(QStringLiteral("latency_unit"),
                           QStringLiteral("expected \"s\", \"ms\", \"us\" or \"ns\", found \"%1\"").arg(*v));
    }
    if (auto v = r.integer(QStringLiteral("stall_timeout_ms"), 100, kMaxMs))
        c.stallTimeoutMs = int(*v);
    if (auto v = r.boolean(QStringLiteral("reconnect_on_stall")))
        c.reconnectOnStall = *v;
    if (auto v = r.integer(QStringLiteral("reconnect_base_ms"), 1, kMaxMs))
        c.reconnectBaseMs = int(*v);
    if (auto v = r.integer(QStringLiteral("reconnect_max_ms"), 1, kMaxMs))
        c.reconnectMaxMs = int(*v);
    if (auto v = r.integer(QStringLiteral("ping_interval_ms"), 0, kMaxMs))
        c.pingIntervalMs = int(*v);
    if (auto v = r.integer(QStringLiteral("pong_timeout_ms"), 0, kMaxMs))
        c.pongTimeoutMs = int(*v);
    if (auto v = r.integer(QStringLiteral("connect_timeout_ms"), 100, kMaxMs))
        c.connectTimeoutMs = int(*v);
    if (auto v = r.integer(QStringLiteral("max_message_bytes"), 1024, 1LL << 30))
        c.maxMessageBytes = *v;
    if (auto v = r.integer(QStringLiteral("inspector_capacity"), 1, 1000000))
        c.inspectorCapacity = int(*v);
    if (auto v = r.integer(QStringLiteral("heartbeat_ms"), 500, 30000))
        c.heartbeatMs = int(*v);
    // Venue keys (docs/venues.md).
    if (auto v = r.integer(QStringLiteral("max_connection_age_ms"), 0, 7LL * 24 * 3600 * 1000))
        c.maxConnectionAgeMs = *v;
    if (auto v = r.integer(QStringLiteral("rollover_overlap_max_ms"), 100, kMaxMs))
        c.rolloverOverlapMaxMs = int(*v);
    if (auto v = r.integer(QStringLiteral("max_streams_per_connection"), 1, 1024))
        c.maxStreamsPerConnection = int(*v);
    if (auto v = r.boolean(QStringLiteral("futures")))
        c.futures = *v;
    if (auto v = r.object(QStringLiteral("headers"))) {
        for (auto it = v->begin(); it != v->end(); ++it) {
            // The name first: every later message puts it in the key's path.
            if (!checkHeaderName(r, it.key()))
                return false;
            if (!it.value().isString())
                return r.error(QStringLiteral("headers.") + it.key(),
                               QStringLiteral("expected a string, found %1").arg(ObjectReader::typeName(it.value())));
            const QString value = it.value().toString();
            if (hasLineBreak(value))
                return r.error(QStringLiteral("headers.") + it.key(),
                               QStringLiteral("expected a value on one line, without CR, LF or NUL"));
            if (Workspace::isLiteralCredential(it.key(), value))
                return r.error(QStringLiteral("headers.") + it.key(), referenceExpected());
            c.headers.append({it.key(), value});
        }
    }
    if (auto v = r.object(QStringLiteral("auth"))) {
        ObjectReader auth(*v, r.keyPath(QStringLiteral("auth")), result, file);
        for (const auto &[key, target] :
             {std::pair{QStringLiteral("app_key"), &c.appKey}, std::pair{QStringLiteral("session"), &c.session}}) {
            if (auto s = auth.string(key)) {
                if (!SecretStore::isReference(*s))
                    return auth.error(key, referenceExpected());
                *target = *s;
            }
        }
        if (!auth.ok())
            return false;
        auth.warnUnknownKeys();
    }
    if (auto v = r.string(QStringLiteral("server_time_url"))) {
        if (!refuseUrlSecret(r, QStringLiteral("server_time_url"), *v))
            return false;
        const QUrl u(*v, QUrl::StrictMode);
        if (!u.isValid() || (u.scheme() != QLatin1String("http") && u.scheme() != QLatin1String("https"))
            || u.host().isEmpty())
            return r.error(QStringLiteral("server_time_url"),
                           QStringLiteral("expected an http or https URL, found \"%1\"").arg(*v));
        c.serverTimeUrl = u;
    }
    // Betfair's session keep-alive (docs/venues.md): called with the stream's app key and
    // session, so the stream must have them.
    if (auto v = r.string(QStringLiteral("keep_alive_url"))) {
        if (!refuseUrlSecret(r, QStringLiteral("keep_alive_url"), *v))
            return false;
        const QUrl u(*v, QUrl::StrictMode);
        if (!u.isValid() || (u.scheme() != QLatin1String("http") && u.scheme() != QLatin1String("https"))
            || u.host().isEmpty())
            return r.error(QStringLiteral("keep_alive_url"),
                           QStringLiteral("expected an http or https URL such as "
                                          "https://identitysso.betfair.com/api/keepAlive, found \"%1\"")
                               .arg(*v));
        if (c.appKey.isEmpty() || c.session.isEmpty())
            return r.error(QStringLiteral("keep_alive_url"),
                           QStringLiteral("expected with \"auth\": {\"app_key\": .., \"session\": ..}, which the "
                                          "keep-alive sends"));
        c.keepAliveUrl = u;
    }
    if (auto v = r.integer(QStringLiteral("keep_alive_s"), 1, 86400)) {
        if (c.keepAliveUrl.isEmpty())
            return r.error(QStringLiteral("keep_alive_s"), QStringLiteral("expected only with keep_alive_url"));
        c.keepAliveS = int(*v);
    }
    // Order books (docs/books.md).
    if (auto v = r.string(QStringLiteral("rest_url"))) {
        if (!refuseUrlSecret(r, QStringLiteral("rest_url"), *v))
            return false;
        const QUrl u(*v, QUrl::StrictMode);
        if (!u.isValid() || (u.scheme() != QLatin1String("http") && u.scheme() != QLatin1String("https"))
            || u.host().isEmpty() || u.hasQuery() || u.hasFragment())
            return r.error(QStringLiteral("rest_url"),
                           QStringLiteral("expected an http or https URL without a query, found \"%1\"").arg(*v));
        c.restUrl = u;
    }
    if (auto v = r.boolean(QStringLiteral("book")))
        c.book = *v;
    if (auto v = r.integer(QStringLiteral("book_audit_s"), 0, 86400))
        c.bookAuditS = int(*v);
    if (auto v = r.object(QStringLiteral("market_subscription")))
        c.marketSubscription = *v;
    if (auto v = r.object(QStringLiteral("order_subscription")))
        c.orderSubscription = *v;
    if (!readTls(r, file, c.caFile))
        return false;
    if (auto v = r.object(QStringLiteral("record"))) {
        if (!readRecord(*v, r.keyPath(QStringLiteral("record")), result, file, c.record))
            return false;
    }
    if (auto v = r.array(QStringLiteral("notify"));
        v && !readNotify(*v, r.keyPath(QStringLiteral("notify")), result, file, c.notify))
        return false;
    if (!r.ok())
        return false;
    if (VenueCatalog::isLineProtocol(c.venue) && !c.isLineProtocol())
        return r.error(QStringLiteral("url"),
                       QStringLiteral("expected a tcp or tls URL for a %1 stream").arg(VenueCatalog::title(c.venue)));
    if (VenueCatalog::channelSubscriptions(c.venue)) {
        // One shape for the venues that subscribe by channel and instrument (docs/workspace.md).
        for (qsizetype i = 0; i < c.subscribe.size(); ++i) {
            if (!ChannelSubscription::parse(c.subscribe.at(i)))
                return r.error(QStringLiteral("subscribe[%1]").arg(i),
                               QStringLiteral("expected \"channel:instrument\" such as \"books:BTC-USDT\", found "
                                              "\"%1\" (%2 subscribes by channel and instrument)")
                                   .arg(c.subscribe.at(i), VenueCatalog::title(c.venue)));
        }
    }
    if (c.reconnectMaxMs < c.reconnectBaseMs)
        return r.error(QStringLiteral("reconnect_max_ms"),
                       QStringLiteral("expected at least reconnect_base_ms (%1)").arg(c.reconnectBaseMs));
    r.warnUnknownKeys();
    return true;
}

} // namespace workspace_detail

bool Workspace::sameStream(const StreamConfig &a, const StreamConfig &b)
{
    // The saved form covers every key a workspace can set (and the keys added later, as they
    // are added to it); the URL and headers are compared whole because it redacts them.
    return a.url == b.url && a.headers == b.headers && streamToJson(a) == streamToJson(b);
}

QJsonObject Workspace::streamToJson(const StreamConfig &c)
{
    const StreamConfig d; // defaults are not written, to keep files short
    QJsonObject o{{QStringLiteral("name"), c.name},
                  {QStringLiteral("venue"), venueName(c.venue)},
                  {QStringLiteral("url"), RedactedUrl::of(c.url).toString()}};
    if (!c.subscribe.isEmpty())
        o.insert(QStringLiteral("subscribe"), QJsonArray::fromStringList(c.subscribe));
    if (!c.sendOnConnect.isEmpty())
        o.insert(QStringLiteral("send_on_connect"), QJsonArray::fromStringList(c.sendOnConnect));
    if (!c.headers.isEmpty()) {
        QJsonObject h;
        for (const auto &[k, v] : c.headers) {
            if (isLiteralCredential(k, v))
                continue; // a literal credential is never written; loading would refuse it
            h.insert(k, v);
        }
        o.insert(QStringLiteral("headers"), h);
    }
    o.insert(QStringLiteral("mode"), modeName(c.mode));
    if (c.transport != d.transport)
        o.insert(QStringLiteral("transport"), webSocketClientName(c.transport));
    if (!c.latencyField.isEmpty()) {
        o.insert(QStringLiteral("latency_field"), c.latencyField);
        o.insert(QStringLiteral("latency_unit"), latencyUnitName(c.latencyUnit));
    }
    const auto putInt = [&](const char *key, qint64 value, qint64 def) {
        if (value != def)
            o.insert(QLatin1String(key), value);
    };
    putInt("stall_timeout_ms", c.stallTimeoutMs, d.stallTimeoutMs);
    if (c.reconnectOnStall)
        o.insert(QStringLiteral("reconnect_on_stall"), true);
    putInt("reconnect_base_ms", c.reconnectBaseMs, d.reconnectBaseMs);
    putInt("reconnect_max_ms", c.reconnectMaxMs, d.reconnectMaxMs);
    putInt("ping_interval_ms", c.pingIntervalMs, d.pingIntervalMs);
    putInt("pong_timeout_ms", c.pongTimeoutMs, d.pongTimeoutMs);
    putInt("connect_timeout_ms", c.connectTimeoutMs, d.connectTimeoutMs);
    putInt("max_message_bytes", c.maxMessageBytes, d.maxMessageBytes);
    putInt("inspector_capacity", c.inspectorCapacity, d.inspectorCapacity);
    putInt("max_connection_age_ms", c.maxConnectionAgeMs, d.maxConnectionAgeMs);
    putInt("rollover_overlap_max_ms", c.rolloverOverlapMaxMs, d.rolloverOverlapMaxMs);
    putInt("max_streams_per_connection", c.maxStreamsPerConnection, d.maxStreamsPerConnection);
    if (c.futures)
        o.insert(QStringLiteral("futures"), true);
    // Betfair's keys, written for any venue that has them set (the reader takes them from any).
    putInt("heartbeat_ms", c.heartbeatMs, d.heartbeatMs);
    QJsonObject auth;
    if (!c.appKey.isEmpty())
        auth.insert(QStringLiteral("app_key"), c.appKey);
    if (!c.session.isEmpty())
        auth.insert(QStringLiteral("session"), c.session);
    if (!auth.isEmpty())
        o.insert(QStringLiteral("auth"), auth);
    if (!c.marketSubscription.isEmpty())
        o.insert(QStringLiteral("market_subscription"), c.marketSubscription);
    if (!c.orderSubscription.isEmpty())
        o.insert(QStringLiteral("order_subscription"), c.orderSubscription);
    if (!c.caFile.isEmpty())
        o.insert(QStringLiteral("tls"), QJsonObject{{QStringLiteral("ca_file"), c.caFile}});
    if (!c.notify.isEmpty()) {
        QJsonArray notify;
        for (const NotifyTarget &t : c.notify)
            notify.append(t.toJson());
        o.insert(QStringLiteral("notify"), notify);
    }
    if (!c.serverTimeUrl.isEmpty())
        o.insert(QStringLiteral("server_time_url"), c.serverTimeUrl.toString());
    if (!c.keepAliveUrl.isEmpty())
        o.insert(QStringLiteral("keep_alive_url"), c.keepAliveUrl.toString());
    putInt("keep_alive_s", c.keepAliveS, d.keepAliveS);
    if (!c.restUrl.isEmpty())
        o.insert(QStringLiteral("rest_url"), c.restUrl.toString());
    if (!c.book)
        o.insert(QStringLiteral("book"), false);
    putInt("book_audit_s", c.bookAuditS, d.bookAuditS);
    if (const QJsonObject record = workspace_detail::recordToJson(c.record, RecordConfig{}); !record.isEmpty())
        o.insert(QStringLiteral("record"), record);
    return o;
}

} // namespace streamscope
