#include "VenueHandler.h"

#include "VenueHost.h"
#include "VenueRegistry.h"
#include "model/PeerText.h"
#include "protocol/RequestIds.h"
#include "stats/StreamShared.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

namespace streamscope {

namespace {
// A symbol is the peer's text: shown escaped and cut to a length no real symbol reaches.
constexpr qsizetype kMaxSymbolChars = 64;
} // namespace

std::unique_ptr<VenueHandler> VenueHandler::create(const StreamConfig &config, VenueHost &host)
{
    return VenueRegistry::entryOf(config.venue).createHandler(config, host);
}

void VenueHandler::sendControl(int link, const QString &method, const QStringList &params, qint64 requestId)
{
    QJsonObject o{{QStringLiteral("method"), method}};
    if (method != QLatin1String("LIST_SUBSCRIPTIONS"))
        o.insert(QStringLiteral("params"), QJsonArray::fromStringList(params));
    o.insert(QStringLiteral("id"), requestId);
    m_host.sendOn(link, QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)), method,
                  QString::number(requestId));
}

bool VenueHandler::onConnected(int link, int shard, bool rollover, const QStringList &streams)
{
    Q_UNUSED(rollover);
    bool sent = false;
    if (!streams.isEmpty()) {
        sendControl(link, QStringLiteral("SUBSCRIBE"), streams, nextRequestId());
        sent = true;
    }
    return sendConfiguredOnConnect(link, shard) || sent;
}

bool VenueHandler::sendConfiguredOnConnect(int link, int shard)
{
    if (shard != 0)
        return false;
    for (const QString &text : m_config.sendOnConnect)
        m_host.sendOn(link, text, QString(), QString());
    return !m_config.sendOnConnect.isEmpty();
}

void VenueHandler::onData(int link, const DecodedFields &fields, bool checkSequence)
{
    Q_UNUSED(link);
    m_host.shared().venue.updates.add();
    if (!checkSequence || fields.finalUpdateId == DecodedFields::kNone || fields.firstUpdateId == DecodedFields::kNone)
        return;
    const auto gap =
        m_sequences.check(fields.symbol, fields.firstUpdateId, fields.finalUpdateId, fields.prevFinalUpdateId);
    if (!gap.found)
        return;
    StreamShared &shared = m_host.shared();
    shared.counters.gaps.add();
    GapRecord record;
    record.timeMs = m_host.wallMs();
    record.symbol = peerText(QByteArrayView(fields.symbol.data(), qsizetype(fields.symbol.size())), kMaxSymbolChars);
    record.expectedFrom = gap.expectedFrom;
    record.resumedAt = gap.resumedAt;
    // resumedAt - 1 cannot overflow when ids are missing: resumedAt > expectedFrom.
    m_host.venueEvent(EventKind::Gap,
                      gap.missing
                          ? QStringLiteral("sequence gap in %1: expected update %2, got %3 (%4 missing: %2..%5)")
                                .arg(record.symbol)
                                .arg(gap.expectedFrom)
                                .arg(gap.resumedAt)
                                .arg(gap.missing)
                                .arg(gap.resumedAt - 1)
                          : QStringLiteral("sequence break in %1: expected update %2, got %3 (the ids went back)")
                                .arg(record.symbol)
                                .arg(gap.expectedFrom)
                                .arg(gap.resumedAt));
    shared.pushGap(std::move(record));
}

std::vector<ChannelSubscription> VenueHandler::channelPairs(const QStringList &entries, const char *venue,
                                                            const QString &op)
{
    std::vector<ChannelSubscription> pairs;
    QStringList refused;
    for (const QString &entry : entries) {
        if (auto pair = ChannelSubscription::parse(entry))
            pairs.push_back(std::move(*pair));
        else
            refused << peerText(entry, kMaxSymbolChars);
    }
    if (!refused.isEmpty())
        m_host.venueEvent(EventKind::Info,
                          QStringLiteral("%1 %2: not \"channel:instrument\", not sent: %3")
                              .arg(QLatin1String(venue), op, refused.join(QStringLiteral(", "))));
    return pairs;
}

void VenueHandler::noteVenueError(const QString &code, const QString &message)
{
    StreamShared &shared = m_host.shared();
    shared.venue.venueErrors.add();
    shared.editVenue([&](VenueDetails &d) {
        d.errorCode = peerText(code, kMaxErrorChars);
        d.errorMessage = peerText(message, kMaxErrorChars);
    });
}

void VenueHandler::noteVenueNotice(const char *venue, const QString &notice)
{
    const QString shown = peerText(notice, kMaxErrorChars);
    StreamShared &shared = m_host.shared();
    shared.venue.venueNotices.add();
    shared.editVenue([&](VenueDetails &d) { d.notice = shown; });
    m_host.venueEvent(EventKind::Info, QStringLiteral("%1 notice %2").arg(QLatin1String(venue), shown));
}

void VenueHandler::noteGap(const QString &symbol, qint64 expectedFrom, qint64 resumedAt, const QString &text)
{
    StreamShared &shared = m_host.shared();
    shared.counters.gaps.add();
    GapRecord record;
    record.timeMs = m_host.wallMs();
    record.symbol = symbol;
    record.expectedFrom = expectedFrom;
    record.resumedAt = resumedAt;
    m_host.venueEvent(EventKind::Gap, text);
    shared.pushGap(std::move(record));
}

QString VenueHandler::chainName(const DecodedFields &f)
{
    return peerText(QByteArrayView(f.eventType.data(), qsizetype(f.eventType.size())), kMaxSymbolChars)
        + QLatin1Char(':') + peerText(QByteArrayView(f.symbol.data(), qsizetype(f.symbol.size())), kMaxSymbolChars);
}

void VenueHandler::onHeartbeat(int link, const DecodedFields *fields)
{
    Q_UNUSED(link);
    Q_UNUSED(fields);
}

void VenueHandler::onResponse(int link, bool isError, const ResponseRecord &record)
{
    Q_UNUSED(link);
    Q_UNUSED(isError);
    Q_UNUSED(record);
}

void VenueHandler::onTick(qint64 nowMs)
{
    Q_UNUSED(nowMs);
}

int VenueHandler::streamsNamedInUrl(const QUrl &url) const
{
    Q_UNUSED(url);
    return 0;
}

QUrl VenueHandler::shardUrl(const QUrl &url, int shard) const
{
    Q_UNUSED(shard);
    return url;
}

} // namespace streamscope
