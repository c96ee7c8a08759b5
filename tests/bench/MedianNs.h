#pragma once

// The micro-benchmarks' one measure (tst_bookcost, tst_lasttradecost): the median over kBatches
// batches of kPerBatch calls of the time one call takes, in ns. Medians, not means: the machine
// is shared, and a batch that a neighbour's burst slowed stays out of the figure.
//
// Thread contract: the calling thread.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

namespace streamscope::testing {

inline constexpr int kBatches = 201;
inline constexpr int kPerBatch = 1000;

// The median over kBatches of the ns one call of `step(i)` takes, i counting on across batches.
template<typename Step>
double medianNs(Step step)
{
    std::vector<double> samples;
    samples.reserve(kBatches);
    std::int64_t i = 0;
    for (int b = 0; b < kBatches; ++b) {
        const auto start = std::chrono::steady_clock::now();
        for (int k = 0; k < kPerBatch; ++k)
            step(i++);
        const auto ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
        samples.push_back(ns / kPerBatch);
    }
    std::nth_element(samples.begin(), samples.begin() + kBatches / 2, samples.end());
    return samples[kBatches / 2];
}

} // namespace streamscope::testing
