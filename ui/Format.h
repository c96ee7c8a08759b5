#pragma once

// Number and time formatting shared by the models and widgets, so that every panel writes
// a rate, a size or a latency the same way. Pure functions, any thread.

#include "ClockEstimate.h"
#include "HostClock.h"
#include "StreamTypes.h"

#include <QtCore/QString>
#include <QtGui/QColor>

namespace streamscope::ui {

QString formatCount(quint64 n);                 // 1234567 -> "1,234,567"
QString formatRate(double perSecond);           // "12.3 k/s", "850 /s"
QString formatBytesRate(double bytesPerSecond); // "1.2 MB/s"
QString formatLatencyMs(double ms);             // "0.84 ms", "12.3 ms", "1.20 s"; NaN -> "–"
QString formatAgeMs(qint64 ms);                 // "0.4 s", "12 s", "3 min", "2 h"; <0 -> "never"
QString formatTimeMs(qint64 epochMs);           // "12:34:56.789" local time
// "1 stream", "3 streams" (English plural without a translation file)
QString countNoun(quint64 n, const QString &one, const QString &many);

// "offset +500 ms ±0.6 ms (server time)", "local clock behind by ≥ 12 ms (latency floor)",
// "no offset known".
QString clockText(const ClockEstimate &clock);
// "clock synced ±0.3 ms", "clock not synchronised", "clock state unknown".
QString hostClockText(const HostClockState &state);

// Colour of a state for text or a badge, readable on light and dark backgrounds.
QColor stateColor(StreamState state, bool dark);
// Whether the application palette is a dark one.
bool isDarkPalette();

} // namespace streamscope::ui
