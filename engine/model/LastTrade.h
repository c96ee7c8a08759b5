#pragma once

// One instrument's last trade price on one stream, as a snapshot shows it: read only for an
// instrument that another stream also has, to compare it across venues (docs/venues.md, "One
// instrument across venues"). A plain value type.

#include <QtCore/QString>

namespace streamscope {

struct LastTrade {
    QString instrument; // as the venue names it ("BTCUSDT", "BTC-USDT")
    // The price of the newest trade seen (exact, units of 10^-8 as model/BookDepth.h's kDepthUnit).
    qint64 price = 0;
    quint64 trades = 0;    // trades whose price was read
    qint64 receivedMs = 0; // epoch ms its message came (our clock)
};

} // namespace streamscope
