#include "AlertMonitor.h"

#include "ValueFormat.h"

#include <algorithm>
#include <cmath>

namespace streamscope::alerts {

AlertMonitor::AlertMonitor(QObject *parent)
    : QObject(parent)
{
}

void AlertMonitor::setRules(const QVector<AlertRule> &rules)
{
    m_rules = rules;
    emit rulesChanged();
}

AlertRule AlertMonitor::ruleFor(const QString &stream) const
{
    const AlertRule *any = nullptr;
    for (const AlertRule &r : m_rules) {
        if (r.stream == stream)
            return r;
        if (r.stream == AlertRule::kAnyStream)
            any = &r;
    }
    if (any) {
        AlertRule r = *any;
        return r;
    }
    AlertRule none;
    none.stream = stream;
    return none;
}

void AlertMonitor::setRule(const QString &stream, const AlertRule &rule)
{
    AlertRule r = rule;
    r.stream = stream;
    for (int i = 0; i < m_rules.size(); ++i) {
        if (m_rules[i].stream == stream) {
            if (m_rules[i] == r)
                return;
            if (r.isEmpty() && stream != AlertRule::kAnyStream)
                m_rules.removeAt(i);
            else
                m_rules[i] = r;
            emit rulesChanged();
            return;
        }
    }
    if (r.isEmpty() && ruleFor(stream).isEmpty())
        return;
    m_rules.append(r); // an explicit empty rule overrides "*"
    emit rulesChanged();
}

void AlertMonitor::renameStream(const QString &from, const QString &to)
{
    for (AlertRule &r : m_rules) {
        if (r.stream == from) {
            r.stream = to;
            emit rulesChanged();
            return;
        }
    }
}

void AlertMonitor::forget(StreamId id)
{
    m_streams.remove(id);
}

QString AlertMonitor::activeText(StreamId id) const
{
    const auto it = m_streams.constFind(id);
    if (it == m_streams.cend())
        return {};
    QStringList parts;
    for (const ConditionState &c : it->conditions) {
        if (c.active)
            parts.append(c.text);
    }
    return parts.join(QStringLiteral("; "));
}

QString AlertMonitor::conditionName(int condition)
{
    switch (Condition(condition)) {
    case Condition::RateLow: return QStringLiteral("rate_below");
    case Condition::LatencyHigh: return QStringLiteral("p99_above_ms");
    case Condition::Silent: return QStringLiteral("silent_s");
    case Condition::Gaps: return QStringLiteral("gaps");
    case Condition::BookDesync: return QStringLiteral("book_desync");
    case Condition::BookCrossed: return QStringLiteral("book_crossed");
    case Condition::InstrumentStale: return QStringLiteral("instrument_stale");
    case Condition::CrossVenueApart: return QStringLiteral("cross_venue_bps");
    case Condition::CrossVenueFrozen: return QStringLiteral("cross_venue_frozen");
    case Condition::Count: break;
    }
    return QStringLiteral("unknown");
}

int AlertMonitor::activeCount(StreamId id) const
{
    const auto it = m_streams.constFind(id);
    if (it == m_streams.cend())
        return 0;
    int n = 0;
    for (const ConditionState &c : it->conditions)
        n += c.active ? 1 : 0;
    return n;
}

qint64 AlertMonitor::conditionSinceMs(StreamId id, int condition) const
{
    const auto it = m_streams.constFind(id);
    if (it == m_streams.cend() || condition < 0 || condition >= int(Condition::Count))
        return 0;
    return it->conditions[size_t(condition)].episodeSinceMs;
}

int AlertMonitor::activeCount() const
{
    int n = 0;
    for (const StreamAlerts &s : m_streams) {
        for (const ConditionState &c : s.conditions)
            n += c.active ? 1 : 0;
    }
    return n;
}

void AlertMonitor::evaluate(StreamId id, const QString &name, const Sample &sample, qint64 nowMs)
{
    const AlertRule rule = ruleFor(name);
    StreamAlerts &st = m_streams[id];
    if (!st.seen) {
        st.seen = true;
        st.lastGaps = sample.gaps;
        st.lastBookResyncs = sample.bookResyncs;
        st.lastBookCrossed = sample.bookCrossedEpisodes;
        st.lastInstrumentStale = sample.instrumentStaleEpisodes;
    }
    if (sample.gaps > st.lastGaps)
        st.lastGapMs = nowMs;
    const quint64 newGaps = sample.gaps > st.lastGaps ? sample.gaps - st.lastGaps : 0;
    st.lastGaps = sample.gaps;
    // A book that lost sync and synced again between two samples still makes an episode: it
    // holds kGapHoldMs after the last resync, as a gap does.
    if (sample.bookResyncs > st.lastBookResyncs)
        st.lastBookResyncMs = nowMs;
    st.lastBookResyncs = sample.bookResyncs;
    if (sample.bookCrossedEpisodes > st.lastBookCrossed)
        st.lastBookCrossedMs = nowMs;
    st.lastBookCrossed = sample.bookCrossedEpisodes;
    // An instrument that went stale and spoke again between two samples still makes an episode.
    const bool newStale = sample.instrumentStaleEpisodes > st.lastInstrumentStale;
    st.lastInstrumentStale = sample.instrumentStaleEpisodes;

    // A stream the user stopped raises nothing, and its alerts end.
    const bool running = sample.state != StreamState::Stopped && sample.state != StreamState::Idle
        && sample.state != StreamState::Unknown;

    std::array<bool, size_t(Condition::Count)> holds{};
    std::array<QString, size_t(Condition::Count)> texts;
    // When a condition began to hold, if it is seen to start now: a silence began silent_s
    // after the last data message, not when this sample noticed it.
    std::array<qint64, size_t(Condition::Count)> startedMs{};
    startedMs.fill(nowMs);
    if (running) {
        if (rule.rateBelow > 0.0 && sample.runningForMs >= kWarmUpMs && sample.msgsPerSec < rule.rateBelow) {
            holds[size_t(Condition::RateLow)] = true;
            texts[size_t(Condition::RateLow)] =
                tr("rate %1 msgs/s below %2").arg(formatRate(sample.msgsPerSec), formatRate(rule.rateBelow));
        }
        if (rule.p99AboveMs > 0.0 && std::isfinite(sample.p99Ms) && sample.p99Ms > rule.p99AboveMs) {
            holds[size_t(Condition::LatencyHigh)] = true;
            texts[size_t(Condition::LatencyHigh)] =
                tr("latency p99 %1 above %2").arg(formatLatencyMs(sample.p99Ms), formatLatencyMs(rule.p99AboveMs));
        }
        if (rule.silentS > 0 && sample.silentMs >= qint64(rule.silentS) * 1000) {
            holds[size_t(Condition::Silent)] = true;
            texts[size_t(Condition::Silent)] = tr("silent for %1").arg(formatAgeMs(sample.silentMs));
            startedMs[size_t(Condition::Silent)] =
                std::min(nowMs, nowMs - sample.silentMs + qint64(rule.silentS) * 1000);
        }
        if (rule.gaps && st.lastGapMs > 0 && nowMs - st.lastGapMs < kGapHoldMs) {
            holds[size_t(Condition::Gaps)] = true;
            texts[size_t(Condition::Gaps)] =
                newGaps > 0 ? countNoun(newGaps, tr("sequence gap"), tr("sequence gaps")) : tr("sequence gaps");
        }
        const auto recent = [nowMs](qint64 lastMs) { return lastMs > 0 && nowMs - lastMs < kGapHoldMs; };
        if (rule.bookDesync && (!sample.booksDesynced.isEmpty() || recent(st.lastBookResyncMs))) {
            holds[size_t(Condition::BookDesync)] = true;
            texts[size_t(Condition::BookDesync)] = sample.booksDesynced.isEmpty()
                ? tr("order book resynced")
                : tr("order book out of sync: %1").arg(sample.booksDesynced.mid(0, 5).join(QStringLiteral(", ")));
        }
        if (rule.bookCrossed && (!sample.booksCrossed.isEmpty() || recent(st.lastBookCrossedMs))) {
            holds[size_t(Condition::BookCrossed)] = true;
            texts[size_t(Condition::BookCrossed)] = sample.booksCrossed.isEmpty()
                ? tr("order book was crossed")
                : tr("order book crossed: %1").arg(sample.booksCrossed.mid(0, 5).join(QStringLiteral(", ")));
        }
        if (rule.instrumentStale && (!sample.instrumentsStale.isEmpty() || newStale)) {
            holds[size_t(Condition::InstrumentStale)] = true;
            const qsizetype n = sample.instrumentsStale.size();
            texts[size_t(Condition::InstrumentStale)] = n == 0
                ? tr("an instrument went quiet")
                : tr("instrument%1 stale: %2%3")
                      .arg(n > 1 ? QStringLiteral("s") : QString(),
                           sample.instrumentsStale.mid(0, 5).join(QStringLiteral(", ")),
                           n > 5 ? tr(" and %1 more").arg(n - 5) : QString());
        }
        if (rule.crossVenueBps > 0.0 && std::isfinite(sample.crossVenueBps)
            && std::abs(sample.crossVenueBps) > rule.crossVenueBps) {
            holds[size_t(Condition::CrossVenueApart)] = true;
            texts[size_t(Condition::CrossVenueApart)] = tr("%1 %2 bps from the other venues' median (limit %3)")
                                                            .arg(sample.crossVenueInstrument)
                                                            .arg(sample.crossVenueBps, 0, 'f', 1)
                                                            .arg(rule.crossVenueBps);
        }
        if (rule.crossVenueFrozen && !sample.crossVenueFrozen.isEmpty()) {
            holds[size_t(Condition::CrossVenueFrozen)] = true;
            texts[size_t(Condition::CrossVenueFrozen)] =
                tr("price frozen while the other venues move: %1")
                    .arg(sample.crossVenueFrozen.mid(0, 5).join(QStringLiteral(", ")));
        }
    }

    const qint64 forMs = qint64(rule.forS) * 1000;
    const qint64 clearAfterMs = qint64(rule.clearAfterS) * 1000;
    for (size_t i = 0; i < holds.size(); ++i) {
        ConditionState &c = st.conditions[i];
        if (holds[i]) {
            c.lastTrueMs = nowMs;
            if (c.trueSinceMs == 0)
                c.trueSinceMs = startedMs[i];
            if (!c.active && nowMs - c.trueSinceMs >= forMs) {
                c.active = true;
                c.text = texts[i];
                c.episodeSinceMs = c.trueSinceMs;
                emit alertRaised(id, name, c.text, int(i));
            } else if (c.active && (Condition(i) != Condition::Gaps || newGaps > 0)) {
                c.text = texts[i]; // keep the figure current, no new notification
            }
        } else {
            c.trueSinceMs = 0; // for_s counts an unbroken run
            if (c.active && (!running || nowMs - c.lastTrueMs >= clearAfterMs)) {
                c.active = false;
                emit alertCleared(id, name, c.text, int(i));
            }
        }
    }
}

} // namespace streamscope::alerts
