#pragma once

// Each instrument's cadence in the report and /metrics (docs/freshness.md, "Instruments that go
// quiet"; docs/report.md): per stream an `instruments` list, and per instrument the gauge
// streamscope_instrument_stale (0/1), labelled by stream and instrument. The label set is
// bounded: at most 1,024 instruments a stream, names of letters, digits and ._:/- only.

#include "StreamSnapshot.h"

#include <QtCore/QByteArray>
#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QVector>

namespace streamscope::app {

// "instruments": [{instrument, messages, stale, stale_episodes}], and "instruments_untracked".
void addInstrumentFields(QJsonObject &stream, const StreamSnapshot &s);
void appendInstrumentMetrics(QByteArray &out, const QVector<StreamSnapshot> &streams, const QList<QByteArray> &names);

} // namespace streamscope::app
