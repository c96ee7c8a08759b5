// MessageDecoder (engine/protocol/MessageDecoder.*): simdjson ondemand over every data message
// a peer sends, with its own shortcuts (the lazy tail, the prefix of a long message).
//
// Input: one option byte (bits 0-1 the venue's decode spec: 0 generic, 1 binance, 2 betfair; 3 as
// 0), bits 2-5 the latency field's JSON
// pointer from a table; 15: the pointer is the input's first line), then the message.
// Checked:
// - nothing is read past the message and simdjson's padding: the receive buffer beyond them
//   is poisoned for ASan;
// - nothing after the message changes the outcome: decoded with zeros and with JSON-like junk
//   after it (a reused buffer holds the last longer message there), the answers are equal;
// - the message and the bytes after it are left as they were (a batch's next message);
// - a long message decoded from its prefix (a fresh decoder) agrees with the whole-message
//   walk (a decoder whose prefix attempts are paused): when the walk succeeds, so does the
//   prefix, with the same fields; the prefix may accept what the walk refuses only in the
//   tail it never reads (MessageDecoder.h);
// - a failure explains itself: "not valid JSON (...)" or a message naming the field;
// - with Betfair's spec, also its nested price ladders (decodeLadders, as BookLadders reads
//   them, both ladder shapes): every text it hands over can be read whole, nothing is read past
//   the message and its padding, the message is left as it was, and a failure says why;
// - with every spec, the trade walk (decodeTrades) by Binance's and Coinbase's TradeSpec (a
//   trade at the root or under "data"; events[].trades[]): every text it hands over can be read
//   whole, nothing is read past the message and its padding, the message is left as it was.

#include "DecodeOutcome.h"
#include "FuzzSupport.h"
#include "protocol/MessageDecoder.h"
#include "session/BookLadders.h"
#include "venues/VenueRegistry.h"
#include "venues/betfair/BetfairBookRules.h"

#include <sanitizer/asan_interface.h>

#include <QtCore/QString>

#include <cstring>
#include <string>

using streamscope::DecodedFields;
using streamscope::DecodeSpec;
using streamscope::MessageDecoder;
using streamscope::MessageView;
using streamscope::ReceiveBuffer;
using streamscope::fuzz::DecodeOutcome;
using streamscope::fuzz::InputReader;

namespace {

const char *const kPointers[] = {
    "",   "/E",    "/data/E", "/pt", "/ts",  "/data/0/E", "/a~1b", "/0",
    "/T", "/data", "/x/y/z",  "/~0", "/ts/", "/mc/0/pt",  "/E/0",
};
constexpr int kCustomPointer = 15;

// Decodes in place, as a transport does: copied into a receive buffer, with zeros or
// JSON-like junk in the padding after it (the decoder clears the first byte itself and puts
// it back), and the rest of the buffer poisoned while the decoder runs.
DecodeOutcome decode(MessageDecoder &decoder, ReceiveBuffer &buffer, const char *message, std::size_t len,
                     const std::string &pointer, const DecodeSpec &spec, bool junkAfter)
{
    char *data = buffer.reserve(len);
    std::memcpy(data, message, len);
    static const char kJunk[] = "}]\",:{[\\ 1e9\"x\":";
    for (std::size_t i = 0; i < ReceiveBuffer::kPadding; ++i)
        data[len + i] = junkAfter ? kJunk[i % (sizeof(kJunk) - 1)] : '\0';
    char *const tail = data + len + ReceiveBuffer::kPadding;
    const std::size_t tailBytes = buffer.allocated() - len - ReceiveBuffer::kPadding;
    char padding[ReceiveBuffer::kPadding];
    std::memcpy(padding, data + len, sizeof padding);
    ASAN_POISON_MEMORY_REGION(tail, tailBytes);
    DecodedFields f;
    const bool ok = decoder.decode(MessageView{data, qsizetype(len), qsizetype(len), true}, pointer, f, spec);
    ASAN_UNPOISON_MEMORY_REGION(tail, tailBytes);
    FUZZ_CHECK(std::memcmp(padding, data + len, sizeof padding) == 0 && std::memcmp(data, message, len) == 0,
               "the message and the bytes after it are as they were (another message may follow)");
    const DecodeOutcome out = DecodeOutcome::of(decoder, ok, f);
    if (!out.ok) {
        FUZZ_CHECK(!out.error.isEmpty(), "a failure has a message");
        if (out.fieldError)
            FUZZ_CHECK(out.error.startsWith(QLatin1String("field \"")), "a field error names the field");
        else
            FUZZ_CHECK(out.error.startsWith(QLatin1String("not valid JSON (")), "a JSON error says so");
    }
    return out;
}

// A decoder whose next long messages skip the prefix attempt: it has just missed on one
// (the message's only field lies past the prefix).
void pausePrefix(MessageDecoder &decoder, ReceiveBuffer &buffer)
{
    static const std::string kMiss =
        "{\"p\":\"" + std::string(MessageDecoder::kPrefixMinBytes, 'a') + "\",\"E\":1700000000000}";
    DecodedFields f;
    FUZZ_CHECK(decoder.decode(buffer.copy(kMiss.data(), qsizetype(kMiss.size())), std::string(), f,
                              streamscope::VenueRegistry::entryOf(streamscope::Venue::Generic).decodeSpec()),
               "the priming message decodes");
}

// Reads every byte of every text a ladder walk hands over (ASan: a view into freed or poisoned
// memory fails here).
class LadderReader final : public MessageDecoder::LadderSink {
public:
    void beginGroup() override { }
    void groupId(std::string_view text) override { touch(text); }
    void groupImage(bool) override { }
    void groupVersion(std::int64_t) override { }
    void beginItem() override { }
    void itemId(std::string_view text) override { touch(text); }
    void itemSub(std::string_view text) override { touch(text); }
    void level(bool, std::string_view position, std::string_view price, std::string_view size) override
    {
        touch(position);
        touch(price);
        touch(size);
    }
    unsigned sum = 0;

private:
    void touch(std::string_view text)
    {
        for (const char c : text)
            sum += static_cast<unsigned char>(c);
    }
};

// Copies the message into the receive buffer, poisons what lies past its padding, runs `walk`
// over it (a padded view), and checks that the message is left as it was.
template<typename Walk>
void poisonedWalk(ReceiveBuffer &buffer, const char *message, std::size_t len, Walk walk)
{
    char *data = buffer.reserve(len);
    std::memcpy(data, message, len);
    std::memset(data + len, 0, ReceiveBuffer::kPadding);
    char *const tail = data + len + ReceiveBuffer::kPadding;
    const std::size_t tailBytes = buffer.allocated() - len - ReceiveBuffer::kPadding;
    ASAN_POISON_MEMORY_REGION(tail, tailBytes);
    walk(MessageView{data, qsizetype(len), qsizetype(len), true});
    ASAN_UNPOISON_MEMORY_REGION(tail, tailBytes);
    FUZZ_CHECK(std::memcmp(data, message, len) == 0, "the walk leaves the message as it was");
}

void decodeLadders(ReceiveBuffer &buffer, const char *message, std::size_t len, bool positional)
{
    using streamscope::betfair::BetfairBookRules;
    const BetfairBookRules *rules = BetfairBookRules::forLadder(positional ? BetfairBookRules::Ladder::BestOffers
                                                                           : BetfairBookRules::Ladder::AllOffers);
    const MessageDecoder::LadderKeys keys =
        streamscope::ladderDecoderKeys(*rules->ladders()); // as BookLadders reads them
    poisonedWalk(buffer, message, len, [&](const MessageView &view) {
        MessageDecoder decoder;
        LadderReader reader;
        const bool ok = decoder.decodeLadders(view, keys, reader);
        FUZZ_CHECK(ok || !decoder.lastError().isEmpty(), "a ladder walk's failure has a message");
    });
}

// Reads every byte of every text a trade walk hands over.
class TradeReader final : public MessageDecoder::TradeSink {
public:
    void trade(std::string_view symbol, std::string_view price) override
    {
        for (const std::string_view text : {symbol, price})
            for (const char c : text)
                sum += static_cast<unsigned char>(c);
    }
    unsigned sum = 0;
};

void decodeTrades(ReceiveBuffer &buffer, const char *message, std::size_t len, const char *venue)
{
    const streamscope::TradeSpec &trades =
        streamscope::VenueRegistry::entryOf(streamscope::Venue(venue)).decodeSpec().trades;
    poisonedWalk(buffer, message, len, [&](const MessageView &view) {
        MessageDecoder decoder;
        TradeReader reader;
        decoder.decodeTrades(view, trades, reader);
    });
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    InputReader in(data, size);
    const std::uint8_t options = in.byte();
    const DecodeSpec &spec = streamscope::fuzz::decodeSpecOf(options);
    const int pointerIndex = (options >> 2) & 15;
    const char *message = in.rest();
    std::size_t len = in.restSize();
    std::string pointer;
    if (pointerIndex == kCustomPointer) {
        const auto *nl = static_cast<const char *>(std::memchr(message, '\n', len));
        const std::size_t n = nl ? std::size_t(nl - message) : len;
        pointer.assign(message, n);
        message += nl ? n + 1 : n;
        len -= nl ? n + 1 : n;
    } else {
        pointer = kPointers[pointerIndex];
    }

    ReceiveBuffer buffer;
    MessageDecoder zeros;
    const DecodeOutcome a = decode(zeros, buffer, message, len, pointer, spec, false);
    MessageDecoder junk;
    const DecodeOutcome b = decode(junk, buffer, message, len, pointer, spec, true);
    FUZZ_CHECK(a.ok == b.ok && a.error == b.error && a.sameFields(b), "bytes past the message change nothing");

    if ((options & 3) == 2) {
        decodeLadders(buffer, message, len, false);
        decodeLadders(buffer, message, len, true);
    }
    decodeTrades(buffer, message, len, "binance");
    decodeTrades(buffer, message, len, "coinbase");

    if (len >= MessageDecoder::kPrefixMinBytes) {
        MessageDecoder whole;
        pausePrefix(whole, buffer);
        const DecodeOutcome w = decode(whole, buffer, message, len, pointer, spec, false);
        if (w.ok) {
            FUZZ_CHECK(a.ok, "what the whole walk accepts, the prefix accepts");
            FUZZ_CHECK(a.sameFields(w), "prefix and whole walk decode the same fields");
        }
    }
    return 0;
}
