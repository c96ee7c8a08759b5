#pragma once

// The headless report (docs/report.md): one JSON object with the run's
// duration and, per stream, its final state, counters, average rate and latency percentiles.
// Fields may be added, never renamed.

#include "StreamSnapshot.h"

#include <QtCore/QJsonObject>
#include <QtCore/QVector>

namespace streamscope::app {

QJsonObject buildReport(const QVector<StreamSnapshot> &streams, double durationS);
bool writeReport(const QString &path, const QJsonObject &report, QString *error);

} // namespace streamscope::app
