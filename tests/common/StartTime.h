#pragma once

// The wall-clock time the tests that step their own clock start at: 2027-01-15 08:00:00 UTC, a
// whole second well inside every type that holds a time.

#include <QtCore/QtGlobal>

namespace streamscope::testing {

inline constexpr qint64 kStartMs = 1'800'000'000'000;

} // namespace streamscope::testing
