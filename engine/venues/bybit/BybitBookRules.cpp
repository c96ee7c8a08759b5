#include "BybitBookRules.h"

#include "BybitFields.h"

#include <algorithm>
#include <charconv>

namespace streamscope::bybit {

using book::BookMessage;
using book::DiffAction;

const BybitBookRules &BybitBookRules::instance()
{
    static const BybitBookRules rules;
    return rules;
}

int BybitBookRules::kindSlot() const
{
    return kType;
}

BookMessage BybitBookRules::classify(std::string_view eventType, std::string_view kind, const book::DiffIds &ids) const
{
    if (eventType.substr(0, diffEventType().size()) != diffEventType())
        return BookMessage::None;
    if (kind == "snapshot" || ids.last == 1)
        return BookMessage::Snapshot; // u = 1: the service restarted, and this starts the book over
    return kind == "delta" ? BookMessage::Diff : BookMessage::None;
}

DiffAction BybitBookRules::next(const book::DiffIds &diff, std::int64_t bookId) const
{
    if (diff.last == INT64_MIN || bookId == INT64_MIN)
        return DiffAction::Gap; // a delta without its "u" cannot be placed
    // The peer's numbers: bookId + 1 only below INT64_MAX.
    return bookId < INT64_MAX && diff.last == bookId + 1 ? DiffAction::Apply : DiffAction::Gap;
}

std::size_t BybitBookRules::streamDepth(std::string_view topic, std::size_t snapshotLevels) const
{
    // "orderbook.<depth>.<symbol>"
    std::size_t depth = 0;
    const std::string_view rest = topic.substr(std::min(topic.size(), diffEventType().size()));
    const auto r = std::from_chars(rest.data(), rest.data() + rest.size(), depth);
    if (r.ec == std::errc() && r.ptr != rest.data() + rest.size() && *r.ptr == '.' && depth > 0 && depth <= 100'000)
        return depth;
    for (const std::size_t d : kDepths) {
        if (snapshotLevels <= d)
            return d;
    }
    return 0;
}

} // namespace streamscope::bybit
