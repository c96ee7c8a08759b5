#pragma once

// The one thread that writes every recording stream's capture (CaptureRecorder) and keeps
// every stream's flight recorder (FlightRecorder): it drains each sink's ring, compresses and
// writes, and sleeps briefly when there is nothing to
// do, so a worker never wakes it (no system call per message). Created by the Engine with
// the first recording stream.
//
// Thread contract: add() and remove() on any thread (a mutex guards the hand-over, never
// taken on a worker's hot path); the destructor writes what is left of every recorder,
// closes the files and joins the thread.

#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace streamscope {

class CaptureSink;

class CaptureWriter {
public:
    CaptureWriter();
    ~CaptureWriter();
    CaptureWriter(const CaptureWriter &) = delete;
    CaptureWriter &operator=(const CaptureWriter &) = delete;

    void add(std::shared_ptr<CaptureSink> recorder);
    // The recorder gets no more input (its session is gone): written out, closed, released.
    void remove(const std::shared_ptr<CaptureSink> &recorder);

private:
    void run();

    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::vector<std::shared_ptr<CaptureSink>> m_added;  // guarded by m_mutex
    bool m_stop = false;                                // guarded by m_mutex
    std::vector<std::shared_ptr<CaptureSink>> m_active; // writer thread only
    std::thread m_thread;
};

} // namespace streamscope
