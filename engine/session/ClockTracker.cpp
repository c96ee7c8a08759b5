#include "ClockTracker.h"

#include "stats/ClockShared.h"

#include <cstdlib>

namespace streamscope {

namespace {

QString ms(qint64 us)
{
    const double v = double(std::llabs(us)) / 1000.0;
    return QString::number(v, 'f', v >= 10 ? 0 : 1) + QStringLiteral(" ms");
}

} // namespace

ClockTracker::ClockTracker(ClockShared &out)
    : m_out(out)
{
    m_out.uncertaintyUs.store(-1);
}

void ClockTracker::setProbe(std::shared_ptr<ServerTimeProbe> probe)
{
    m_probe = std::move(probe);
    m_out.setServerTimeUrl(m_probe ? RedactedUrl::of(m_probe->url()) : RedactedUrl());
    m_out.setServerTimeError(m_probe ? m_probe->lastError() : QString());
    m_updated = false;
}

QString ClockTracker::explanation(bool serverTime, qint64 offsetUs, qint64 uncertaintyUs, qint64 floorUs) const
{
    if (!serverTime)
        return QStringLiteral("clock behind the venue by at least %1 (latency floor %2%3 over the last minute; no "
                              "server time)")
            .arg(ms(-floorUs), floorUs < 0 ? QStringLiteral("−") : QString(), ms(floorUs));
    QString text = QStringLiteral("clock %1 the venue by ~%2 (server time, ±%3)")
                       .arg(offsetUs >= 0 ? QStringLiteral("behind") : QStringLiteral("ahead of"), ms(offsetUs),
                            ms(uncertaintyUs));
    if (floorUs < 0)
        text += QStringLiteral(": negative latencies (down to −%1) come from it").arg(ms(floorUs));
    return text;
}

QString ClockTracker::tick(qint64 nowMs)
{
    m_floor.tick(nowMs);
    if (m_updated && nowMs - m_lastUpdateMs < kUpdateIntervalMs)
        return {};
    m_updated = true;
    m_lastUpdateMs = nowMs;

    const std::optional<qint64> floor = m_floor.floorUs();
    m_out.hasFloor.store(floor.has_value());
    m_out.floorUs.store(floor.value_or(0));
    std::optional<ServerTimeProbe::Estimate> estimate;
    if (m_probe) {
        estimate = m_probe->estimate();
        m_out.serverTimeSamples.store(m_probe->samples());
        if (m_probe->errors() != m_out.serverTimeErrors.load())
            m_out.setServerTimeError(m_probe->lastError());
        m_out.serverTimeErrors.store(m_probe->errors());
    }

    // While the first server-time answer is awaited, nothing is corrected or explained with a guess.
    const bool awaitingServerTime = m_probe && m_probe->samples() == 0 && m_probe->errors() == 0;
    ClockOffsetSource source = ClockOffsetSource::Unknown;
    qint64 uncertaintyUs = -1;
    if (estimate) {
        source = ClockOffsetSource::ServerTime;
        m_offsetUs = estimate->offsetUs;
        uncertaintyUs = estimate->uncertaintyUs;
    } else if (floor && !awaitingServerTime) {
        source = ClockOffsetSource::LatencyFloor;
        m_offsetUs = *floor < 0 ? -*floor : 0;
    } else {
        m_offsetUs = 0;
    }
    m_correcting = source != ClockOffsetSource::Unknown;
    m_out.offsetUs.store(m_offsetUs);
    m_out.uncertaintyUs.store(uncertaintyUs);
    m_out.source.store(int(source));

    // Explain negative latencies always, and a large offset that the estimate is sure of.
    const bool negative = floor && *floor < 0;
    const bool large = source == ClockOffsetSource::ServerTime && std::llabs(m_offsetUs) >= kExplainOffsetUs
        && std::llabs(m_offsetUs) > 2 * uncertaintyUs;
    if ((!negative && !large) || awaitingServerTime)
        return {};
    const bool first = m_notedSource == 0;
    const bool sourceChanged = m_notedSource != int(source);
    const qint64 change = std::llabs(m_offsetUs - m_notedOffsetUs);
    const bool moved = change > std::max<qint64>(kExplainOffsetUs, std::llabs(m_notedOffsetUs) / 5)
        && nowMs - m_notedAtMs >= kNoteIntervalMs;
    if (!first && !sourceChanged && !moved)
        return {};
    m_notedSource = int(source);
    m_notedOffsetUs = m_offsetUs;
    m_notedAtMs = nowMs;
    const QString note =
        explanation(source == ClockOffsetSource::ServerTime, m_offsetUs, uncertaintyUs, floor.value_or(0));
    m_out.setNote(note);
    return note;
}

} // namespace streamscope
