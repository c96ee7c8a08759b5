#pragma once

// How busy a worker thread is: the share of the last second its thread spent on the CPU
// (thread CPU time over wall time, both measured by the worker itself on its tick). Near 1,
// the worker cannot keep up and messages wait in the socket; a stream falling behind then is
// "we are slow", not "the venue is late" (docs/freshness.md).
//
// Under CPU contention from other processes a starved worker is on the CPU less than it
// would like, so it reads as less busy than it is: the share is a lower bound.
//
// Thread contract: one worker thread writes (sample()) and its sessions read (busyShare()).

#include <QtCore/QtGlobal>

namespace streamscope {

class WorkerLoad {
public:
    static constexpr qint64 kPeriodMs = 1000;

    virtual ~WorkerLoad() = default;

    // On the worker's tick, with the monotonic time.
    void sample(qint64 nowMs);
    // 0..1 over the last period; -1 when unknown (no measure yet, or no thread CPU clock).
    virtual double busyShare() const { return m_busyShare; }

    // CPU time of the calling thread in µs; -1 where the system gives none.
    static qint64 threadCpuUs();

private:
    qint64 m_lastMs = -1;
    qint64 m_lastCpuUs = -1;
    double m_busyShare = -1;
};

} // namespace streamscope
