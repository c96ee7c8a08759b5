#include "BenchStats.h"

#include <algorithm>
#include <cmath>

namespace streamscope::bench {

double Spread::halfWidth() const
{
    return std::max(high - median, median - low);
}

bool Spread::within(double tolerance) const
{
    return n > 0 && halfWidth() <= tolerance + 1e-12;
}

int medianIntervalRank(int n, double alpha)
{
    if (n <= 0)
        return 0;
    // P(B ≤ j) for B ~ Binomial(n, 1/2), summed in log space so that large n cannot overflow.
    int k = 1;
    double cdf = 0;
    for (int j = 0; j < n; ++j) {
        const double logTerm =
            std::lgamma(n + 1.0) - std::lgamma(j + 1.0) - std::lgamma(n - j + 1.0) - n * std::log(2.0);
        cdf += std::exp(logTerm);
        if (cdf > alpha / 2 + 1e-12)
            break;
        k = j + 1; // P(B ≤ k − 1) ≤ alpha / 2
    }
    return std::min(k, (n + 1) / 2);
}

Spread spreadOf(std::vector<double> values)
{
    Spread s;
    if (values.empty())
        return s;
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    s.n = int(n);
    s.median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
    s.min = values.front();
    s.max = values.back();
    const int k = medianIntervalRank(s.n);
    s.low = values[std::size_t(k - 1)];
    s.high = values[n - std::size_t(k)];
    return s;
}

std::vector<double> pairedRatios(const std::vector<double> &a, const std::vector<double> &b)
{
    std::vector<double> r;
    const std::size_t n = std::min(a.size(), b.size());
    r.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        if (a[i] > 0 && b[i] > 0)
            r.push_back(a[i] / b[i]);
    }
    return r;
}

} // namespace streamscope::bench
