#include "CoinbaseVenue.h"

#include "CoinbaseBookRules.h"
#include "stats/StreamShared.h"
#include "venues/RestHosts.h"
#include "venues/VenueHost.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

#include <climits>

namespace streamscope::coinbase {

namespace {

// The chain of one connection.
std::uint64_t linkKey(int link)
{
    return ChainTable::key(std::string_view(reinterpret_cast<const char *>(&link), sizeof link));
}

constexpr RestHost kRestHosts[] = {
    {"advanced-trade-ws.coinbase.com", "api.coinbase.com"},
    {"advanced-trade-ws-user.coinbase.com", "api.coinbase.com"},
};

// {"iso":"2023-05-09T17:25:32.160Z","epochSeconds":"1683653132","epochMillis":"1683653132160"}:
// the ms, a string of digits (a number read too).
std::optional<ServerTimeReading> readServerTime(const QByteArray &body)
{
    const QJsonValue millis = QJsonDocument::fromJson(body).object().value(QLatin1String("epochMillis"));
    return servertime::read(millis, LatencyUnit::Milliseconds, servertime::Written::Either);
}

} // namespace

QUrl CoinbaseVenue::serverTimeUrl() const
{
    return restUrl(restBase(m_config, kRestHosts), QStringLiteral("/api/v3/brokerage/time"));
}

ServerTimeReader CoinbaseVenue::serverTimeReader() const
{
    return &readServerTime;
}

void CoinbaseVenue::send(int link, Op op, const QString &channel, const QStringList &products)
{
    const QString name = opName(op);
    QJsonObject message{{QStringLiteral("type"), name}, {QStringLiteral("channel"), channel}};
    if (!products.isEmpty())
        message.insert(QStringLiteral("product_ids"), QJsonArray::fromStringList(products));
    m_host.sendOn(link, QString::fromUtf8(QJsonDocument(message).toJson(QJsonDocument::Compact)), name, QString());
}

void CoinbaseVenue::connectionUp(int link)
{
    // A new connection counts its own sequence; the heartbeats channel keeps its channels open.
    m_sequences.set(linkKey(link), INT64_MIN);
    send(link, Op::Subscribe, QStringLiteral("heartbeats"), {});
}

bool CoinbaseVenue::request(int link, Op op, const std::vector<ChannelSubscription> &pairs)
{
    // One request a channel, with its products, in the order the channels come.
    for (const auto &[channel, products] : byChannel(pairs))
        send(link, op, channel, products);
    return !pairs.empty();
}

void CoinbaseVenue::sequence(int link, std::int64_t sequenceNum)
{
    const std::uint64_t key = linkKey(link);
    std::int64_t *last = m_sequences.find(key);
    const bool first = !last || *last == INT64_MIN;
    const std::int64_t expected = first ? sequenceNum : *last < INT64_MAX ? *last + 1 : *last;
    m_sequences.set(key, sequenceNum);
    if (sequenceNum == expected)
        return;
    // Rare: a gap is counted, kept, and the connection's subscriptions are sent again.
    const QString where = QStringLiteral("connection %1").arg(link);
    noteGap(where, expected, sequenceNum,
            sequenceNum > expected
                ? QStringLiteral("sequence gap on %1: expected sequence_num %2, got %3; subscribing again")
                      .arg(where)
                      .arg(expected)
                      .arg(sequenceNum)
                : QStringLiteral("sequence break on %1: expected sequence_num %2, got %3 (it went back); "
                                 "subscribing again")
                      .arg(where)
                      .arg(expected)
                      .arg(sequenceNum));
    const std::vector<ChannelSubscription> mine = subscribedOn(link);
    if (!mine.empty()) {
        request(link, Op::Unsubscribe, mine);
        request(link, Op::Subscribe, mine);
        // The dropped message may have been any product's: every book of the connection.
        QStringList books;
        for (const ChannelSubscription &s : mine) {
            if (isBookChannel(s.channel))
                books << s.instrument;
        }
        if (!books.isEmpty())
            m_host.booksLost(books,
                             QStringLiteral("the connection's sequence broke (%1 after %2): resubscribed")
                                 .arg(sequenceNum)
                                 .arg(expected - 1));
    }
}

const book::BookRules *CoinbaseVenue::bookRules() const
{
    return &CoinbaseBookRules::instance();
}

void CoinbaseVenue::onData(int link, const DecodedFields &fields, bool checkSequence)
{
    m_host.shared().venue.updates.add();
    if (checkSequence && fields.finalUpdateId != DecodedFields::kNone)
        sequence(link, fields.finalUpdateId);
}

void CoinbaseVenue::onHeartbeat(int link, const DecodedFields *fields)
{
    if (fields && fields->finalUpdateId != DecodedFields::kNone)
        sequence(link, fields->finalUpdateId);
}

void CoinbaseVenue::onResponse(int link, bool isError, const ResponseRecord &record)
{
    const QJsonObject o = QJsonDocument::fromJson(record.body).object();
    if (!isError) {
        // A subscriptions message counts in the connection's sequence when it carries one.
        const QJsonValue n = o.value(QStringLiteral("sequence_num"));
        if (n.isDouble())
            sequence(link, n.toInteger());
        return;
    }
    // {"type":"error","message":".."}: no code.
    noteVenueError(QString(), o.value(QStringLiteral("message")).toString());
}

} // namespace streamscope::coinbase
