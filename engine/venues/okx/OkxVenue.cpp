#include "OkxVenue.h"

#include "model/ChannelSubscription.h"
#include "model/PeerText.h"
#include "stats/StreamShared.h"
#include "venues/VenueHost.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

#include <climits>

namespace streamscope::okx {

namespace {

// A channel and instrument are the peer's text where they are shown (a gap's symbol).
constexpr qsizetype kMaxChainChars = 96;

QString chainName(const DecodedFields &f)
{
    return peerText(QByteArrayView(f.eventType.data(), qsizetype(f.eventType.size())), kMaxChainChars)
        + QLatin1Char(':') + peerText(QByteArrayView(f.symbol.data(), qsizetype(f.symbol.size())), kMaxChainChars);
}

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

} // namespace

bool OkxVenue::onConnected(int link, int shard, bool rollover, const QStringList &streams)
{
    Q_UNUSED(rollover);
    m_budgets.insert(link, Budget{m_host.monotonicMs(), 0});
    bool sent = !streams.isEmpty() && request(link, QStringLiteral("subscribe"), streams);
    if (shard == 0) {
        for (const QString &text : m_config.sendOnConnect) {
            m_host.sendOn(link, text, QString(), QString());
            sent = true;
        }
    }
    return sent;
}

bool OkxVenue::request(int link, const QString &op, const QStringList &subscriptions)
{
    QJsonArray args;
    QStringList refused;
    for (const QString &entry : subscriptions) {
        if (const auto pair = ChannelSubscription::parse(entry))
            args.append(
                QJsonObject{{QStringLiteral("channel"), pair->channel}, {QStringLiteral("instId"), pair->instrument}});
        else
            refused << peerText(entry, kMaxChainChars);
    }
    if (!refused.isEmpty())
        m_host.venueEvent(EventKind::Info,
                          QStringLiteral("OKX %1: not \"channel:instrument\", not sent: %2")
                              .arg(op, refused.join(QStringLiteral(", "))));
    bool sent = false;
    for (qsizetype from = 0; from < args.size(); from += kMaxArgsPerRequest) {
        Budget &budget = m_budgets[link];
        const qint64 now = m_host.monotonicMs();
        if (now - budget.windowStartMs >= kHourMs)
            budget = Budget{now, 0};
        if (budget.used >= kRequestsPerHour) {
            m_host.venueEvent(EventKind::Info,
                              QStringLiteral("OKX %1 not sent: %2 requests on this connection within the hour, "
                                             "the venue's limit")
                                  .arg(op)
                                  .arg(kRequestsPerHour));
            return sent;
        }
        ++budget.used;
        QJsonArray part;
        for (qsizetype i = from; i < std::min(args.size(), from + kMaxArgsPerRequest); ++i)
            part.append(args.at(i));
        const QJsonObject message{{QStringLiteral("op"), op}, {QStringLiteral("args"), part}};
        m_host.sendOn(link, QString::fromUtf8(QJsonDocument(message).toJson(QJsonDocument::Compact)), op, QString());
        sent = true;
    }
    return sent;
}

void OkxVenue::sendControl(int link, const QString &method, const QStringList &params, qint64 requestId)
{
    Q_UNUSED(requestId); // OKX's public requests are answered by their arguments, not an id
    if (method == QLatin1String("SUBSCRIBE"))
        request(link, QStringLiteral("subscribe"), params);
    else if (method == QLatin1String("UNSUBSCRIBE"))
        request(link, QStringLiteral("unsubscribe"), params);
    else
        m_host.venueEvent(EventKind::Info, QStringLiteral("OKX has no %1 request").arg(method));
}

void OkxVenue::onDisconnected()
{
    VenueHandler::onDisconnected();
    m_books.reset();
    m_budgets.clear();
}

void OkxVenue::onSwitchedOver()
{
    VenueHandler::onSwitchedOver();
    m_books.reset();
}

void OkxVenue::onData(const DecodedFields &fields, bool checkSequence)
{
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
    StreamShared &shared = m_host.shared();
    shared.counters.gaps.add();
    GapRecord record;
    record.timeMs = m_host.wallMs();
    record.symbol = chainName(fields);
    // The missed updates' seqIds lie in (the last seqId, this prevSeqId]: missingTo() is the
    // prevSeqId (seqIds are not consecutive, so no count of missed updates is claimed).
    record.expectedFrom = following(result.expectedPrev);
    record.resumedAt = following(fields.prevFinalUpdateId);
    m_host.venueEvent(EventKind::Gap,
                      QStringLiteral("sequence gap in %1: expected prevSeqId %2, got %3 (seqId %4)")
                          .arg(record.symbol)
                          .arg(result.expectedPrev)
                          .arg(fields.prevFinalUpdateId)
                          .arg(fields.finalUpdateId));
    shared.pushGap(std::move(record));
}

void OkxVenue::onConnectionMessage(int link, const char *data, qsizetype len)
{
    Q_UNUSED(link);
    const QJsonObject o = QJsonDocument::fromJson(QByteArray(data, len)).object();
    if (o.value(QStringLiteral("event")).toString() != QLatin1String("notice"))
        return; // channel-conn-count: informative only
    const QString code = peerText(valueText(o.value(QStringLiteral("code"))), kMaxErrorChars);
    const QString text = peerText(o.value(QStringLiteral("msg")).toString(), kMaxErrorChars);
    const QString notice = code.isEmpty() ? text : code + QStringLiteral(": ") + text;
    StreamShared &shared = m_host.shared();
    shared.venue.venueNotices.add();
    shared.editVenue([&](VenueDetails &d) { d.notice = notice; });
    m_host.venueEvent(EventKind::Info, QStringLiteral("OKX notice %1").arg(notice));
}

void OkxVenue::onResponse(int link, bool isError, const ResponseRecord &record)
{
    Q_UNUSED(link);
    if (!isError)
        return;
    const QJsonObject o = QJsonDocument::fromJson(record.body).object();
    const QString code = peerText(valueText(o.value(QStringLiteral("code"))), kMaxErrorChars);
    const QString message = peerText(o.value(QStringLiteral("msg")).toString(), kMaxErrorChars);
    StreamShared &shared = m_host.shared();
    shared.venue.venueErrors.add();
    shared.editVenue([&](VenueDetails &d) {
        d.errorCode = code;
        d.errorMessage = message;
    });
}

} // namespace streamscope::okx
