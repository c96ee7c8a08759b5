#pragma once

// How much slower than a quiet release build this test run may be: sanitizer runs set
// STREAMSCOPE_TEST_TIME_FACTOR (scripts/test.sh). Waits and the few bounds that are
// themselves the behaviour under test (a stop that acts at once) scale with it; a test never
// asserts plain speed.

#include <QtCore/QtGlobal>

namespace streamscope::testing {

inline int timeFactor()
{
    const int f = qEnvironmentVariableIntValue("STREAMSCOPE_TEST_TIME_FACTOR");
    return f > 0 ? f : 1;
}

// A wait's timeout: returns early when the condition holds, so a generous value costs
// nothing on a quiet machine and keeps a busy one from failing the test.
inline int scaledMs(int ms)
{
    return ms * timeFactor();
}

} // namespace streamscope::testing
