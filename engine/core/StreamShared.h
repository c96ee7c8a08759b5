#pragma once

// The state of one stream that both its worker and the Engine facade see.
//
// Thread contract: the hot-path parts (counters, latency, state) have one writer, the
// stream's worker, and are read lock-free by anyone. The low-rate parts (state reason,
// response rings, inspector buffer, last parse error) are guarded by `mutex`; the worker
// takes it only on state changes, responses, parse errors, and per message only while
// somebody inspects the stream (inspecting is a relaxed load otherwise).
// Owned through a shared_ptr by the session (worker) and the facade, so either may go first.

#include "StreamConfig.h"
#include "StreamRecords.h"
#include "stats/LatencyHistogram.h"
#include "stats/StreamCounters.h"

#include <QtCore/QMutex>

#include <atomic>
#include <deque>

namespace streamscope {

struct StreamSnapshot;

class StreamShared {
public:
    static constexpr int kResponseRingCapacity = 200;

    StreamShared(StreamId id, const StreamConfig &config) : id(id), config(config) {}

    const StreamId id;
    const StreamConfig config; // as added; the facade reads it, the session keeps its own copy

    StreamCounters counters;
    LatencyHistogram latency;
    std::atomic<StreamState> state{StreamState::Idle};
    std::atomic<bool> inspecting{false};

    // Called on the worker only.
    void setState(StreamState s, const QString &reason, qint64 nowMs, qint64 nextRetryAtMs = 0);
    void pushResponse(bool isError, ResponseRecord record);
    void setParseError(const QString &error, const char *data, qsizetype len);
    void setLastCloseCode(int code);
    void inspect(qint64 receivedMs, double latencyMs, const char *data, qsizetype len);

    // Called by anyone.
    void fillSnapshot(StreamSnapshot &out, bool withLatency) const;
    QVector<ResponseRecord> responses(bool errors) const;
    QVector<InspectedMessage> takeInspected();
    void clearInspected();

private:
    mutable QMutex m_mutex;
    QString m_reason;
    qint64 m_stateSinceMs = 0;
    qint64 m_nextRetryAtMs = 0;
    int m_lastCloseCode = 0;
    QString m_lastParseError;
    QByteArray m_lastBadMessage;
    std::deque<ResponseRecord> m_results;
    std::deque<ResponseRecord> m_errors;
    std::deque<InspectedMessage> m_inspected;
};

} // namespace streamscope
