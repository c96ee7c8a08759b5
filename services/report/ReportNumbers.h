#pragma once

// How the report writes a measured number: rates, latencies and ratios at three decimals, so
// that the JSON neither carries float noise nor loses a microsecond of a millisecond figure.

#include <cmath>

namespace streamscope::app {

inline double round3(double v)
{
    return std::round(v * 1000.0) / 1000.0;
}

} // namespace streamscope::app
