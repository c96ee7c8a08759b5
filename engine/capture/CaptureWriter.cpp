#include "CaptureWriter.h"

#include "CaptureSink.h"

#include <chrono>

namespace streamscope {

namespace {
// How long the writer sleeps when no ring had anything: at 500,000 messages/s of 200 bytes a
// ring fills 1 MB in that time, an eighth of the default buffer.
constexpr auto kIdleWait = std::chrono::milliseconds(10);

qint64 steadyMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

qint64 wallUs()
{
    return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}
} // namespace

CaptureWriter::CaptureWriter()
    : m_thread([this] { run(); })
{
}

CaptureWriter::~CaptureWriter()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_one();
    m_thread.join();
}

void CaptureWriter::add(std::shared_ptr<CaptureSink> recorder)
{
    {
        std::lock_guard lock(m_mutex);
        m_added.push_back(std::move(recorder));
    }
    m_wake.notify_one();
}

void CaptureWriter::remove(const std::shared_ptr<CaptureSink> &recorder)
{
    recorder->finish();
    m_wake.notify_one();
}

void CaptureWriter::run()
{
    for (;;) {
        bool stop = false;
        {
            std::lock_guard lock(m_mutex);
            for (auto &r : m_added)
                m_active.push_back(std::move(r));
            m_added.clear();
            stop = m_stop;
        }
        if (stop) {
            // The workers are gone (the Engine joined them first): write out everything left.
            for (const auto &r : m_active)
                r->close(wallUs(), steadyMs());
            m_active.clear();
            return;
        }
        bool busy = false;
        for (const auto &r : m_active)
            busy |= r->service(wallUs(), steadyMs());
        for (std::size_t i = 0; i < m_active.size();) {
            if (m_active[i]->done()) {
                m_active[i] = std::move(m_active.back());
                m_active.pop_back();
            } else {
                ++i;
            }
        }
        if (!busy) {
            std::unique_lock lock(m_mutex);
            m_wake.wait_for(lock, kIdleWait, [this] { return m_stop || !m_added.empty(); });
        }
    }
}

} // namespace streamscope
