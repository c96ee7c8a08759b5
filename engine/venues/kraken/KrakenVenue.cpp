#include "KrakenVenue.h"

#include "KrakenBookRules.h"
#include "venues/RestHosts.h"
#include "venues/VenueHost.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

namespace streamscope::kraken {

namespace {

constexpr RestHost kRestHosts[] = {
    {"ws.kraken.com", "api.kraken.com"},
    {"ws-auth.kraken.com", "api.kraken.com"},
};

// {"error":[],"result":{"unixtime":1688669448,"rfc1123":"Thu, 06 Jul 23 18:50:48 +0000"}}:
// whole seconds, a number; an answer with errors is none.
std::optional<ServerTimeReading> readServerTime(const QByteArray &body)
{
    const QJsonObject o = QJsonDocument::fromJson(body).object();
    if (!o.value(QLatin1String("error")).toArray().isEmpty())
        return std::nullopt;
    const QJsonValue unixtime = o.value(QLatin1String("result")).toObject().value(QLatin1String("unixtime"));
    return servertime::read(unixtime, LatencyUnit::Seconds, servertime::Written::Number);
}

} // namespace

QUrl KrakenVenue::serverTimeUrl() const
{
    return restUrl(restBase(m_config, kRestHosts), QStringLiteral("/0/public/Time"));
}

ServerTimeReader KrakenVenue::serverTimeReader() const
{
    return &readServerTime;
}

const book::BookRules *KrakenVenue::bookRules() const
{
    return &KrakenBookRules::instance();
}

bool KrakenVenue::request(int link, Op op, const std::vector<ChannelSubscription> &pairs)
{
    // One request a channel, with its symbols, in the order the channels come.
    const QString name = opName(op);
    for (const auto &[channel, symbols] : byChannel(pairs)) {
        const QJsonObject params{{QStringLiteral("channel"), channel},
                                 {QStringLiteral("symbol"), QJsonArray::fromStringList(symbols)}};
        const QJsonObject message{{QStringLiteral("method"), name}, {QStringLiteral("params"), params}};
        m_host.sendOn(link, QString::fromUtf8(QJsonDocument(message).toJson(QJsonDocument::Compact)), name, QString());
    }
    return !pairs.empty();
}

void KrakenVenue::onConnectionMessage(int link, const char *data, qsizetype len)
{
    Q_UNUSED(link);
    // {"channel":"status","type":"update","data":[{"system":"online",..}]}: anything but online
    // (maintenance, cancel_only, post_only) is a notice.
    const QJsonObject o = QJsonDocument::fromJson(QByteArray(data, len)).object();
    const QJsonObject status = o.value(QStringLiteral("data")).toArray().at(0).toObject();
    const QString system = status.value(QStringLiteral("system")).toString();
    if (system.isEmpty() || system == QLatin1String("online"))
        return;
    noteVenueNotice("Kraken", QStringLiteral("system ") + system);
}

void KrakenVenue::onResponse(int link, bool isError, const ResponseRecord &record)
{
    Q_UNUSED(link);
    if (!isError) {
        noteBookDepth(record);
        return;
    }
    // {"error":"..","method":"subscribe","success":false,"symbol":"..",..}: no code; the
    // refused method, and the symbol when it names one.
    const QJsonObject o = QJsonDocument::fromJson(record.body).object();
    const QString symbol = o.value(QStringLiteral("symbol")).toString();
    const QString error = o.value(QStringLiteral("error")).toString();
    noteVenueError(o.value(QStringLiteral("method")).toString(),
                   symbol.isEmpty() ? error : error + QStringLiteral(" (") + symbol + QLatin1Char(')'));
}

// {"method":"subscribe","result":{"channel":"book","depth":10,"snapshot":true,"symbol":"BTC/USD"},
// "success":true,..}: the depth Kraken keeps that book at, one it offers (KrakenBookRules::kDepths).
void KrakenVenue::noteBookDepth(const ResponseRecord &record)
{
    const QJsonObject o = QJsonDocument::fromJson(record.body).object();
    const QJsonObject result = o.value(QStringLiteral("result")).toObject();
    if (o.value(QStringLiteral("method")).toString() != QLatin1String("subscribe")
        || result.value(QStringLiteral("channel")).toString() != QLatin1String("book"))
        return;
    const int depth = result.value(QStringLiteral("depth")).toInt();
    const QString symbol = result.value(QStringLiteral("symbol")).toString();
    for (const std::size_t offered : KrakenBookRules::kDepths) {
        if (std::size_t(depth) == offered && depth > 0 && !symbol.isEmpty()) {
            m_host.bookDepth(symbol, depth);
            return;
        }
    }
}

} // namespace streamscope::kraken
