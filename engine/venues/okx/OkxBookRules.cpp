#include "OkxBookRules.h"

#include "OkxFields.h"

#include <QtCore/QUrlQuery>

#include <algorithm>

namespace streamscope::okx {

using book::BookMessage;
using book::DiffAction;

const OkxBookRules &OkxBookRules::instance()
{
    static const OkxBookRules rules;
    return rules;
}

int OkxBookRules::kindSlot() const
{
    return kAction;
}

BookMessage OkxBookRules::classify(std::string_view eventType, std::string_view kind, const book::DiffIds &) const
{
    if (eventType.substr(0, diffEventType().size()) != diffEventType() && eventType != "bbo-tbt")
        return BookMessage::None;
    if (kind == "snapshot" || kind.empty())
        return BookMessage::Snapshot;
    return kind == "update" ? BookMessage::Diff : BookMessage::None;
}

DiffAction OkxBookRules::next(const book::DiffIds &diff, std::int64_t bookId) const
{
    if (diff.prev == INT64_MIN || diff.last == INT64_MIN)
        return DiffAction::Gap; // an update without its ids cannot be placed
    // In order, the idle keep-alive (seqId = prevSeqId) and a maintenance reset (seqId below
    // prevSeqId) alike follow the book's seqId.
    return diff.prev == bookId ? DiffAction::Apply : DiffAction::Gap;
}

std::size_t OkxBookRules::streamDepth(std::string_view channel, std::size_t snapshotLevels) const
{
    struct Known {
        std::string_view channel;
        std::size_t depth;
    };
    static constexpr Known kChannels[] = {
        {"books", 400}, {"books-l2-tbt", 400}, {"books50-l2-tbt", 50}, {"books5", 5}, {"bbo-tbt", 1}};
    for (const Known &k : kChannels) {
        if (channel == k.channel)
            return k.depth;
    }
    for (const std::size_t d : kDepths) {
        if (snapshotLevels <= d)
            return d;
    }
    return 0;
}

// ---- the audit against REST -----------------------------------------------------------------

QUrl OkxBookRules::defaultRestBase(const QUrl &streamUrl) const
{
    return mappedRestBase(streamUrl, kRestHosts);
}

QUrl OkxBookRules::auditUrl(const QUrl &restBase, const QUrl &, const QString &instrument, std::size_t streamDepth,
                            QString &) const
{
    const int sz = streamDepth > 0 ? int(std::min<std::size_t>(kMaxLimit, streamDepth)) : kMaxLimit;
    QUrl u = restUrl(restBase, QStringLiteral("/api/v5/market/books"));
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("instId"), instrument);
    q.addQueryItem(QStringLiteral("sz"), QString::number(sz));
    u.setQuery(q);
    return u;
}

book::LevelKeys OkxBookRules::auditKeys(book::AuditPoint) const
{
    book::LevelKeys k{"data", "bids", "asks", "ts"};
    k.errorCode = "code";
    k.errorMessage = "msg";
    return k;
}

} // namespace streamscope::okx
