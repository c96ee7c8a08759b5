#pragma once

// How a count, a rate, a latency or an age is written, in every panel of the desktop app and
// in the alert texts that headless mode prints and sends: the same words everywhere. Pure
// functions, any thread. ui/common/Format.h adds the GUI's colours on top.

#include <QtCore/QString>

namespace streamscope::alerts {

QString formatCount(quint64 n);                 // 1234567 -> "1 234 567" (thin spaces)
QString formatRate(double perSecond);           // "12.3 k/s", "850 /s"
QString formatBytesRate(double bytesPerSecond); // "1.2 MB/s"
QString formatLatencyMs(double ms);             // "0.84 ms", "12.3 ms", "1.20 s"; NaN -> "–"
QString formatAgeMs(qint64 ms);                 // "0.4 s", "12 s", "3 min", "2 h"; <0 -> "never"
QString formatTimeMs(qint64 epochMs);           // "12:34:56.789" local time
QString formatIsoUtcMs(qint64 epochMs);         // "2026-12-03T07:45:00.123Z"
// "1 stream", "3 streams" (English plural without a translation file)
QString countNoun(quint64 n, const QString &one, const QString &many);

} // namespace streamscope::alerts
