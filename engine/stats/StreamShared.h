#pragma once

// The state of one stream that both its worker and the Engine facade see.
//
// Thread contract: the hot-path parts (counters, latency, state) have one writer, the
// stream's worker, and are read lock-free by anyone. The low-rate parts (state reason,
// response rings, inspector buffer, last parse error) are guarded by `mutex`; the worker
// takes it only on state changes, responses, parse errors, and per message only while
// somebody inspects the stream (inspecting is a relaxed load otherwise).
// Owned through a shared_ptr by the session (worker) and the facade, so either may go first.
//
// Change stamp: a reader that polls many streams skips the ones whose changeStamp() is the one
// it saw last time (Engine::changedSnapshots). The stamp is the message count and a count of
// changes: every setter below adds one, after it wrote, and the session's tick (publishTick())
// adds one when any figure it or the hot path published differs from the last tick's. The hot
// path writes nothing more for it. The setters' changes are also counted apart (`details`): a
// reader whose last reading has the current details refreshes only the figures
// (refreshFigures), without copying the names, reasons and lists again.

#include "ClockShared.h"
#include "FreshnessShared.h"
#include "LatencyHistogram.h"
#include "StreamCommands.h"
#include "StreamCounters.h"
#include "model/BookStatus.h"
#include "model/InstrumentStatus.h"
#include "model/LastTrade.h"
#include "model/RedactedUrl.h"
#include "model/StreamConfig.h"
#include "model/StreamRecords.h"

#include <QtCore/QMutex>
#include <QtCore/QMutexLocker>
#include <QtCore/QVector>

#include <atomic>
#include <cstdint>
#include <deque>

namespace streamscope {

struct StreamSnapshot;

// Venue counters written on the hot path by the stream's worker (one writer, relaxed).
struct alignas(64) VenueCounters {
    RelaxedCounter updates;
    RelaxedCounter segments;
    RelaxedCounter conflated;
    RelaxedCounter images;
    RelaxedCounter resubDeltas;
    RelaxedCounter incompleteImages; // Betfair: a segmented change interrupted before its SEG_END
    RelaxedCounter duplicateMarkets; // Betfair: a market seen again in the same image
    RelaxedCounter status503;
    RelaxedCounter staleAlarms;
    RelaxedCounter duplicates;
    RelaxedCounter rollovers;
    RelaxedCounter serverShutdowns;
    RelaxedCounter sequenceResets; // the venue restarted a sequence legally (OKX: seqId below prevSeqId)
    RelaxedCounter venueErrors;    // error messages in the venue's own words (a refused subscription)
    RelaxedCounter venueNotices;   // notices in the venue's own words (a coming maintenance)
    RelaxedCounter outgoingMessages;
    RelaxedCounter outgoingPings;
    RelaxedValue<int> outgoingQueued;
    RelaxedValue<int> outgoingLimitPerS;
    RelaxedValue<int> outgoingPeakPerS;
    RelaxedValue<bool> conflatedUnrequested;
    RelaxedValue<bool> rolloverInProgress;
    RelaxedValue<std::int64_t> heartbeatMs;
    RelaxedValue<std::int64_t> conflateMs;     // -1 until echoed
    RelaxedValue<std::int64_t> initialImageMs; // Betfair: subscription sent → its image complete; -1 none yet
    RelaxedValue<int> imageMarkets;            // Betfair: markets in the last complete image
};

// Low-rate venue details, set under the mutex.
struct VenueDetails {
    QString connectionId;
    int connectionsAvailable = -1;
    QString clk;
    QString initialClk;
    QString errorCode;
    QString errorMessage;
    QString notice;            // the last venue notice, escaped (model/PeerText.h)
    KeepAliveStatus keepAlive; // Betfair's session keep-alive
    int subscriptionCount = 0;
    QVector<ConnectionInfo> connections;
    QVector<RateLimitInfo> rateLimits;
};

class StreamShared {
public:
    static constexpr int kResponseRingCapacity = 200;

    StreamShared(StreamId id, const StreamConfig &config)
        : id(id)
    {
        venue.conflateMs.store(-1);
        venue.initialImageMs.store(-1);
        setConfig(config);
    }

    const StreamId id;

    StreamCounters counters;
    VenueCounters venue;
    LatencyHistogram latency;
    LatencyHistogram latencyCorrected; // receive time + clock offset − event time, once an offset is known
    ClockShared clock;
    FreshnessShared freshness;
    std::atomic<StreamState> state{StreamState::Idle};
    std::atomic<bool> inspecting{false};
    // Stop and restart on their way to the worker (StreamCommands.h).
    StreamCommands commands;

    // What a poll compares (see above): equal stamps, an equal reading but for its time.
    struct ChangeStamp {
        std::uint64_t messages = 0;
        std::uint64_t changes = 0;
        std::uint64_t details = 0; // the setters' changes alone (the parts under the mutex)
        bool operator==(const ChangeStamp &o) const
        {
            return messages == o.messages && changes == o.changes && details == o.details;
        }
        bool operator!=(const ChangeStamp &o) const { return !(*this == o); }
    };
    // Load it before reading the figures: a change made meanwhile shows in the next stamp.
    ChangeStamp changeStamp() const
    {
        return ChangeStamp{counters.messages.load(), m_changes.load(std::memory_order_acquire),
                           m_details.load(std::memory_order_acquire)};
    }
    // The worker's tick: one more change when a published figure moved since the last tick.
    void publishTick();

    // Called on the worker only.
    void setState(StreamState s, const QString &reason, qint64 nowMs, qint64 nextRetryAtMs = 0);
    void pushResponse(bool isError, ResponseRecord record);
    void setParseError(const QString &error, const char *data, qsizetype len);
    void setLastCloseCode(int code);
    void inspect(qint64 receivedMs, double latencyMs, const char *data, qsizetype len);
    void pushGap(GapRecord gap);
    // The stream's order books as they are now (session/BookKeeper, on the tick when they changed).
    void setBooks(QVector<BookStatus> books)
    {
        {
            QMutexLocker lock(&m_mutex);
            m_books = std::move(books);
        }
        changed();
    }
    // The stream's instruments as they are now (session/InstrumentWatch, on the tick when they
    // changed, at most once a second for their counts alone), and the data messages that named
    // an instrument it does not track.
    // Their counts move every second on a live stream: a change of the figures (refreshFigures
    // copies them), not of the details.
    void setInstruments(QVector<InstrumentStatus> instruments, quint64 untracked)
    {
        {
            QMutexLocker lock(&m_mutex);
            m_instruments = std::move(instruments);
            m_instrumentsUntracked = untracked;
        }
        m_changes.fetch_add(1, std::memory_order_release);
    }
    // The last trade prices compared across venues (session/LastTradeKeeper, on the tick when
    // they changed).
    void setLastTrades(QVector<LastTrade> trades)
    {
        QMutexLocker lock(&m_mutex);
        m_lastTrades = std::move(trades);
    }
    // Runs `edit` on the venue details under the mutex (low rate only).
    template<typename F>
    void editVenue(F &&edit)
    {
        {
            QMutexLocker lock(&m_mutex);
            edit(m_venue);
        }
        changed();
    }

    // What snapshots show of the configuration (its URL without secrets) and the inspector's
    // capacity: set when the stream is added and when it is edited, which keeps the counters.
    void setConfig(const StreamConfig &config);

    // Called by anyone.
    void fillSnapshot(StreamSnapshot &out, bool withLatency) const;
    // Refreshes a reading whose details (what the other setters write: names, reasons, gaps,
    // books, venue details) are current: the figures only, as fillSnapshot() would fill them
    // (the latency histograms and per-event figures only `withLatency`, else none), the
    // instruments and the last trades. No string or list is copied but those two (shared).
    void refreshFigures(StreamSnapshot &out, bool withLatency) const;
    QVector<ResponseRecord> responses(bool errors) const;
    QVector<InspectedMessage> takeInspected();
    void clearInspected();

private:
    // After a write: the next poll reads the stream again (release: a reader that sees the
    // new count sees what was written before it). Setters run on the worker and the facade.
    void changed()
    {
        m_details.fetch_add(1, std::memory_order_release);
        m_changes.fetch_add(1, std::memory_order_release);
    }
    std::uint64_t tickDigest() const;
    // Everything but what is under the mutex (fillSnapshot, refreshFigures).
    void fillFigures(StreamSnapshot &out, bool withLatency) const;

    std::atomic<std::uint64_t> m_changes{0};
    std::atomic<std::uint64_t> m_details{0}; // changed() alone
    std::uint64_t m_lastTickDigest = 0;      // the worker's only

    mutable QMutex m_mutex;
    QString m_name;
    RedactedUrl m_shownUrl; // what snapshots show, report and export
    Venue m_venueKind = Venue::Generic;
    DecodeMode m_mode = DecodeMode::Parsed;
    int m_inspectorCapacity = 1;
    QString m_reason;
    qint64 m_stateSinceMs = 0;
    qint64 m_nextRetryAtMs = 0;
    int m_lastCloseCode = 0;
    QString m_lastParseError;
    QByteArray m_lastBadMessage;
    std::deque<ResponseRecord> m_results;
    std::deque<ResponseRecord> m_errors;
    std::deque<InspectedMessage> m_inspected;
    std::deque<GapRecord> m_gaps;
    VenueDetails m_venue;
    QVector<BookStatus> m_books;
    QVector<InstrumentStatus> m_instruments;
    quint64 m_instrumentsUntracked = 0;
    QVector<LastTrade> m_lastTrades;
};

} // namespace streamscope
