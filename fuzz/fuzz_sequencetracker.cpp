// SequenceTracker (engine/protocol/SequenceTracker.*): depth-diff continuity over the update
// ids (U, u, pu) a peer sends, which may be anything an int64 holds.
//
// Input: a series of events, each a flag byte (bits 0-2: one of eight symbols; bit 3: the
// symbol follows instead, a length byte and up to 15 bytes; bit 4: a futures event with pu;
// bit 5: reset the tracker first), then U, u and (with bit 4) pu as little-endian int64.
// A model in 128-bit arithmetic, which cannot overflow, gives every answer: whether there is
// a gap, where it starts, where the ids resumed and how many are missing. Also checked: what
// VenueHandler relies on to write its message (missing ids mean resumedAt > expectedFrom).

#include "FuzzSupport.h"
#include "protocol/SequenceTracker.h"

#include <climits>
#include <string>
#include <utility>
#include <vector>

using streamscope::SequenceTracker;
using streamscope::fuzz::InputReader;

namespace {

const char *const kSymbols[] = {"BTCUSDT", "ETHUSDT", "", "btcusdt", "BTCUSDT ", "\xe2\x82\xbf", "A", "1.120684740"};

using Wide = __int128;

// The tracker's rule, written plainly: per symbol the last u; a table of 64 symbols whose last
// slot is taken over when it is full.
class Model {
public:
    SequenceTracker::Gap check(const std::string &symbol, std::int64_t firstId, std::int64_t finalId,
                               std::int64_t prevId)
    {
        SequenceTracker::Gap gap;
        for (auto &[name, last] : m_slots) {
            if (name != symbol)
                continue;
            if (prevId != INT64_MIN)
                gap.found = prevId != last;
            else
                gap.found = last < INT64_MAX && Wide(firstId) > Wide(last) + 1;
            if (gap.found) {
                const Wide expected = last < INT64_MAX ? Wide(last) + 1 : Wide(last);
                gap.expectedFrom = std::int64_t(expected);
                gap.resumedAt = firstId;
                const Wide missing = Wide(firstId) > expected ? Wide(firstId) - expected : 0;
                FUZZ_CHECK(missing >= 0 && missing <= Wide(UINT64_MAX), "the model's count fits");
                gap.missing = std::uint64_t(missing);
            }
            last = finalId;
            return gap;
        }
        if (m_slots.size() < 64)
            m_slots.emplace_back(symbol, finalId);
        else
            m_slots.back() = {symbol, finalId};
        return gap;
    }
    void reset() { m_slots.clear(); }

private:
    std::vector<std::pair<std::string, std::int64_t>> m_slots;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    InputReader in(data, size);
    SequenceTracker tracker;
    Model model;
    while (!in.atEnd()) {
        const std::uint8_t flags = in.byte();
        std::string symbol = kSymbols[flags & 7];
        if (flags & 8) {
            const int n = in.byte() & 15;
            symbol.clear();
            for (int i = 0; i < n; ++i)
                symbol += char(in.byte());
        }
        if (flags & 32) {
            tracker.reset();
            model.reset();
        }
        const std::int64_t firstId = in.i64();
        const std::int64_t finalId = in.i64();
        const std::int64_t prevId = (flags & 16) ? in.i64() : INT64_MIN;

        const SequenceTracker::Gap got = tracker.check(symbol, firstId, finalId, prevId);
        const SequenceTracker::Gap want = model.check(symbol, firstId, finalId, prevId);
        FUZZ_CHECK(got.found == want.found, "a gap is found exactly when the ids break");
        if (!got.found)
            continue;
        FUZZ_CHECK(got.expectedFrom == want.expectedFrom, "the gap starts after the last id");
        FUZZ_CHECK(got.resumedAt == want.resumedAt, "the gap ends where the ids resumed");
        FUZZ_CHECK(got.missing == want.missing, "the missing ids are counted exactly");
        FUZZ_CHECK(got.missing == 0 || got.resumedAt > got.expectedFrom, "missing ids lie before resumedAt");
    }
    return 0;
}
