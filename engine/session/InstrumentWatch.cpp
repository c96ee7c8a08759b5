#include "InstrumentWatch.h"

#include "model/StreamConfig.h"
#include "protocol/DecodeSpec.h"

#include <algorithm>

namespace streamscope {

bool InstrumentWatch::wanted(const StreamConfig &config, const DecodeSpec &spec)
{
    return config.mode == DecodeMode::Parsed && config.latencyField.isEmpty() && spec.reads(FieldRole::Symbol);
}

InstrumentWatch::Index::Item *InstrumentWatch::add(std::string_view symbol)
{
    Index::Item *item = m_index.add(symbol);
    if (item) {
        m_dirty = true;
        m_changes.reserve(std::size_t(m_index.size()));
    }
    return item;
}

void InstrumentWatch::connected(qint64 nowMs)
{
    for (const auto &item : m_index.items()) {
        Entry &e = item->value;
        e.learner.connected(nowMs);
        e.lastDataMs = nowMs;
        e.past = false;
    }
}

bool InstrumentWatch::tick(qint64 nowMs, bool live)
{
    m_changes.clear();
    quint64 messages = 0;
    // Who spoke since the last tick: learned, and its silence starts over.
    for (const auto &item : m_index.items()) {
        Entry &e = item->value;
        messages += e.messages;
        if (e.messages == e.seenMessages)
            continue;
        e.seenMessages = e.messages;
        // A silence that went past the threshold is no usual gap: it is not learned.
        if (e.past)
            e.learner.connected(nowMs);
        e.learner.onData(nowMs);
        e.lastDataMs = nowMs;
        e.past = false;
        e.counted = false;
        const std::optional<qint64> usual = e.learner.usualGapMs();
        e.thresholdMs = usual ? std::max(SilenceLearner::kMinAlarmMs, SilenceLearner::kFactor * *usual) : -1;
    }
    // Who is silent past its threshold, and who is live: learned and within its threshold, or
    // not learned yet (then live within the silent one's threshold: the latest of those).
    int liveLearned = 0;
    qint64 lastUnlearnedMs = -1;
    for (const auto &item : m_index.items()) {
        Entry &e = item->value;
        if (e.thresholdMs < 0) {
            lastUnlearnedMs = std::max(lastUnlearnedMs, e.lastDataMs);
            continue;
        }
        e.past = nowMs - e.lastDataMs > e.thresholdMs;
        if (!e.past)
            ++liveLearned;
    }
    const auto &items = m_index.items();
    for (std::size_t i = 0; i < items.size(); ++i) {
        Entry &e = items[i]->value;
        // It is not live itself when past its threshold, so liveLearned counts the others.
        const bool othersLive = liveLearned > 0 || (lastUnlearnedMs >= 0 && nowMs - lastUnlearnedMs <= e.thresholdMs);
        const bool stale = live && e.thresholdMs >= 0 && e.past && othersLive;
        if (stale == e.stale)
            continue;
        e.stale = stale;
        // One episode a silence, however often the stream's own state hides and shows it.
        if (stale && !e.counted) {
            ++e.staleEpisodes;
            e.counted = true;
        }
        m_changes.push_back(
            Change{int(i), stale, nowMs - e.lastDataMs, e.learner.usualGapMs().value_or(-1), e.thresholdMs});
        m_dirty = true;
    }
    const bool due = m_dirty
        || ((messages != m_publishedMessages || m_untracked != m_publishedUntracked)
            && (m_publishedMs < 0 || nowMs - m_publishedMs >= kPublishMs));
    if (due) {
        m_dirty = false;
        m_publishedMs = nowMs;
        m_publishedMessages = messages;
        m_publishedUntracked = m_untracked;
    }
    return due;
}

QVector<InstrumentStatus> InstrumentWatch::statuses() const
{
    QVector<InstrumentStatus> out;
    out.reserve(m_index.size());
    for (const auto &item : m_index.items()) {
        const Entry &e = item->value;
        InstrumentStatus s;
        s.instrument = QString::fromLatin1(item->key);
        s.messages = e.messages;
        s.stale = e.stale;
        s.staleEpisodes = e.staleEpisodes;
        s.usualGapMs = e.learner.usualGapMs().value_or(-1);
        out.append(s);
    }
    return out;
}

} // namespace streamscope
