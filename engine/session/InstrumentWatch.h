#pragma once

// Each instrument's own cadence in a combined or multiplexed stream (docs/freshness.md,
// "Instruments that go quiet"): one instrument can freeze while its connection and its
// neighbours stay live, which the stream's own silence never shows. Every data message that
// names its instrument (DecodedFields::symbol: Binance's "s", OKX's "instId", ...) counts for
// it; on the tick each instrument's gaps are learned as the stream's are (SilenceLearner: log
// buckets from the tick's 100 ms, the 99th percentile, two generations), and an instrument
// silent past max(SilenceLearner::kMinAlarmMs, SilenceLearner::kFactor × its usual gap), once
// it has learned one, is `stale` while another instrument is live (it spoke within its own
// threshold, or within this one's when it has none yet) and the stream is connected and live;
// it clears when it speaks again. A silence past the threshold is not learned as a usual gap.
// While the stream is down or silent as a whole, nothing is stale: that is the stream's own
// silence (SilenceLearner, the stall watchdog). The instruments are InstrumentIndex's: at most
// kMaxInstruments a stream, by its name rule; messages beyond are counted as untracked.
//
// Thread contract: the stream's worker only. onData() is the hot path: a hash lookup by a view
// of the symbol, a counter; no allocation once the instrument is known, no lock, no log.
// Everything else runs on the tick.

#include "InstrumentIndex.h"
#include "SilenceLearner.h"
#include "model/InstrumentStatus.h"

#include <QtCore/QVector>

#include <string_view>
#include <vector>

namespace streamscope {

class DecodeSpec;
struct StreamConfig;

class InstrumentWatch {
public:
    static constexpr qint64 kPublishMs = 1000; // counts alone are published this often

    // A change of an instrument's stale flag on the last tick (for the event log).
    struct Change {
        int index = 0; // into statuses()
        bool stale = false;
        qint64 silentMs = 0;
        qint64 usualGapMs = 0;
        qint64 thresholdMs = 0;
    };

    // Whether a stream with `config` and its venue's `spec` names its instruments: a parsed
    // stream that reads the venue's own fields (no latency_field) of a venue whose messages say
    // their symbol.
    static bool wanted(const StreamConfig &config, const DecodeSpec &spec);

    // A data message that named `symbol` (a view into the message; not kept).
    void onData(std::string_view symbol)
    {
        Index::Item *item = m_index.find(symbol);
        if (Q_UNLIKELY(!item) && !(item = add(symbol))) {
            ++m_untracked;
            return;
        }
        ++item->value.messages;
    }

    // The stream's connection came up: the wait for each instrument's first message is no gap,
    // and its silence counts from now.
    void connected(qint64 nowMs);
    // On the tick. `live`: the stream is connected and delivering (Live or Degraded); otherwise
    // nothing is stale. True when the statuses should be published (a change, or kPublishMs).
    bool tick(qint64 nowMs, bool live);
    // The stale flags that changed on the last tick.
    const std::vector<Change> &changes() const { return m_changes; }

    QVector<InstrumentStatus> statuses() const;
    int size() const { return m_index.size(); }
    // Data messages of instruments beyond kMaxInstruments or with names we do not take.
    quint64 untracked() const { return m_untracked; }

private:
    struct Entry {
        quint64 messages = 0;     // written by onData()
        quint64 seenMessages = 0; // at the last tick
        qint64 lastDataMs = 0;    // the tick that last saw it speak (or the connection come up)
        qint64 thresholdMs = -1;  // past this silence it is stale; -1 not learned yet
        bool past = false;        // silent past thresholdMs in this silence
        bool stale = false;
        bool counted = false; // this silence's episode is counted
        quint64 staleEpisodes = 0;
        SilenceLearner learner;
    };
    using Index = InstrumentIndex<Entry>;

    Index::Item *add(std::string_view symbol);

    Index m_index;
    quint64 m_untracked = 0;
    std::vector<Change> m_changes;
    qint64 m_publishedMs = -1;
    quint64 m_publishedMessages = 0;
    quint64 m_publishedUntracked = 0;
    bool m_dirty = true;
};

} // namespace streamscope
