#include "BinanceVenue.h"

#include "BinanceBookRules.h"

#include "model/PeerText.h"
#include "stats/StreamShared.h"
#include "venues/VenueHost.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QUrlQuery>

namespace streamscope {

QUrl BinanceVenue::serverTimeUrl() const
{
    return binance::restUrl(binance::restBase(m_config),
                            isFutures(m_config) ? QStringLiteral("/fapi/v1/time") : QStringLiteral("/api/v3/time"));
}

const book::BookRules *BinanceVenue::bookRules() const
{
    if (!isFutures(m_config))
        return &binance::BinanceBookRules::spot(); // spot's partial depth events carry no "e"
    // USD-M futures' partial depth (<symbol>@depth5/10/20) sends "depthUpdate" events too, whose
    // ids skip: a stream that names one keeps no books rather than resync them all the time.
    QStringList names = m_config.subscribe;
    const QString path = m_config.url.path();
    if (path.startsWith(QLatin1String("/ws/")))
        names += path.mid(4).split(QLatin1Char('/'), Qt::SkipEmptyParts);
    names +=
        QUrlQuery(m_config.url).queryItemValue(QStringLiteral("streams")).split(QLatin1Char('/'), Qt::SkipEmptyParts);
    for (const QString &name : std::as_const(names)) {
        const qsizetype at = name.indexOf(QLatin1String("@depth"));
        if (at >= 0 && at + 6 < name.size() && name.at(at + 6).isDigit())
            return nullptr;
    }
    return &binance::BinanceBookRules::futures();
}

bool BinanceVenue::isFutures(const StreamConfig &config)
{
    return config.futures || config.url.host().startsWith(QLatin1String("fstream"));
}

int BinanceVenue::controlMessagesPerSecond() const
{
    return isFutures(m_config) ? kFuturesMessagesPerSecond : kSpotMessagesPerSecond;
}

qint64 BinanceVenue::maxConnectionAgeMs() const
{
    return m_config.maxConnectionAgeMs < 0 ? kDefaultMaxConnectionAgeMs : m_config.maxConnectionAgeMs;
}

// Streams named by a Binance URL itself (/ws/a/b or /stream?streams=a/b).
int BinanceVenue::streamsNamedInUrl(const QUrl &url) const
{
    const QString path = url.path();
    if (path.startsWith(QLatin1String("/ws/")))
        return int(path.mid(4).split(QLatin1Char('/'), Qt::SkipEmptyParts).size());
    return int(
        QUrlQuery(url).queryItemValue(QStringLiteral("streams")).split(QLatin1Char('/'), Qt::SkipEmptyParts).size());
}

QUrl BinanceVenue::shardUrl(const QUrl &base, int shard) const
{
    if (shard == 0)
        return base;
    // Further connections carry only their own SUBSCRIBEd share, not the URL's streams.
    QUrl url = base;
    QUrlQuery query(url);
    query.removeAllQueryItems(QStringLiteral("streams"));
    url.setQuery(query);
    if (url.path().startsWith(QLatin1String("/ws/")))
        url.setPath(QStringLiteral("/ws"));
    return url;
}

bool BinanceVenue::onVenueNotice(int link, const DecodedFields &fields)
{
    Q_UNUSED(fields);
    m_host.shared().venue.serverShutdowns.add();
    m_host.rollOver(link, QStringLiteral("serverShutdown notice"));
    return true;
}

void BinanceVenue::onResponse(int link, bool isError, const ResponseRecord &record)
{
    Q_UNUSED(link);
    const bool hasLimits = record.body.contains("\"rateLimits\"");
    if (!hasLimits && !isError)
        return;
    const QJsonObject o = QJsonDocument::fromJson(record.body).object();
    StreamShared &shared = m_host.shared();
    if (hasLimits) {
        QVector<RateLimitInfo> limits;
        const QJsonArray list = o.value(QStringLiteral("rateLimits")).toArray();
        for (const QJsonValue &v : list) {
            const QJsonObject l = v.toObject();
            RateLimitInfo info;
            info.type = l.value(QStringLiteral("rateLimitType")).toString();
            info.interval = l.value(QStringLiteral("interval")).toString();
            info.intervalNum = l.value(QStringLiteral("intervalNum")).toInt();
            info.limit = l.value(QStringLiteral("limit")).toInteger();
            info.count = l.value(QStringLiteral("count")).toInteger();
            limits << info;
        }
        shared.editVenue([&](VenueDetails &d) { d.rateLimits = limits; });
    }
    if (isError) {
        const QJsonObject error = o.contains(QStringLiteral("error")) ? o.value(QStringLiteral("error")).toObject() : o;
        const QString code = QString::number(error.value(QStringLiteral("code")).toInteger());
        const QString message = peerText(error.value(QStringLiteral("msg")).toString(), kMaxErrorChars);
        shared.editVenue([&](VenueDetails &d) {
            d.errorCode = code;
            d.errorMessage = message;
        });
    }
}

} // namespace streamscope
