#pragma once

// One instrument of a combined or multiplexed stream as a snapshot shows it (docs/freshness.md,
// "Instruments that go quiet"): its messages, and whether it has gone quiet while its connection
// and the other instruments stayed live. A plain value type.

#include <QtCore/QString>

namespace streamscope {

struct InstrumentStatus {
    QString instrument;        // as the venue names it (Binance: the symbol, "BTCUSDT")
    quint64 messages = 0;      // data messages that named it
    bool stale = false;        // silent well beyond its own learned cadence while the others speak
    quint64 staleEpisodes = 0; // times it became stale
    qint64 usualGapMs = -1;    // its learned usual gap between messages; -1 not learned yet
};

} // namespace streamscope
