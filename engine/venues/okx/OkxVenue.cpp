#include "OkxVenue.h"

#include "OkxBookRules.h"
#include "stats/StreamShared.h"
#include "venues/RestHosts.h"
#include "venues/VenueHost.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

#include <climits>

namespace streamscope::okx {

namespace {

// n + 1, or n when nothing follows it.
qint64 following(std::int64_t n)
{
    return n < INT64_MAX ? n + 1 : n;
}

// A value of an OKX event as text: "code" is a string ("60012"), but a number is shown too.
QString valueText(const QJsonValue &v)
{
    return v.isDouble() ? QString::number(v.toInteger()) : v.toString();
}

// {"code":"0","msg":"","data":[{"ts":"1597026383085"}]}: ms, a string of digits.
std::optional<ServerTimeReading> readServerTime(const QByteArray &body)
{
    const QJsonObject o = QJsonDocument::fromJson(body).object();
    if (o.contains(QLatin1String("code")) && valueText(o.value(QLatin1String("code"))) != QLatin1String("0"))
        return std::nullopt;
    const QJsonValue ts = o.value(QLatin1String("data")).toArray().at(0).toObject().value(QLatin1String("ts"));
    return servertime::read(ts, LatencyUnit::Milliseconds, servertime::Written::Either);
}

} // namespace

QUrl OkxVenue::serverTimeUrl() const
{
    return restUrl(restBase(m_config, kRestHosts), QStringLiteral("/api/v5/public/time"));
}

ServerTimeReader OkxVenue::serverTimeReader() const
{
    return &readServerTime;
}

void OkxVenue::connectionUp(int link)
{
    m_budgets.insert(link, Budget{m_host.monotonicMs(), 0});
}

bool OkxVenue::request(int link, Op op, const std::vector<ChannelSubscription> &pairs)
{
    const QString name = opName(op);
    bool sent = false;
    for (std::size_t from = 0; from < pairs.size(); from += kMaxArgsPerRequest) {
        Budget &budget = m_budgets[link];
        const qint64 now = m_host.monotonicMs();
        if (now - budget.windowStartMs >= kHourMs)
            budget = Budget{now, 0};
        if (budget.used >= kRequestsPerHour) {
            m_host.venueEvent(EventKind::Info,
                              QStringLiteral("OKX %1 not sent: %2 requests on this connection within the hour, "
                                             "the venue's limit")
                                  .arg(name)
                                  .arg(kRequestsPerHour));
            return sent;
        }
        ++budget.used;
        QJsonArray part;
        for (std::size_t i = from; i < std::min(pairs.size(), from + kMaxArgsPerRequest); ++i)
            part.append(QJsonObject{{QStringLiteral("channel"), pairs[i].channel},
                                    {QStringLiteral("instId"), pairs[i].instrument}});
        const QJsonObject message{{QStringLiteral("op"), name}, {QStringLiteral("args"), part}};
        m_host.sendOn(link, QString::fromUtf8(QJsonDocument(message).toJson(QJsonDocument::Compact)), name, QString());
        sent = true;
    }
    return sent;
}

const book::BookRules *OkxVenue::bookRules() const
{
    return &OkxBookRules::instance();
}

void OkxVenue::onData(int link, const DecodedFields &fields, bool checkSequence)
{
    Q_UNUSED(link);
    StreamShared &shared = m_host.shared();
    shared.venue.updates.add();
    if (!checkSequence || fields.finalUpdateId == DecodedFields::kNone
        || fields.prevFinalUpdateId == DecodedFields::kNone)
        return;
    const OkxSequence::Result result =
        m_books.check(fields.eventType, fields.symbol, fields.prevFinalUpdateId, fields.finalUpdateId);
    switch (result.verdict) {
    case OkxSequence::Verdict::InOrder:
    case OkxSequence::Verdict::KeepAlive:
    case OkxSequence::Verdict::Start:
    case OkxSequence::Verdict::Snapshot: return;
    case OkxSequence::Verdict::Reset:
        // Rare (a maintenance): the text is built only then.
        shared.venue.sequenceResets.add();
        m_host.venueEvent(EventKind::Info,
                          QStringLiteral("sequence reset in %1 (seqId %2 below prevSeqId %3): legal, not a gap")
                              .arg(chainName(fields))
                              .arg(fields.finalUpdateId)
                              .arg(fields.prevFinalUpdateId));
        return;
    case OkxSequence::Verdict::Gap: reportGap(fields, result); return;
    }
}

void OkxVenue::reportGap(const DecodedFields &fields, const OkxSequence::Result &result)
{
    const QString chain = chainName(fields);
    // The missed updates' seqIds lie in (the last seqId, this prevSeqId]: missingTo() is the
    // prevSeqId (seqIds are not consecutive, so no count of missed updates is claimed).
    noteGap(chain, following(result.expectedPrev), following(fields.prevFinalUpdateId),
            QStringLiteral("sequence gap in %1: expected prevSeqId %2, got %3 (seqId %4)")
                .arg(chain)
                .arg(result.expectedPrev)
                .arg(fields.prevFinalUpdateId)
                .arg(fields.finalUpdateId));
}

void OkxVenue::onConnectionMessage(int link, const char *data, qsizetype len)
{
    const QJsonObject o = QJsonDocument::fromJson(QByteArray(data, len)).object();
    if (o.value(QStringLiteral("event")).toString() != QLatin1String("notice"))
        return; // channel-conn-count: informative only
    const QString code = valueText(o.value(QStringLiteral("code")));
    const QString text = o.value(QStringLiteral("msg")).toString();
    noteVenueNotice("OKX", code.isEmpty() ? text : code + QStringLiteral(": ") + text);
    // A replacement connection subscribes while this one still delivers; the overlap is
    // de-duplicated, and the replacement takes over when OKX closes this one.
    if (code == QLatin1String(kUpgradeNoticeCode))
        m_host.rollOver(link, QStringLiteral("OKX notice 64008: service upgrade"));
}

void OkxVenue::onResponse(int link, bool isError, const ResponseRecord &record)
{
    Q_UNUSED(link);
    if (!isError)
        return;
    const QJsonObject o = QJsonDocument::fromJson(record.body).object();
    noteVenueError(valueText(o.value(QStringLiteral("code"))), o.value(QStringLiteral("msg")).toString());
}

} // namespace streamscope::okx
