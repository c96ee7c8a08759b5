#pragma once

// The headless report as CSV (`--report-csv FILE`, docs/report.md): a header line, then one
// row per stream with the report's scalar fields, nested objects flattened with dots
// ("latency_ms.p50", "betfair.clk"). Built from buildReport()'s JSON, so that its columns
// follow the report: "name" first, then every other scalar path of any stream in the
// report's own (sorted) key order; a stream without a field has an empty cell. Arrays
// (connections, gap_records, rate_limits, active_alerts) are left out. Lines end in CRLF
// (RFC 4180). Also the cell quoting of the desktop's CSV exports.

#include <QtCore/QJsonObject>
#include <QtCore/QString>
#include <QtCore/QStringList>

namespace streamscope::app {

// One RFC 4180 cell: quoted when it holds a comma, a quote or a line break (quotes doubled);
// a leading = + - @ that a spreadsheet would run as a formula gets an apostrophe before it
// (a number's minus sign is left alone).
QString csvCell(QString text);
// Cells joined by commas, without the line end.
QString csvLine(const QStringList &cells);
// The report's streams as CSV text.
QString reportCsv(const QJsonObject &report);
bool writeReportCsv(const QString &path, const QJsonObject &report, QString *error);

} // namespace streamscope::app
