#pragma once

// The desktop's exports (docs/user-guide.md, "Export"): the stream table and one stream's
// statistics to CSV, a latency histogram's buckets to CSV, a chart to PNG, the inspector's
// filtered messages to NDJSON. Each writes its file atomically (QSaveFile: the old file stays
// until the new one is complete) and on failure returns false with `error` naming the file
// and the reason. The menus ask for the file name (ExportController) and call these. CSV is
// RFC 4180 with CRLF line ends, its cells quoted as Copy rows as CSV does (a leading formula
// character gets an apostrophe). GUI thread only (the table and the charts are widgets).

#include "LatencySnapshot.h"

#include <QtCore/QByteArray>
#include <QtCore/QList>
#include <QtCore/QPair>
#include <QtCore/QString>

class QAbstractItemModel;
class QWidget;

namespace streamscope::ui {

class InspectorModel;

// `data` to `path`, all or nothing.
bool writeFileAtomically(const QString &path, const QByteArray &data, QString *error);

// Every row of `model` (the table as sorted and filtered), with a header line, in `columns`
// (logical columns in the order shown). The cells and headers hold their data of `role` (the
// stream table's CsvRole: plain numbers, units in the header) where the model has it, else
// their display text.
QString tableCsv(const QAbstractItemModel *model, const QList<int> &columns, int role = -1);
bool writeTableCsv(const QString &path, const QAbstractItemModel *model, const QList<int> &columns, QString *error,
                   int role = -1);

// "field,value" rows (with that header): a report path ("latency_ms/p99") and its text.
QString fieldsCsv(const QList<QPair<QString, QString>> &fields);
bool writeFieldsCsv(const QString &path, const QList<QPair<QString, QString>> &fields, QString *error);

// The histogram's non-empty buckets, "lower_ms,upper_ms,count,share": a bucket holds the
// latencies from lower_ms up to (not including) upper_ms; share is its part of the count
// (0 to 1). The counts sum to the histogram's count.
QString histogramCsv(const LatencySnapshot &histogram);
bool writeHistogramCsv(const QString &path, const LatencySnapshot &histogram, QString *error);

// The widget (a chart view) as drawn now, a PNG of its size times the screen's pixel ratio.
bool writeWidgetPng(const QString &path, QWidget *widget, QString *error);
// The widget drawn as an SVG drawing of its size (vector shapes and text).
bool writeWidgetSvg(const QString &path, QWidget *widget, QString *error);

// The messages the inspector shows (its filter applied), oldest first, one a line, each
// exactly as received. A message holding a raw CR or LF cannot be one NDJSON line as it is:
// it is left out and counted in `skipped`.
QByteArray messagesNdjson(const InspectorModel *model, int *skipped = nullptr);
bool writeMessagesNdjson(const QString &path, const InspectorModel *model, int *skipped, QString *error);

} // namespace streamscope::ui
