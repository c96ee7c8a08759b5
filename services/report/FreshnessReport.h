#pragma once

// The freshness figures of the report and of /metrics (docs/freshness.md): per stream the
// learned usual gap between data messages and the silences beyond it, the latency trend,
// falling behind and its cause, the worker's busy share.

#include "StreamSnapshot.h"

#include <QtCore/QByteArray>
#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QVector>

namespace streamscope::app {

// "venue_late", "we_are_slow", "none", or nullptr when unknown.
const char *behindCauseName(BehindCause cause);
// usual_gap_ms, silence_alarms, latency_trend_ms_per_s, falling_behind, falling_behind_cause,
// falling_behind_alarms, worker_busy_share.
void addFreshnessFields(QJsonObject &stream, const StreamSnapshot &s);
void appendFreshnessMetrics(QByteArray &out, const QVector<StreamSnapshot> &streams, const QList<QByteArray> &names,
                            bool classic);

} // namespace streamscope::app
