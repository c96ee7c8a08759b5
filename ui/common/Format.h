#pragma once

// Number and time formatting shared by the models and widgets, so that every panel writes
// a rate, a size or a latency the same way (the words themselves are in the alerts
// library's ValueFormat.h, which the alert texts use too), and the states' colours.
// Pure functions, any thread.

#include "BookStatus.h"
#include "ClockEstimate.h"
#include "HostClock.h"
#include "StreamTypes.h"
#include "ValueFormat.h"

#include <QtCore/QString>
#include <QtGui/QColor>

namespace streamscope::ui {

using alerts::countNoun;
using alerts::formatAgeMs;
using alerts::formatBytesRate;
using alerts::formatCount;
using alerts::formatLatencyMs;
using alerts::formatRate;
using alerts::formatTimeMs;

// "offset +500 ms ±0.6 ms (server time)", "local clock behind by ≥ 12 ms (latency floor)",
// "no offset known".
QString clockText(const ClockEstimate &clock);
// A price as a plain decimal, never with an exponent: ten significant digits, as many
// decimals as a small price needs, no trailing zeros ("27123.45", "100", "0.00001234");
// NaN or infinity -> "–".
QString formatPrice(double price);
// "12.50" -> "12.5", "3.000" -> "3", "100" -> "100": a decimal QString::number wrote with 'f'.
QString withoutTrailingZeros(QString decimal);
// A duration in human units, two significant digits at most: "0.30 ms", "16 s", "2.5 min".
QString formatDurationMs(double ms);
// "clock synced ±0.30 ms", "clock synced ±16 s", "clock not synchronised", "clock state unknown".
QString hostClockText(const HostClockState &state);

// Colour of a state for text or a badge, readable on light and dark backgrounds.
QColor stateColor(StreamState state, bool dark);
// Colour of an order book's state (docs/books.md): synced green, syncing blue, resyncing amber,
// desynced and crossed red.
QColor bookStateColor(BookState state, bool dark);
// Whether the application palette is a dark one.
bool isDarkPalette();

} // namespace streamscope::ui
