#pragma once

// The arithmetic of streamscope-bench's figures over repeats: the median, the spread (min and
// max) and the distribution-free confidence interval of the median that the --converge mode
// stops on. Plain functions on values; any thread.
//
// Why the convergence test is on the median's interval and not on min–max: min and max of
// more repeats can only move apart, so "repeat until max − min is small" either holds at once
// or never. The interval of the median, [x(k), x(n+1−k)] of the sorted repeats with k the
// largest rank such that P(Binomial(n, 1/2) < k) ≤ 2.5 %, narrows as repeats are added (at
// least 95 % coverage; up to 5 repeats no such k exists and it is min–max itself (94 % at 5),
// from 9 repeats on it leaves out the extremes).

#include <vector>

namespace streamscope::bench {

struct Spread {
    double median = 0;
    double min = 0;
    double max = 0;
    double low = 0;  // confidence interval of the median (see above)
    double high = 0; //
    int n = 0;

    // The larger distance from the median to an end of its interval: "±halfWidth".
    double halfWidth() const;
    // Within ±tolerance of the median (n ≥ 1).
    bool within(double tolerance) const;
};

// The fewest values whose min–max covers the median with at least 95 % (1 − 2·2⁻ⁿ ≥ 0.95):
// --converge never stops on fewer.
constexpr int kMinPairsFor95 = 6;

// Over the values given (an empty vector gives all zeros and n = 0).
Spread spreadOf(std::vector<double> values);

// The 1-based rank k of the median's interval for n values: the largest k ≥ 1 with
// P(Binomial(n, 1/2) ≤ k − 1) ≤ alpha / 2 (and 1 when none is).
int medianIntervalRank(int n, double alpha = 0.05);

// The per-repeat ratios a[i] / b[i] of runs made next to each other (pairs where either is not
// positive, i.e. a failed run, are left out; the shorter length wins).
std::vector<double> pairedRatios(const std::vector<double> &a, const std::vector<double> &b);

} // namespace streamscope::bench
