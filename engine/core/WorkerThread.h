#pragma once

// The thread of one EngineWorker. Its loop is QThread's own event loop with one addition:
// while the worker is busy with many streams it pauses briefly between passes, so that one
// pass of the event dispatcher serves the messages of many sockets.
//
// Why: with hundreds of streams each pass finds one or two sockets ready, and every pass
// polls every socket the worker owns (Qt's dispatchers are poll()-based), so the cost grows
// with streams × messages. Pausing kCoalesceUs per pass bounds the passes to about 2,000 a
// second. A worker with few streams (a firehose, a latency measurement) never pauses.
//
// Thread contract: created and started by the Engine; requestQuit() is called on the thread
// itself (from the worker's last queued call); run() is the thread.

#include <QtCore/QThread>

#include <atomic>

namespace streamscope {

class EngineWorker;

class WorkerThread final : public QThread {
    Q_OBJECT
public:
    static constexpr unsigned long kCoalesceUs = 500;

    explicit WorkerThread(EngineWorker &worker, QObject *parent = nullptr) : QThread(parent), m_worker(worker) {}

    void requestQuit() { m_quit.store(true, std::memory_order_relaxed); }

protected:
    void run() override;

private:
    EngineWorker &m_worker;
    std::atomic<bool> m_quit{false};
};

} // namespace streamscope
