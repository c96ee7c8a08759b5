#pragma once

// When the cross-venue comparison flags a venue (docs/venues.md, "One instrument across
// venues"): the workspace's top-level "cross_venue" object. A plain value type.

namespace streamscope {

struct CrossVenueConfig {
    static constexpr int kMaxBps = 10'000;
    static constexpr int kMaxSeconds = 86'400;

    int apartBps = 50;  // "apart_bps": a venue this far from the median of the others...
    int apartForS = 10; // "apart_for_s": ...for this long without a break
    int frozenS = 30;   // "frozen_s": a venue's price (mid, else last trade) unmoved this long while another's moved

    bool operator==(const CrossVenueConfig &) const = default;
};

} // namespace streamscope
