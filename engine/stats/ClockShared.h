#pragma once

// One stream's clock figures as its worker publishes them (see model/ClockEstimate.h for
// what they mean): the offset to the venue's clock, its source and uncertainty, the latency
// floor, the server-time sample counts, and the last explanation given.
//
// Thread contract: one writer, the stream's worker, on its housekeeping tick (never per
// message); read lock-free by anyone. The figures are separate atomics, so a reader racing a
// tick may see the new offset with the old uncertainty for one sample; the note and the URL
// are guarded by their own mutex (low rate).

#include "RelaxedCounter.h"
#include "model/ClockEstimate.h"

#include <QtCore/QMutex>
#include <QtCore/QMutexLocker>

namespace streamscope {

class alignas(64) ClockShared {
public:
    RelaxedValue<int> source; // ClockOffsetSource
    RelaxedValue<std::int64_t> offsetUs;
    RelaxedValue<std::int64_t> uncertaintyUs; // -1 unknown
    RelaxedValue<bool> hasFloor;
    RelaxedValue<std::int64_t> floorUs;
    RelaxedValue<std::uint64_t> serverTimeSamples;
    RelaxedValue<std::uint64_t> serverTimeErrors;

    void setNote(const QString &note)
    {
        QMutexLocker lock(&m_mutex);
        m_note = note;
        m_texts.add();
    }
    void setServerTimeUrl(const RedactedUrl &url)
    {
        QMutexLocker lock(&m_mutex);
        m_serverTimeUrl = url;
        m_texts.add();
    }

    void setServerTimeError(const QString &error)
    {
        QMutexLocker lock(&m_mutex);
        m_serverTimeError = error;
        m_texts.add();
    }

    // Changes when any figure does (StreamShared::publishTick); the worker's only.
    std::uint64_t digest() const
    {
        std::uint64_t h = 1469598103934665603ull;
        for (const std::uint64_t v :
             {std::uint64_t(source.load()), std::uint64_t(offsetUs.load()), std::uint64_t(uncertaintyUs.load()),
              std::uint64_t(hasFloor.load()), std::uint64_t(floorUs.load()), serverTimeSamples.load(),
              serverTimeErrors.load(), m_texts.load()})
            h = (h ^ v) * 1099511628211ull;
        return h;
    }

    void fill(ClockEstimate &out) const
    {
        out.source = ClockOffsetSource(source.load());
        out.offsetMs = double(offsetUs.load()) / 1000.0;
        const std::int64_t u = uncertaintyUs.load();
        out.uncertaintyMs = u < 0 ? -1.0 : double(u) / 1000.0;
        out.hasFloor = hasFloor.load();
        out.latencyFloorMs = double(floorUs.load()) / 1000.0;
        out.serverTimeSamples = serverTimeSamples.load();
        out.serverTimeErrors = serverTimeErrors.load();
        QMutexLocker lock(&m_mutex);
        out.note = m_note;
        out.serverTimeUrl = m_serverTimeUrl;
        out.serverTimeError = m_serverTimeError;
    }

private:
    RelaxedCounter m_texts; // the setters above, for digest()
    mutable QMutex m_mutex;
    QString m_note;
    RedactedUrl m_serverTimeUrl;
    QString m_serverTimeError;
};

} // namespace streamscope
