#pragma once

// The flight recorder in the headless report and /metrics (docs/capture.md, "Flight
// recorder"): per stream a "flight_recorder" object, at the top level the memory over all
// streams against the cap; streamscope_flight_* families. Added fields only.

#include "StreamSnapshot.h"

#include <QtCore/QByteArray>
#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QVector>

namespace streamscope::app {

// Per stream, when its flight recorder is on.
void addFlightFields(QJsonObject &stream, const StreamSnapshot &s);
// At the top level, when any stream's flight recorder is on.
void addFlightSummary(QJsonObject &report, const QVector<StreamSnapshot> &streams);
// `names` are the streams' label values, escaped, in the order of `streams`.
void appendFlightMetrics(QByteArray &out, const QVector<StreamSnapshot> &streams, const QList<QByteArray> &names,
                         bool classic);

} // namespace streamscope::app
