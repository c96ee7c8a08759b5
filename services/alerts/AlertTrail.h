#pragma once

// The last ten minutes of what the alert rules were evaluated on, per stream: one
// AlertMonitor::Sample a second (packed, about 14 KB a stream; the instruments a book or
// instrument alert names are the ones last seen, not each second's), and what a rule would have
// raised on them, for the alert-rules editor's preview. A preview replays the samples through
// a fresh AlertMonitor that holds only the rule under edit, so it follows the monitor's own
// logic exactly: for_s, clear_after_s, the rate rule's warm-up, the gap hold.
//
// Thread contract: one thread, the one that owns it (the GUI thread).

#include "AlertMonitor.h"

#include <QtCore/QHash>
#include <QtCore/QVector>

#include <functional>
#include <vector>

namespace streamscope::alerts {

class AlertTrail {
public:
    static constexpr int kCapacity = 600; // samples: ten minutes at one a second

    // One evaluated sample (AlertService::evaluate's), at `nowMs` (epoch).
    void record(StreamId id, const QString &name, const AlertMonitor::Sample &sample, qint64 nowMs);
    void forget(StreamId id) { m_streams.remove(id); }
    void clear() { m_streams.clear(); }
    int streamCount() const { return int(m_streams.size()); }
    // Seconds covered by the longest trail (0 when nothing was recorded).
    qint64 spanMs() const;

    struct Episode {
        StreamId id = kInvalidStreamId;
        QString stream;
        int condition = 0;  // AlertMonitor::Condition
        qint64 sinceMs = 0; // when the condition began to hold (epoch)
        qint64 raisedMs = 0;
        qint64 clearedMs = 0; // 0: still active at the end
        QString text;         // as the notification would have said it when raised
    };
    // The episodes `rule` would have raised, oldest first, on every stream `applies` accepts
    // (by name): for a stream's own rule, that stream; for "*", the streams without their own.
    QVector<Episode> preview(const AlertRule &rule, const std::function<bool(const QString &)> &applies) const;

private:
    struct Packed {
        float msgsPerSec = 0.0f;
        float p99Ms = 0.0f;        // NaN: none
        quint32 silentDs = 0;      // tenths of a second, saturating
        quint32 atDeltaMs = 0;     // since the previous sample, saturating
        quint16 runningForS = 0;   // saturating
        quint8 newGaps = 0;        // since the previous sample, saturating
        quint8 state = 0;          // StreamState
        quint8 newBookResyncs = 0; // since the previous sample, saturating
        quint8 newBookCrossed = 0;
        quint8 booksDesynced = 0; // instruments out of sync now, saturating
        quint8 booksCrossed = 0;
        quint8 newInstrumentStale = 0; // stale episodes since the previous sample, saturating
        quint8 instrumentsStale = 0;   // instruments stale now, saturating
    };
    struct Trail {
        QString name;
        std::vector<Packed> ring;
        int head = 0; // next write
        int count = 0;
        qint64 firstMs = 0; // epoch ms of the oldest sample kept
        qint64 lastMs = 0;
        quint64 lastGaps = 0;
        quint64 lastBookResyncs = 0;
        quint64 lastBookCrossed = 0;
        quint64 lastInstrumentStale = 0;
        // The names of the instruments last seen out of sync or crossed (at most five, as the
        // alert's text shows them): a preview names them from here.
        QStringList desyncedNames;
        QStringList crossedNames;
        QStringList staleNames;
    };
    QHash<StreamId, Trail> m_streams;
};

} // namespace streamscope::alerts
