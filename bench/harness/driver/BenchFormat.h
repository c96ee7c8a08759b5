#pragma once

// What the driver's tables share: the names of the figures and of the old build's runs, the
// kinds of scenario, the driver's log (stderr), and how a figure is written in a cell.
// Plain functions; the driver's thread.

#include "BenchStats.h"

#include <QtCore/QJsonObject>
#include <QtCore/QString>
#include <QtCore/QTextStream>

#include <vector>

namespace streamscope::bench {

inline const QString kLineScenario = QStringLiteral("betfair_mcm"); // TLS lines, not websocket
inline const QString kWssSuffix = QStringLiteral("_wss");
inline const QString kOld = QStringLiteral("old:"); // result key of a run of the old build's client
inline const QString kRate = QStringLiteral("msgs_per_s");
inline const QString kCpu = QStringLiteral("cpu_us_per_msg");

bool isWss(const QString &scenario);
// The replay scenario a benchmark scenario serves (small_aggtrade_wss → small_aggtrade).
QString baseScenario(const QString &scenario);
// The driver's progress lines (stderr; the tables go to stdout).
QTextStream &log();

double median(std::vector<double> v);
// msgs/s as 12.16M, 481.2k, 132.
QString rate(double msgsPerS);
QString num(double v, int decimals = 2);
// "median [min–max]" of one figure of a client (figures as ThroughputResults::clientFigures
// writes them); "—" when no run completed.
QString spreadCell(const QJsonObject &figures, const QString &field, bool isRate);
// "msgs/s · CPU µs/msg" of a client.
QString clientCell(const QJsonObject &figures);
// A ratio's "median [min–max]".
QString ratioCell(const Spread &s);

} // namespace streamscope::bench
