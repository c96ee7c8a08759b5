#include "DepthCopy.h"

#include <algorithm>

namespace streamscope::book {

void copyDepth(const BookSync &sync, int levels, BookDepth &out)
{
    const OrderBook &book = sync.book();
    const std::size_t want = std::size_t(std::clamp(levels, 0, BookDepth::kMaxLevels));
    out.found = true;
    out.instrument = sync.instrument();
    out.state = sync.state();
    out.updateId = sync.updateId() == INT64_MIN ? 0 : sync.updateId();
    out.bidLevels = int(book.levels(Side::Bid));
    out.askLevels = int(book.levels(Side::Ask));
    const auto copySide = [&](Side side, QVector<DepthLevel> &to) {
        const std::size_t n = std::min(want, book.levels(side));
        to.clear();
        to.reserve(qsizetype(n));
        for (std::size_t rank = 0; rank < n; ++rank) {
            const Level &l = book.at(side, rank);
            to.append(DepthLevel{l.price, l.qty});
        }
    };
    copySide(Side::Bid, out.bids);
    copySide(Side::Ask, out.asks);
}

} // namespace streamscope::book
