#pragma once

// One subscription of a venue that names its subscriptions by channel and instrument, written
// "channel:instrument" ("books:BTC-USDT") in a workspace's `subscribe` list: one shape for
// every such venue (VenueEntry::channelSubscriptions; OKX first, then Bybit, Coinbase, Kraken,
// Hyperliquid), which each venue's folder turns into its own subscribe messages. The channel
// ends at the first ':'; the instrument is the rest and may hold further ':' (a venue whose
// instruments have one). Neither is empty, and neither holds whitespace or control characters.
//
// Thread contract: a value; pure functions.

#include <QtCore/QString>

#include <optional>

namespace streamscope {

struct ChannelSubscription {
    QString channel;
    QString instrument;

    // The entry's channel and instrument; nullopt when it is not of that shape.
    static std::optional<ChannelSubscription> parse(const QString &entry)
    {
        const qsizetype colon = entry.indexOf(QLatin1Char(':'));
        if (colon <= 0 || colon == entry.size() - 1)
            return std::nullopt;
        for (const QChar ch : entry) {
            if (ch.isSpace() || ch.category() == QChar::Other_Control || ch.category() == QChar::Other_Format)
                return std::nullopt;
        }
        return ChannelSubscription{entry.left(colon), entry.mid(colon + 1)};
    }
    QString text() const { return channel + QLatin1Char(':') + instrument; }
};

} // namespace streamscope
