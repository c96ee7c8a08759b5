#include "AlertTrail.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace streamscope::alerts {

namespace {

template<typename T>
T saturate(qint64 v)
{
    return T(std::clamp<qint64>(v, 0, qint64(std::numeric_limits<T>::max())));
}

// How much a total grew since the last sample, saturating at 255 (a total that went back counts 0).
quint8 newSince(quint64 total, quint64 last)
{
    return quint8(total > last ? std::min<quint64>(total - last, 255) : 0);
}

} // namespace

void AlertTrail::record(StreamId id, const QString &name, const AlertMonitor::Sample &sample, qint64 nowMs)
{
    Trail &t = m_streams[id];
    if (t.ring.empty()) {
        t.ring.resize(kCapacity);
        t.lastGaps = sample.gaps;
        t.lastBookResyncs = sample.bookResyncs;
        t.lastBookCrossed = sample.bookCrossedEpisodes;
        t.lastInstrumentStale = sample.instrumentStaleEpisodes;
        t.firstMs = nowMs;
        t.lastMs = nowMs;
    }
    t.name = name;
    Packed p;
    p.msgsPerSec = float(sample.msgsPerSec);
    p.p99Ms = float(sample.p99Ms);
    p.silentDs = saturate<quint32>(sample.silentMs / 100);
    p.atDeltaMs = saturate<quint32>(nowMs - t.lastMs);
    p.runningForS = saturate<quint16>(sample.runningForMs / 1000);
    p.newGaps = newSince(sample.gaps, t.lastGaps);
    p.state = quint8(sample.state);
    p.newBookResyncs = newSince(sample.bookResyncs, t.lastBookResyncs);
    p.newBookCrossed = newSince(sample.bookCrossedEpisodes, t.lastBookCrossed);
    p.booksDesynced = saturate<quint8>(sample.booksDesynced.size());
    p.booksCrossed = saturate<quint8>(sample.booksCrossed.size());
    if (!sample.booksDesynced.isEmpty())
        t.desyncedNames = sample.booksDesynced.mid(0, 5);
    if (!sample.booksCrossed.isEmpty())
        t.crossedNames = sample.booksCrossed.mid(0, 5);
    p.newInstrumentStale = newSince(sample.instrumentStaleEpisodes, t.lastInstrumentStale);
    p.instrumentsStale = saturate<quint8>(sample.instrumentsStale.size());
    if (!sample.instrumentsStale.isEmpty())
        t.staleNames = sample.instrumentsStale.mid(0, 5);
    t.lastInstrumentStale = sample.instrumentStaleEpisodes;
    t.lastGaps = sample.gaps;
    t.lastBookResyncs = sample.bookResyncs;
    t.lastBookCrossed = sample.bookCrossedEpisodes;
    if (t.count == kCapacity) // the oldest goes: the trail starts at the next one
        t.firstMs += t.ring[size_t((t.head + 1) % kCapacity)].atDeltaMs;
    t.ring[size_t(t.head)] = p;
    t.head = (t.head + 1) % kCapacity;
    t.count = std::min(t.count + 1, kCapacity);
    t.lastMs = nowMs;
}

qint64 AlertTrail::spanMs() const
{
    qint64 span = 0;
    for (const Trail &t : m_streams)
        span = std::max(span, t.lastMs - t.firstMs);
    return span;
}

QVector<AlertTrail::Episode> AlertTrail::preview(const AlertRule &rule,
                                                 const std::function<bool(const QString &)> &applies) const
{
    QVector<Episode> episodes;
    for (auto it = m_streams.cbegin(); it != m_streams.cend(); ++it) {
        const Trail &t = it.value();
        if (!applies(t.name))
            continue;
        AlertMonitor monitor;
        AlertRule own = rule;
        own.stream = t.name;
        monitor.setRules({own});
        QHash<int, int> open; // condition -> index in episodes
        QObject::connect(&monitor, &AlertMonitor::alertRaised, &monitor,
                         [&](StreamId id, const QString &stream, const QString &text, int condition) {
                             Episode e;
                             e.id = id;
                             e.stream = stream;
                             e.condition = condition;
                             e.sinceMs = monitor.conditionSinceMs(id, condition);
                             e.text = text;
                             open.insert(condition, int(episodes.size()));
                             episodes.append(e);
                         });
        qint64 nowMs = t.firstMs;
        QObject::connect(&monitor, &AlertMonitor::alertCleared, &monitor,
                         [&](StreamId, const QString &, const QString &, int condition) {
                             if (const auto o = open.find(condition); o != open.end()) {
                                 episodes[o.value()].clearedMs = nowMs;
                                 open.erase(o);
                             }
                         });
        quint64 gaps = 0;
        quint64 resyncs = 0;
        quint64 crossed = 0;
        quint64 staleEpisodes = 0;
        for (int i = 0; i < t.count; ++i) {
            const Packed &p = t.ring[size_t((t.head - t.count + i + kCapacity) % kCapacity)];
            if (i > 0)
                nowMs += p.atDeltaMs;
            gaps += p.newGaps;
            resyncs += p.newBookResyncs;
            crossed += p.newBookCrossed;
            staleEpisodes += p.newInstrumentStale;
            AlertMonitor::Sample s;
            s.state = StreamState(p.state);
            s.msgsPerSec = p.msgsPerSec;
            s.p99Ms = p.p99Ms;
            s.silentMs = qint64(p.silentDs) * 100;
            s.gaps = gaps;
            s.runningForMs = qint64(p.runningForS) * 1000;
            s.bookResyncs = resyncs;
            s.bookCrossedEpisodes = crossed;
            s.booksDesynced = t.desyncedNames.mid(0, p.booksDesynced);
            s.booksCrossed = t.crossedNames.mid(0, p.booksCrossed);
            s.instrumentStaleEpisodes = staleEpisodes;
            s.instrumentsStale = t.staleNames.mid(0, p.instrumentsStale);
            const qsizetype before = episodes.size();
            monitor.evaluate(it.key(), t.name, s, nowMs);
            for (qsizetype k = before; k < episodes.size(); ++k)
                episodes[k].raisedMs = nowMs;
        }
    }
    std::sort(episodes.begin(), episodes.end(),
              [](const Episode &a, const Episode &b) { return a.raisedMs < b.raisedMs; });
    return episodes;
}

} // namespace streamscope::alerts
