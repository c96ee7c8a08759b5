#pragma once

// The report's and /metrics' figures for periodic streams, latency per event type and
// backpressure (docs/freshness.md): per stream `periodic`, `period_ms`, `period_jitter_ms`,
// `latency_by_event`, `unread_bytes`, `unread_bytes_peak`, `processing_us_per_message`.
// Called from the freshness report (FreshnessReport.cpp).

#include "StreamSnapshot.h"

#include <QtCore/QByteArray>
#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QStringList>
#include <QtCore/QVector>

namespace streamscope::app {

// An event type's name as a report key or metrics label: escaped, at most 32 characters.
QString eventTypeLabel(const QString &name);
// A stream's event types' labels, in order, made unique: a label already taken gets "~N"
// appended (N from its slot's position), so that no two series share their labels.
QStringList eventTypeLabels(const QVector<EventTypeFigures> &types);

void addCadenceFields(QJsonObject &stream, const StreamSnapshot &s);
void appendCadenceMetrics(QByteArray &out, const QVector<StreamSnapshot> &streams, const QList<QByteArray> &names,
                          bool classic);

} // namespace streamscope::app
