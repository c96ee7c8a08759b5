#pragma once

// One instrument across venues (docs/venues.md, "One instrument across venues"): where all
// streams meet, once a second, the local order books and the last trade prices of every stream
// are grouped by the instrument's normalised name (model/InstrumentSymbol.h, with the
// workspace's "instrument_aliases"), and an instrument that two or more streams have a price of
// is compared. A stream's price of an instrument is its mid (best bid + best ask) / 2 when it
// keeps a synced book of it, else its last trade price: each stream's price, mid and last, its
// latency and freshness, its price's deviation from the median of the others' prices in basis
// points (and its last's from the others' lasts), the spread between the venues (highest −
// lowest price over the median of all). A stream is flagged for an instrument when
//   - "apart": its price stays more than Settings::apartBps away from the median of the others
//     for Settings::apartForMs without a break (50 bps, 10 s unless the workspace's
//     "cross_venue" says otherwise);
//   - "frozen": its price has not moved for Settings::frozenMs (30 s) while another stream's
//     price of the same instrument moved within that time.
// Last trade prices are read only where they can take part (lastTradeWanted()): the owner
// hands each stream's set to the engine (Engine::setLastTradeInstruments).
// The alert rules "cross_venue_bps" and "cross_venue_frozen" (docs/alerts.md) are evaluated on
// the same figures (fillSample()). The desktop app and headless mode share it through
// AlertService, so the window, the report and /metrics show the same numbers.
//
// Bounded: at most kMaxInstruments instruments (by name order) and kMaxQuotes streams each;
// label values on /metrics are normalised names (capitals, digits, '-') and stream names.
//
// Thread contract: one thread, its owner's (the GUI or headless main thread); never per
// message: update() once a second with snapshots the caller already holds.

#include "AlertMonitor.h"
#include "CrossVenueConfig.h"
#include "InstrumentSymbol.h"
#include "StreamSnapshot.h"

#include <QtCore/QHash>
#include <QtCore/QJsonArray>
#include <QtCore/QSet>
#include <QtCore/QVector>

namespace streamscope::alerts {

// Why a stream is flagged for an instrument.
enum class CrossVenueFlag : quint8 { None = 0, Apart, Frozen };
const char *crossVenueFlagName(CrossVenueFlag flag); // "", "apart", "frozen"

// One stream's view of one instrument.
struct CrossVenueQuote {
    StreamId stream = kInvalidStreamId;
    QString streamName;
    QString venue;            // the stream's venue name ("okx")
    QString symbol;           // as the venue spells it ("BTC-USDT")
    double mid = qQNaN();     // (best bid + best ask) / 2; NaN without a synced book
    double bestBid = qQNaN(); // prices as decimals
    double bestAsk = qQNaN();
    double last = qQNaN(); // the last trade price; NaN before the first trade read
    qint64 lastAgeMs = -1; // since that trade's message came; -1 none
    bool byLast = false;   // compared by its last trade price (no synced book)
    double price() const { return byLast ? last : mid; }
    double lastDeviationBps = qQNaN(); // (last − median of the others' lasts) / that median × 10^4
    double latencyMs = qQNaN();        // the stream's latency p50 over its last seconds
    qint64 ageMs = -1;                 // since the stream's last data message; -1 none yet
    double deviationBps = qQNaN();     // (price − median of the others' prices) / that median × 10^4
    qint64 unchangedMs = 0;            // since the price last moved (as seen once a second)
    CrossVenueFlag flag = CrossVenueFlag::None;
};

struct CrossVenueInstrument {
    QString instrument;              // the normalised name ("BTC-USDT")
    double medianMid = qQNaN();      // the median of the venues' prices (mid, else last)
    double spreadBps = qQNaN();      // (highest − lowest price) / median × 10^4
    QVector<CrossVenueQuote> quotes; // by stream name
};

class CrossVenueMonitor {
public:
    static constexpr int kMaxInstruments = 256;
    static constexpr int kMaxQuotes = 32;

    // The workspace's "cross_venue" (CrossVenueConfig), to the millisecond.
    struct Settings {
        double apartBps = CrossVenueConfig{}.apartBps;
        qint64 apartForMs = CrossVenueConfig{}.apartForS * 1000LL;
        qint64 frozenMs = CrossVenueConfig{}.frozenS * 1000LL;
    };
    // One stream as the caller holds it: its snapshot (books with their best prices) and its
    // latency p50 over the last seconds (StreamFigures; NaN when none).
    struct Input {
        const StreamSnapshot *snapshot = nullptr;
        double latencyP50Ms = qQNaN();
    };

    void setAliases(const InstrumentAliases &aliases)
    {
        m_aliases = aliases;
        m_resolved.clear();
    }
    const InstrumentAliases &aliases() const { return m_aliases; }
    void setSettings(const Settings &settings) { m_settings = settings; }
    const Settings &settings() const { return m_settings; }

    // Once a second; `nowMs` epoch milliseconds (the clock the snapshots' lastDataMs use).
    // Streams that do not run and books that are not synced take no part.
    void update(const QVector<Input> &inputs, qint64 nowMs);
    const QVector<CrossVenueInstrument> &instruments() const { return m_instruments; }
    // Per running stream of the last update, the instruments (normalised names) whose last trade
    // price it should read: those of its instruments (books, instruments its messages named,
    // last trades) that another stream has too; every other stream's when it has named none yet
    // (a venue whose trades name their instrument inside: Coinbase). Empty: it reads none.
    const QHash<StreamId, QSet<QString>> &lastTradeWanted() const { return m_lastTradeWanted; }

    // Adds the stream's cross-venue figures to its alert sample: its largest deviation (and
    // which instrument), the instruments it is frozen on.
    void fillSample(StreamId stream, AlertMonitor::Sample &sample) const;

    // The report's top-level "cross_venue" list (docs/report.md).
    QJsonArray toJson() const;
    // streamscope_cross_venue_* gauges (docs/operations.md); nothing while no instrument is
    // compared.
    QByteArray renderMetrics() const;

private:
    // What is remembered of one stream's view of one instrument between updates.
    struct History {
        double mid = qQNaN();
        qint64 midChangedAtMs = 0;
        qint64 apartSinceMs = 0; // 0: not apart now
        bool seen = false;
    };
    // Each stream's wanted last trades from every running stream's instrument names.
    static QHash<StreamId, QSet<QString>> lastTradeWanted(const QHash<StreamId, QSet<QString>> &names);
    static QString key(const QString &instrument, StreamId stream)
    {
        return instrument + QLatin1Char('\n') + QString::number(stream);
    }

    // The normalised name of a symbol as a stream spells it, through the aliases: computed once
    // a symbol (a thousand streams' names each second cost more than the comparison).
    QString resolve(const QString &symbol);

    InstrumentAliases m_aliases;
    QHash<QString, QString> m_resolved; // symbol → resolve(); at most kMaxResolved, then afresh
    static constexpr qsizetype kMaxResolved = 16 * 1024;
    // Each running stream's instrument names as of the last update, kept so that a stream
    // whose names did not change allocates nothing.
    QHash<StreamId, QSet<QString>> m_names;
    QStringList m_scratch;
    static constexpr qsizetype kFewNames = 8;
    // Whether `list` (a few names, some perhaps twice) holds the names of `set`, no other.
    static bool sameNames(const QStringList &list, const QSet<QString> &set);
    Settings m_settings;
    QVector<CrossVenueInstrument> m_instruments;
    QHash<QString, History> m_history;
    QHash<StreamId, QSet<QString>> m_lastTradeWanted;
};

} // namespace streamscope::alerts
