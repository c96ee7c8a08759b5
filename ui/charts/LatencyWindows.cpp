#include "LatencyWindows.h"

#include <QtCore/QString>

namespace streamscope::ui {

namespace {
constexpr size_t kCapacity = 61;
}

QString LatencyWindows::windowName(Window w)
{
    switch (w) {
    case Window::Last10s: return QStringLiteral("10s");
    case Window::Last60s: return QStringLiteral("60s");
    case Window::SinceStart:
    case Window::Unknown: break;
    }
    return QStringLiteral("all");
}

LatencyWindows::Window LatencyWindows::windowFromName(const QString &name)
{
    if (name == QLatin1String("10s"))
        return Window::Last10s;
    if (name == QLatin1String("60s"))
        return Window::Last60s;
    return Window::SinceStart;
}

void LatencyWindows::reset(StreamId id)
{
    m_stream = id;
    m_ring.clear();
}

void LatencyWindows::push(const LatencySnapshot &cumulative)
{
    // Nothing taken (no histogram asked for) is skipped; a stream whose every latency was
    // negative or implausible has no bucket yet, and still counts.
    if (cumulative.buckets.isEmpty() && cumulative.negative == 0 && cumulative.invalid == 0)
        return;
    m_ring.push_back(cumulative);
    while (m_ring.size() > kCapacity)
        m_ring.pop_front();
}

LatencySnapshot LatencyWindows::window(Window w) const
{
    if (m_ring.empty())
        return {};
    const LatencySnapshot &newest = m_ring.back();
    if (w == Window::SinceStart)
        return newest;
    const size_t seconds = w == Window::Last10s ? 10 : 60;
    const size_t back = std::min(seconds, m_ring.size() - 1);
    if (back == 0)
        return newest.minus(newest);
    return newest.minus(m_ring[m_ring.size() - 1 - back]);
}

} // namespace streamscope::ui
