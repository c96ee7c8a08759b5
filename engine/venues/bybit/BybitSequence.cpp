#include "BybitSequence.h"

#include <climits>

namespace streamscope::bybit {

BybitSequence::Result BybitSequence::check(std::string_view topic, bool snapshot, std::int64_t u)
{
    const std::uint64_t key = ChainTable::key(topic);
    const std::int64_t *last = m_chains.find(key);
    Result result;
    if (!last) {
        result.verdict = snapshot ? Verdict::Snapshot : Verdict::Start;
    } else if (u == 1 && *last != 1) {
        result.verdict = Verdict::Restart;
    } else if (snapshot) {
        result.verdict = Verdict::Snapshot;
    } else {
        const std::int64_t expected = *last < INT64_MAX ? *last + 1 : *last;
        result.verdict = u == expected ? Verdict::InOrder : Verdict::Gap;
        result.expected = expected;
    }
    m_chains.set(key, u);
    return result;
}

} // namespace streamscope::bybit
