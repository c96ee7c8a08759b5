#include "BybitVenue.h"

#include "BybitBookRules.h"
#include "BybitFields.h"
#include "model/PeerText.h"
#include "stats/StreamShared.h"
#include "venues/RestHosts.h"
#include "venues/VenueHost.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

namespace streamscope::bybit {

namespace {

// A topic is the peer's text where it is shown (a gap's symbol).
constexpr qsizetype kMaxTopicChars = 96;

QString topicName(const DecodedFields &f)
{
    return peerText(QByteArrayView(f.eventType.data(), qsizetype(f.eventType.size())), kMaxTopicChars);
}

// {"retCode":0,"retMsg":"OK","result":{"timeSecond":"1688639403","timeNano":"1688639403423213947"},..}:
// the nanoseconds, a string of digits.
std::optional<ServerTimeReading> readServerTime(const QByteArray &body)
{
    const QJsonObject o = QJsonDocument::fromJson(body).object();
    if (o.contains(QLatin1String("retCode")) && o.value(QLatin1String("retCode")).toInteger(-1) != 0)
        return std::nullopt;
    const QJsonValue nano = o.value(QLatin1String("result")).toObject().value(QLatin1String("timeNano"));
    return servertime::read(nano, LatencyUnit::Nanoseconds, servertime::Written::Either);
}

} // namespace

QUrl BybitVenue::serverTimeUrl() const
{
    return restUrl(restBase(m_config, kRestHosts), QStringLiteral("/v5/market/time"));
}

ServerTimeReader BybitVenue::serverTimeReader() const
{
    return &readServerTime;
}

const book::BookRules *BybitVenue::bookRules() const
{
    return &BybitBookRules::instance();
}

bool BybitVenue::request(int link, Op op, const std::vector<ChannelSubscription> &pairs)
{
    const QString name = opName(op);
    for (std::size_t from = 0; from < pairs.size(); from += kMaxArgsPerRequest) {
        QJsonArray args;
        for (std::size_t i = from; i < std::min(pairs.size(), from + kMaxArgsPerRequest); ++i)
            args.append(pairs[i].channel + QLatin1Char('.') + pairs[i].instrument);
        const QJsonObject message{{QStringLiteral("op"), name}, {QStringLiteral("args"), args}};
        m_host.sendOn(link, QString::fromUtf8(QJsonDocument(message).toJson(QJsonDocument::Compact)), name, QString());
    }
    return !pairs.empty();
}

void BybitVenue::onData(int link, const DecodedFields &fields, bool checkSequence)
{
    Q_UNUSED(link);
    StreamShared &shared = m_host.shared();
    shared.venue.updates.add();
    if (!checkSequence || fields.finalUpdateId == DecodedFields::kNone)
        return;
    const bool snapshot = text(fields, kType) == "snapshot";
    const BybitSequence::Result result = m_books.check(fields.eventType, snapshot, fields.finalUpdateId);
    switch (result.verdict) {
    case BybitSequence::Verdict::InOrder:
    case BybitSequence::Verdict::Start:
    case BybitSequence::Verdict::Snapshot: return;
    case BybitSequence::Verdict::Restart:
        // Rare (Bybit restarted the service): the text is built only then.
        shared.venue.sequenceResets.add();
        m_host.venueEvent(EventKind::Info,
                          QStringLiteral("sequence reset in %1 (u = 1: the service restarted): legal, not a gap")
                              .arg(topicName(fields)));
        return;
    case BybitSequence::Verdict::Gap: reportGap(fields, result); return;
    }
}

void BybitVenue::reportGap(const DecodedFields &fields, const BybitSequence::Result &result)
{
    const QString topic = topicName(fields);
    const qint64 u = fields.finalUpdateId;
    // u > expected: the updates expected..u-1 are missing (u - 1 cannot overflow: u > expected).
    noteGap(topic, result.expected, u,
            u > result.expected ? QStringLiteral("sequence gap in %1: expected u %2, got %3 (%2..%4 missing)")
                                      .arg(topic)
                                      .arg(result.expected)
                                      .arg(u)
                                      .arg(u - 1)
                                : QStringLiteral("sequence break in %1: expected u %2, got %3 (the ids went back)")
                                      .arg(topic)
                                      .arg(result.expected)
                                      .arg(u));
}

void BybitVenue::onResponse(int link, bool isError, const ResponseRecord &record)
{
    Q_UNUSED(link);
    if (!isError)
        return;
    // {"success":false,"ret_msg":"..","conn_id":..,"op":"subscribe"}: no code; the op it refused.
    const QJsonObject o = QJsonDocument::fromJson(record.body).object();
    noteVenueError(o.value(QStringLiteral("op")).toString(), o.value(QStringLiteral("ret_msg")).toString());
}

} // namespace streamscope::bybit
