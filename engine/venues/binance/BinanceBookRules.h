#pragma once

// Binance's rules for a local order book (docs/books.md), spot and USD-M futures, given to the
// engine's book keeper as a BookRules:
//   spot:    buffer the diffs and note the first U; fetch /api/v3/depth?limit=5000, again if
//            its lastUpdateId is below that first U; drop buffered diffs with u ≤ lastUpdateId;
//            then for each diff: ignore it if u < the book's id, resync if U > id + 1, else
//            apply it and id = u.
//   futures: fetch /fapi/v1/depth?limit=1000; drop diffs with u < lastUpdateId; the first diff
//            has U ≤ lastUpdateId ≤ u; each later diff's pu is the previous diff's u.
// The REST hosts are those of the stream hosts (api.binance.com, data-api.binance.vision,
// fapi.binance.com); any other host (a testnet, a replay server) is asked itself.
//
// Thread contract: immutable static objects.

#include "book/BookRules.h"
#include "model/StreamConfig.h"
#include "venues/RestHosts.h"

namespace streamscope::binance {

// The REST base of a Binance stream: its "rest_url", else the host mapping above.
QUrl restBase(const StreamConfig &config);
using streamscope::restUrl;

class BinanceBookRules final : public book::BookRules {
public:
    // Spot: limit 5,000 costs 250 of the 6,000 weight a minute an IP may use; a stream keeps
    // to half of that. Futures: limit 1,000 costs 20 of 2,400, half again.
    static constexpr int kSpotDepth = 5000;
    static constexpr int kSpotWeight = 250;
    static constexpr int kSpotWeightPerMinute = 3000;
    static constexpr int kFuturesDepth = 1000;
    static constexpr int kFuturesWeight = 20;
    static constexpr int kFuturesWeightPerMinute = 1200;

    static const BinanceBookRules &spot();
    static const BinanceBookRules &futures();

    std::string_view diffEventType() const override { return "depthUpdate"; }
    book::LevelKeys diffKeys() const override { return {"data", "b", "a", {}}; }
    book::LevelKeys snapshotKeys() const override { return {{}, "bids", "asks", "lastUpdateId"}; }

    bool snapshotUsable(std::int64_t snapshotId, const book::DiffIds &firstBuffered) const override;
    bool coveredBySnapshot(const book::DiffIds &diff, std::int64_t snapshotId) const override;
    book::DiffAction firstAfterSnapshot(const book::DiffIds &diff, std::int64_t snapshotId) const override;
    book::DiffAction next(const book::DiffIds &diff, std::int64_t bookId) const override;

    QUrl defaultRestBase(const QUrl &streamUrl) const override;
    QUrl snapshotUrl(const QUrl &restBase, const QString &instrument) const override;
    int snapshotDepth() const override { return m_futures ? kFuturesDepth : kSpotDepth; }
    int snapshotWeight() const override { return m_futures ? kFuturesWeight : kSpotWeight; }
    int weightPerMinute() const override { return m_futures ? kFuturesWeightPerMinute : kSpotWeightPerMinute; }
    QByteArray usedWeightHeader() const override { return QByteArrayLiteral("X-MBX-USED-WEIGHT-1M"); }
    int ipWeightPerMinute() const override
    {
        return m_futures ? 2 * kFuturesWeightPerMinute : 2 * kSpotWeightPerMinute;
    }

private:
    explicit BinanceBookRules(bool futures)
        : m_futures(futures)
    {
    }
    const bool m_futures;
};

} // namespace streamscope::binance
