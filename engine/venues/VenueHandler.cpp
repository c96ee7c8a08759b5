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
    if (shard == 0) {
        for (const QString &text : m_config.sendOnConnect) {
            m_host.sendOn(link, text, QString(), QString());
            sent = true;
        }
    }
    return sent;
}

void VenueHandler::onData(const DecodedFields &fields, bool checkSequence)
{
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

void VenueHandler::onHeartbeat(const DecodedFields *fields)
{
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
