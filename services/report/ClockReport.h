#pragma once

// The clock figures of the report and of /metrics (docs/clock.md): the host clock's state at
// the top level, and per stream the offset to the venue's clock, its source and uncertainty,
// the latency floor, the server-time counts and the corrected latency. Also the latency
// object both latency_ms and latency_corrected_ms use, so that they keep the same keys.

#include "HostClock.h"
#include "StreamSnapshot.h"

#include <QtCore/QByteArray>
#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QVector>

namespace streamscope::app {

// {"count", "p50", "p90", "p99", "p999", "max", "mean", "negative", "invalid"}
QJsonObject latencyObject(const LatencySnapshot &l);
// {"synchronised": true|false|null, "estimated_error_ms": x|null, "maximum_error_ms": x|null}
QJsonObject hostClockObject(const HostClockState &state);
// clock_offset_ms, clock_offset_uncertainty_ms, clock_offset_source, latency_corrected_ms,
// latency_floor_ms, server_time (when asked), clock_note (when one was given).
void addClockFields(QJsonObject &stream, const StreamSnapshot &s);

// Gauges of the host clock and of each stream's offset; `names` are the streams' escaped
// label values, in order; `classic`: Prometheus text 0.0.4 (counters named with _total).
void appendClockMetrics(QByteArray &out, const QVector<StreamSnapshot> &streams, const QList<QByteArray> &names,
                        const HostClockState &host, bool classic);

} // namespace streamscope::app
