#pragma once

// The micro-benchmarks' one measure (tst_bookcost, tst_lasttradecost): the median over kBatches
// batches of kPerBatch calls of the time one call takes, in ns. Medians, not means: the machine
// is shared, and a batch that a neighbour's burst slowed stays out of the figure. A sanitizer run
// (STREAMSCOPE_TEST_TIME_FACTOR above 1) measures nothing worth printing: it takes kMinBatches
// batches, enough to run every check the callers make on what the calls did.
//
// Thread contract: the calling thread.

#include "../common/TimeFactor.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

namespace streamscope::testing {

inline constexpr int kBatches = 201;
inline constexpr int kMinBatches = 21;
inline constexpr int kPerBatch = 1000;

// The batches medianNs() takes in this run, and the calls it makes in all.
inline int batchCount()
{
    return timeFactor() > 1 ? kMinBatches : kBatches;
}
inline std::int64_t callCount()
{
    return std::int64_t(batchCount()) * kPerBatch;
}

// The median over batchCount() batches of the ns one call of `step(i)` takes, i counting on
// across batches.
template<typename Step>
double medianNs(Step step)
{
    const int batches = batchCount();
    std::vector<double> samples;
    samples.reserve(batches);
    std::int64_t i = 0;
    for (int b = 0; b < batches; ++b) {
        const auto start = std::chrono::steady_clock::now();
        for (int k = 0; k < kPerBatch; ++k)
            step(i++);
        const auto ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
        samples.push_back(ns / kPerBatch);
    }
    std::nth_element(samples.begin(), samples.begin() + batches / 2, samples.end());
    return samples[batches / 2];
}

} // namespace streamscope::testing
