#include "BybitBookRules.h"

#include "BybitFields.h"

#include <QtCore/QUrlQuery>

#include <algorithm>
#include <charconv>

namespace streamscope::bybit {

using book::BookMessage;
using book::DiffAction;

const BybitBookRules &BybitBookRules::instance()
{
    static const BybitBookRules rules;
    return rules;
}

int BybitBookRules::kindSlot() const
{
    return kType;
}

BookMessage BybitBookRules::classify(std::string_view eventType, std::string_view kind, const book::DiffIds &ids) const
{
    if (eventType.substr(0, diffEventType().size()) != diffEventType())
        return BookMessage::None;
    if (kind == "snapshot" || ids.last == 1)
        return BookMessage::Snapshot; // u = 1: the service restarted, and this starts the book over
    return kind == "delta" ? BookMessage::Diff : BookMessage::None;
}

DiffAction BybitBookRules::next(const book::DiffIds &diff, std::int64_t bookId) const
{
    if (diff.last == INT64_MIN || bookId == INT64_MIN)
        return DiffAction::Gap; // a delta without its "u" cannot be placed
    // The peer's numbers: bookId + 1 only below INT64_MAX.
    return bookId < INT64_MAX && diff.last == bookId + 1 ? DiffAction::Apply : DiffAction::Gap;
}

std::size_t BybitBookRules::streamDepth(std::string_view topic, std::size_t snapshotLevels) const
{
    // "orderbook.<depth>.<symbol>"
    std::size_t depth = 0;
    const std::string_view rest = topic.substr(std::min(topic.size(), diffEventType().size()));
    const auto r = std::from_chars(rest.data(), rest.data() + rest.size(), depth);
    if (r.ec == std::errc() && r.ptr != rest.data() + rest.size() && *r.ptr == '.' && depth > 0 && depth <= 100'000)
        return depth;
    for (const std::size_t d : kDepths) {
        if (snapshotLevels <= d)
            return d;
    }
    return 0;
}

// ---- the audit against REST -----------------------------------------------------------------

// The snapshot holds every update up to its "u" (the same-id audit's replay).
bool BybitBookRules::coveredBySnapshot(const book::DiffIds &diff, std::int64_t snapshotId) const
{
    return diff.last != INT64_MIN && diff.last <= snapshotId;
}

book::AuditPoint BybitBookRules::auditPoint(std::size_t streamDepth) const
{
    return streamDepth == kSameIdDepth ? book::AuditPoint::SameId : book::AuditPoint::Nearest;
}

QUrl BybitBookRules::defaultRestBase(const QUrl &streamUrl) const
{
    return mappedRestBase(streamUrl, kRestHosts);
}

QUrl BybitBookRules::auditUrl(const QUrl &restBase, const QUrl &streamUrl, const QString &instrument,
                              std::size_t streamDepth, QString &why) const
{
    // wss://stream.bybit.com/v5/public/spot: the category is the path's last segment.
    const QString path = streamUrl.path();
    const QString category = path.mid(path.lastIndexOf(QLatin1Char('/')) + 1);
    int limit = 0;
    if (category == QLatin1String("spot"))
        limit = kSpotLimit;
    else if (category == QLatin1String("linear") || category == QLatin1String("inverse"))
        limit = kContractLimit;
    if (limit == 0) {
        why = QStringLiteral("the stream's URL names no category (/v5/public/spot, linear or inverse)");
        return {};
    }
    if (streamDepth > 0)
        limit = int(std::min<std::size_t>(std::size_t(limit), streamDepth));
    QUrl u = restUrl(restBase, QStringLiteral("/v5/market/orderbook"));
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("category"), category);
    q.addQueryItem(QStringLiteral("symbol"), instrument);
    q.addQueryItem(QStringLiteral("limit"), QString::number(limit));
    u.setQuery(q);
    return u;
}

book::LevelKeys BybitBookRules::auditKeys(book::AuditPoint point) const
{
    book::LevelKeys k{"result", "b", "a", point == book::AuditPoint::SameId ? "u" : "seq"};
    k.errorCode = "retCode";
    k.errorMessage = "retMsg";
    return k;
}

int BybitBookRules::pauseSeconds(int httpStatus) const
{
    if (httpStatus == 403)
        return 600; // "access too frequent": Bybit asks for at least 10 minutes
    return httpStatus == 429 ? 60 : 0;
}

} // namespace streamscope::bybit
