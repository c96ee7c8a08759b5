#include "EventTypeTracker.h"

#include "stats/FreshnessShared.h"

#include <QtCore/QUrlQuery>

#include <algorithm>
#include <cmath>
#include <memory>

namespace streamscope {

namespace {

// Median and median absolute deviation of `n` spacings, in the stream's units.
void medianAndSpread(const std::int64_t *spacings, int n, double &median, double &spread)
{
    std::array<std::int64_t, EventTypeTracker::kSpacings> v{};
    std::copy(spacings, spacings + n, v.begin());
    const auto mid = v.begin() + n / 2;
    std::nth_element(v.begin(), mid, v.begin() + n);
    median = double(*mid);
    for (int i = 0; i < n; ++i)
        v[std::size_t(i)] = std::int64_t(std::llround(std::fabs(double(spacings[i]) - median)));
    std::nth_element(v.begin(), mid, v.begin() + n);
    spread = double(*mid);
}

} // namespace

EventTypeTracker::EventTypeTracker(FreshnessShared &out)
    : m_table(out.events.load(std::memory_order_acquire))
    , m_out(out)
{
    // A session made again for the same stream (an edit) finds the table's names.
    if (m_table) {
        const int named = m_table->named.load(std::memory_order_acquire);
        for (int i = 0; i < named; ++i) {
            Local &l = m_local[std::size_t(i)];
            l.nameLen = m_table->entries[std::size_t(i)].nameLen;
            l.name = m_table->entries[std::size_t(i)].name;
            l.periodicByType = periodicEventType(std::string_view(l.name.data(), l.nameLen));
            setMeasure(l, l.periodicByType);
        }
        m_used = named;
    }
}

bool EventTypeTracker::periodicEventType(std::string_view type)
{
    static constexpr std::string_view kPeriodic[] = {
        "24hrTicker",       "24hrMiniTicker", "1hTicker",        "4hTicker", "1dTicker",         "kline",
        "continuous_kline", "depthUpdate",    "markPriceUpdate", "avgPrice", "indexPriceUpdate",
    };
    return std::find(std::begin(kPeriodic), std::end(kPeriodic), type) != std::end(kPeriodic);
}

bool EventTypeTracker::periodicStreamName(const QString &name)
{
    // <symbol>@<kind>[@<speed>], or !<kind>@arr.
    const QStringList parts = name.toLower().split(QLatin1Char('@'));
    QString kind = parts.value(1);
    if (parts.value(0).startsWith(QLatin1Char('!')))
        kind = parts.value(0).mid(1);
    static const char *const kPrefixes[] = {"ticker", "miniticker", "kline_",   "continuouskline_",
                                            "depth",  "markprice",  "avgprice", "indexprice"};
    for (const char *p : kPrefixes)
        if (kind.startsWith(QLatin1String(p)))
            return true;
    return false;
}

bool EventTypeTracker::allPeriodic(const QStringList &names)
{
    bool any = false;
    for (const QString &n : names) {
        if (n.isEmpty())
            continue;
        if (!periodicStreamName(n))
            return false;
        any = true;
    }
    return any;
}

QStringList EventTypeTracker::streamNames(const QUrl &url, const QStringList &subscribe)
{
    QStringList names = subscribe;
    const QString path = url.path();
    if (const qsizetype at = path.indexOf(QLatin1String("/ws/")); at >= 0)
        names << path.mid(at + 4).split(QLatin1Char('/'), Qt::SkipEmptyParts);
    names << QUrlQuery(url).queryItemValue(QStringLiteral("streams")).split(QLatin1Char('/'), Qt::SkipEmptyParts);
    return names;
}

void EventTypeTracker::setStreamPeriodic(bool periodic)
{
    m_streamPeriodic = periodic;
    for (int i = 0; i < kSlots; ++i) {
        Local &l = m_local[std::size_t(i)];
        setMeasure(l, periodic || l.periodicByType);
    }
}

int EventTypeTracker::claim(std::string_view type) noexcept
{
    const int i = m_used++;
    Local &l = m_local[std::size_t(i)];
    l.nameLen = std::min(type.size(), EventTypesShared::kNameBytes);
    std::memcpy(l.name.data(), type.data(), l.nameLen);
    l.periodicByType = periodicEventType(type);
    setMeasure(l, l.periodicByType || m_streamPeriodic);
    if (m_table)
        m_table->name(i, std::string_view(l.name.data(), l.nameLen));
    return i;
}

void EventTypeTracker::reconnected()
{
    for (Local &l : m_local)
        l.lastEventTime = kNone;
}

bool EventTypeTracker::streamPeriodic() const
{
    if (typesSeen() == 0)
        return false;
    for (int i = 0; i < m_used; ++i)
        if (!periodic(i))
            return false;
    return !m_local[std::size_t(kOther)].seen || m_streamPeriodic;
}

bool EventTypeTracker::mixed() const
{
    bool some = false;
    bool others = m_local[std::size_t(kOther)].seen && !m_streamPeriodic;
    for (int i = 0; i < m_used; ++i)
        (periodic(i) ? some : others) = true;
    return some && others;
}

void EventTypeTracker::nonPeriodicTotals(std::uint64_t &count, std::uint64_t &sumUs) const
{
    count = 0;
    sumUs = 0;
    if (!m_table)
        return;
    for (int i = 0; i < kSlots; ++i) {
        if (i < m_used ? periodic(i) : (i != kOther || m_streamPeriodic))
            continue;
        count += m_table->entries[std::size_t(i)].latency.count();
        sumUs += m_table->entries[std::size_t(i)].latency.sumUs();
    }
}

void EventTypeTracker::tick(qint64 nowMs)
{
    if (!m_table && typesSeen() >= 2) {
        // Created on the tick, never on the hot path; from now on each type's latency is
        // recorded in it as well.
        auto table = std::make_unique<EventTypesShared>();
        for (int i = 0; i < m_used; ++i)
            table->name(i, std::string_view(m_local[std::size_t(i)].name.data(), m_local[std::size_t(i)].nameLen));
        m_table = table.release();
        m_out.events.store(m_table, std::memory_order_release);
    }
    if (m_lastPublishMs >= 0 && nowMs - m_lastPublishMs < kPublishMs)
        return;
    m_lastPublishMs = nowMs;

    // The stream's period: that of its busiest periodic type.
    double streamPeriod = -1;
    double streamJitter = -1;
    std::uint64_t busiest = 0;
    for (int i = 0; i < kSlots; ++i) {
        const Local &l = m_local[std::size_t(i)];
        const bool isPeriodic = i == kOther ? m_streamPeriodic : (i < m_used && periodic(i));
        double period = -1;
        double jitter = -1;
        if (isPeriodic && l.spacings && l.spacings->size >= kMinSpacings) {
            medianAndSpread(l.spacings->values.data(), l.spacings->size, period, jitter);
            period = period * m_usPerUnit / 1000.0;
            jitter = jitter * m_usPerUnit / 1000.0;
            const std::uint64_t n = (m_table ? m_table->entries[std::size_t(i)].latency.count() : 0) + 1;
            if (n > busiest) {
                busiest = n;
                streamPeriod = period;
                streamJitter = jitter;
            }
        }
        if (m_table) {
            EventTypesShared::Slot &s = m_table->entries[std::size_t(i)];
            s.periodic.store(isPeriodic);
            s.periodMs.store(period);
            s.jitterMs.store(jitter);
        }
    }
    const bool periodicNow = streamPeriodic();
    m_out.periodic.store(periodicNow);
    m_out.periodMs.store(periodicNow ? streamPeriod : -1);
    m_out.periodJitterMs.store(periodicNow ? streamJitter : -1);
}

} // namespace streamscope
