#pragma once

// Evaluates the alert rules once a second against values derived from the engine's
// snapshots (StreamFigures: the desktop app's stream table and headless mode alike) and
// reports episodes: alertRaised() once when a condition has held for the rule's for_s,
// alertCleared() once when it has stopped holding for the rule's clear_after_s (default
// kClearAfterMs, so a rate hovering around its threshold does not raise a notification per
// second). Thread contract: one thread, the one that owns it (the GUI or headless main thread).

#include "AlertRule.h"
#include "StreamTypes.h"

#include <QtCore/QHash>
#include <QtCore/QObject>
#include <QtCore/QStringList>

#include <array>

namespace streamscope::alerts {

class AlertMonitor : public QObject {
    Q_OBJECT
public:
    static constexpr qint64 kClearAfterMs = AlertRule::kDefaultClearAfterS * 1000;
    static constexpr qint64 kWarmUpMs = 5000;   // rate rules wait this long after a (re)start
    static constexpr qint64 kGapHoldMs = 10000; // a gap episode lasts this long after the last gap

    enum class Condition {
        RateLow = 0,
        LatencyHigh,
        Silent,
        Gaps,
        BookDesync,
        BookCrossed,
        InstrumentStale,
        CrossVenueApart,
        CrossVenueFrozen,
        Count
    };
    // "rate_below", "p99_above_ms", "silent_s", "gaps", "book_desync", "book_crossed",
    // "instrument_stale", "cross_venue_bps", "cross_venue_frozen": the rule key behind a condition.
    static QString conditionName(int condition);

    struct Sample {
        StreamState state = StreamState::Unknown;
        double msgsPerSec = 0.0;
        double p99Ms = qQNaN();
        qint64 silentMs = 0;     // since the last data message (or since the stream started)
        quint64 gaps = 0;        // total
        qint64 runningForMs = 0; // since the stream was added or last restarted
        // Order books (docs/books.md), over the stream's instruments: totals, and those now
        // desynced or resyncing, and crossed (their names, for the alert's text).
        quint64 bookResyncs = 0;
        quint64 bookCrossedEpisodes = 0;
        QStringList booksDesynced;
        QStringList booksCrossed;
        // Instruments of a combined stream (docs/freshness.md, "Instruments that go quiet"): the
        // stale episodes' total, and those stale now (their names, escaped, for the text).
        quint64 instrumentStaleEpisodes = 0;
        QStringList instrumentsStale;
        // One instrument across venues (CrossVenueMonitor): the stream's largest deviation from
        // the median of the other venues' prices (mid, else last trade), in bps (NaN: none
        // compared), its instrument, and
        // the instruments whose price froze on this stream while the others moved.
        double crossVenueBps = qQNaN();
        QString crossVenueInstrument;
        QStringList crossVenueFrozen;
    };

    explicit AlertMonitor(QObject *parent = nullptr);

    const QVector<AlertRule> &rules() const { return m_rules; }
    void setRules(const QVector<AlertRule> &rules);
    // The rule for a stream: its own, else the "*" rule, else an empty one.
    AlertRule ruleFor(const QString &stream) const;
    // Replaces (or with an empty rule removes) the stream's own rule.
    void setRule(const QString &stream, const AlertRule &rule);
    void renameStream(const QString &from, const QString &to);

    void evaluate(StreamId id, const QString &name, const Sample &sample, qint64 nowMs);
    void forget(StreamId id);
    // The active conditions of a stream as one line, empty when none.
    QString activeText(StreamId id) const;
    int activeCount() const;
    int activeCount(StreamId id) const;
    // When the condition of the episode raised or cleared last (epoch ms) began to hold: for
    // a silence, the last data message plus silent_s. Valid in a slot of alertRaised or
    // alertCleared and after; 0 when the stream has had no episode of that condition.
    qint64 conditionSinceMs(StreamId id, int condition) const;

signals:
    void rulesChanged();
    // `condition` tells the episodes of one stream apart: the text of an episode keeps its
    // figure current ("silent for 4.7 s" is cleared as "silent for 11 s").
    void alertRaised(streamscope::StreamId id, const QString &stream, const QString &text, int condition);
    void alertCleared(streamscope::StreamId id, const QString &stream, const QString &text, int condition);

private:
    struct ConditionState {
        bool active = false;
        qint64 lastTrueMs = 0;
        qint64 trueSinceMs = 0; // start of the current run of samples where it holds; 0: none
        qint64 episodeSinceMs = 0;
        QString text;
    };
    struct StreamAlerts {
        std::array<ConditionState, size_t(Condition::Count)> conditions{};
        quint64 lastGaps = 0;
        qint64 lastGapMs = 0;
        quint64 lastBookResyncs = 0;
        qint64 lastBookResyncMs = 0;
        quint64 lastBookCrossed = 0;
        qint64 lastBookCrossedMs = 0;
        quint64 lastInstrumentStale = 0;
        bool seen = false;
    };
    QVector<AlertRule> m_rules;
    QHash<StreamId, StreamAlerts> m_streams;
};

} // namespace streamscope::alerts
