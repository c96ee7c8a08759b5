#include "CoinbaseBookRules.h"

#include "CoinbaseFields.h"

namespace streamscope::coinbase {

using book::BookMessage;
using book::DiffAction;

const CoinbaseBookRules &CoinbaseBookRules::instance()
{
    static const CoinbaseBookRules rules;
    return rules;
}

int CoinbaseBookRules::kindSlot() const
{
    return kEventType;
}

BookMessage CoinbaseBookRules::classify(std::string_view eventType, std::string_view kind, const book::DiffIds &) const
{
    if (eventType != diffEventType())
        return BookMessage::None;
    if (kind == "snapshot")
        return BookMessage::Snapshot;
    return kind == "update" ? BookMessage::Diff : BookMessage::None;
}

DiffAction CoinbaseBookRules::next(const book::DiffIds &diff, std::int64_t bookId) const
{
    if (diff.last == INT64_MIN || bookId == INT64_MIN)
        return DiffAction::Apply; // no number to compare: the connection's count is the handler's
    return diff.last > bookId ? DiffAction::Apply : DiffAction::Gap;
}

} // namespace streamscope::coinbase
