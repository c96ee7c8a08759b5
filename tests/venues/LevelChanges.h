#pragma once

// Order-book level changes written as text in the book tests: each price and size an exact
// decimal ("27000.10"), read as the engine reads a venue's.

#include "book/BookSync.h"
#include "book/FixedPoint.h"

#include <QtCore/QtGlobal>

#include <utility>
#include <vector>

namespace streamscope::testing {

// Price and size texts, one pair a level.
using LevelPairs = std::vector<std::pair<const char *, const char *>>;

inline book::Fixed fx(const char *text)
{
    book::Fixed v = 0;
    if (!book::parseFixed(text, v))
        qFatal("not exact: %s", text);
    return v;
}

inline std::vector<book::LevelChange> changes(const LevelPairs &bids, const LevelPairs &asks = {})
{
    std::vector<book::LevelChange> out;
    for (const auto &[p, q] : bids)
        out.push_back({book::Side::Bid, fx(p), fx(q)});
    for (const auto &[p, q] : asks)
        out.push_back({book::Side::Ask, fx(p), fx(q)});
    return out;
}

} // namespace streamscope::testing
