#include "BinanceBookRules.h"

#include <QtCore/QUrlQuery>

namespace streamscope::binance {

using book::DiffAction;
using book::DiffIds;

namespace {
constexpr std::int64_t kNone = INT64_MIN;

// Binance serves REST from other hosts than its streams.
constexpr RestHost kRestHosts[] = {
    {"stream.binance.com", "api.binance.com"},
    {"data-stream.binance.vision", "data-api.binance.vision"},
    {"fstream.binance.com", "fapi.binance.com"},
};
} // namespace

QUrl restBase(const StreamConfig &config)
{
    return streamscope::restBase(config, kRestHosts);
}

const BinanceBookRules &BinanceBookRules::spot()
{
    static const BinanceBookRules rules(false);
    return rules;
}

const BinanceBookRules &BinanceBookRules::futures()
{
    static const BinanceBookRules rules(true);
    return rules;
}

// Spot and futures alike: a snapshot older than the first buffered diff misses the diffs
// between (spot: "fetch again if lastUpdateId < the first U"; futures: no buffered diff could
// then have U ≤ lastUpdateId).
bool BinanceBookRules::snapshotUsable(std::int64_t snapshotId, const DiffIds &firstBuffered) const
{
    return firstBuffered.first != kNone && snapshotId >= firstBuffered.first;
}

bool BinanceBookRules::coveredBySnapshot(const DiffIds &diff, std::int64_t snapshotId) const
{
    return m_futures ? diff.last < snapshotId : diff.last <= snapshotId;
}

DiffAction BinanceBookRules::firstAfterSnapshot(const DiffIds &diff, std::int64_t snapshotId) const
{
    if (!m_futures)
        return next(diff, snapshotId);
    if (diff.first == kNone || diff.last == kNone)
        return DiffAction::Gap;
    return diff.first <= snapshotId && snapshotId <= diff.last ? DiffAction::Apply : DiffAction::Gap;
}

DiffAction BinanceBookRules::next(const DiffIds &diff, std::int64_t bookId) const
{
    if (diff.first == kNone || diff.last == kNone)
        return DiffAction::Gap; // a diff without its ids cannot be placed
    if (m_futures)
        return diff.prev == bookId ? DiffAction::Apply : DiffAction::Gap;
    if (diff.last < bookId)
        return DiffAction::Ignore;
    // Both are the peer's numbers: bookId + 1 only below INT64_MAX.
    return bookId < INT64_MAX && diff.first > bookId + 1 ? DiffAction::Gap : DiffAction::Apply;
}

QUrl BinanceBookRules::defaultRestBase(const QUrl &streamUrl) const
{
    return mappedRestBase(streamUrl, kRestHosts);
}

QUrl BinanceBookRules::snapshotUrl(const QUrl &base, const QString &instrument) const
{
    QUrl u = restUrl(base, m_futures ? QStringLiteral("/fapi/v1/depth") : QStringLiteral("/api/v3/depth"));
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("symbol"), instrument);
    q.addQueryItem(QStringLiteral("limit"), QString::number(snapshotDepth()));
    u.setQuery(q);
    return u;
}

} // namespace streamscope::binance
