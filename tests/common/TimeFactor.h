#pragma once

// How much slower than a quiet release build this test run may be: sanitizer runs set
// STREAMSCOPE_TEST_TIME_FACTOR (scripts/test.sh). Waits and the few bounds that are
// themselves the behaviour under test (a stop that acts at once) scale with it; a test never
// asserts plain speed.

#include <QtCore/QtGlobal>

#include <algorithm>

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

// "At once" is what the counts prove: nothing is counted from the moment the stop is asked,
// even in the middle of a firehose's read. The time bound catches a stop that waits for
// something (a timeout, a handshake): a second, as a user sees it, or ten round trips to the
// worker measured just before, whichever is more, so that a machine many times oversubscribed,
// where a round trip itself takes long, still passes.
inline int stopActsAtOnceMs(qint64 roundTripMs)
{
    return scaledMs(int(std::max<qint64>(1000, 10 * roundTripMs)));
}

} // namespace streamscope::testing
