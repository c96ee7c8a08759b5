#include "KrakenBookRules.h"

#include "KrakenFields.h"
#include "book/Crc32.h"
#include "book/OrderBook.h"

#include <algorithm>
#include <charconv>

namespace streamscope::kraken {

using book::BookMessage;
using book::DiffAction;
using book::Fixed;

namespace {

// `v` written with `places` decimals, the '.' and the leading zeros removed: the digits of the
// integer v × 10^places (v counts 10^-kDecimals). Appended to the running CRC. False: it does
// not fit (more places than the book keeps, whose product passes int64).
bool feed(std::uint32_t &crc, Fixed v, int places)
{
    static constexpr Fixed kPow10[] = {1, 10, 100, 1'000, 10'000, 100'000, 1'000'000, 10'000'000, 100'000'000};
    static_assert(book::kDecimals == 8);
    Fixed n = v;
    if (places < book::kDecimals)
        n /= kPow10[book::kDecimals - std::max(0, places)]; // exact: no value has more places than the most seen
    for (int p = book::kDecimals; p < places; ++p) {
        if (n > INT64_MAX / 10)
            return false;
        n *= 10;
    }
    if (n == 0)
        return true; // all zeros: nothing is left once they are removed
    char digits[24];
    const auto r = std::to_chars(digits, digits + sizeof digits, n);
    crc = book::crc32Update(crc, std::string_view(digits, std::size_t(r.ptr - digits)));
    return true;
}

} // namespace

const KrakenBookRules &KrakenBookRules::instance()
{
    static const KrakenBookRules rules;
    return rules;
}

int KrakenBookRules::kindSlot() const
{
    return kType;
}

BookMessage KrakenBookRules::classify(std::string_view eventType, std::string_view kind, const book::DiffIds &) const
{
    if (eventType != diffEventType())
        return BookMessage::None;
    if (kind == "snapshot")
        return BookMessage::Snapshot;
    return kind == "update" ? BookMessage::Diff : BookMessage::None;
}

DiffAction KrakenBookRules::next(const book::DiffIds &, std::int64_t) const
{
    return DiffAction::Apply; // no sequence: the checksum is the check
}

std::size_t KrakenBookRules::streamDepth(std::string_view, std::size_t snapshotLevels) const
{
    for (const std::size_t d : kDepths) {
        if (snapshotLevels <= d)
            return d;
    }
    return 0;
}

std::uint32_t KrakenBookRules::checksum(const book::OrderBook &book, int priceDecimals, int qtyDecimals) const
{
    std::uint32_t crc = book::kCrc32Start;
    for (const book::Side side : {book::Side::Ask, book::Side::Bid}) {
        const std::size_t n = std::min(kChecksumLevels, book.levels(side));
        for (std::size_t r = 0; r < n; ++r) {
            const book::Level &l = book.at(side, r);
            if (!feed(crc, l.price, priceDecimals) || !feed(crc, l.qty, qtyDecimals))
                return 0; // cannot be written: never equal to a real checksum but by chance
        }
    }
    return book::crc32Finish(crc);
}

} // namespace streamscope::kraken
