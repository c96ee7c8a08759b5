// MessageDecoder's batch (engine/protocol/MessageBatchDecoder.cpp): the small messages of one
// read indexed by one simdjson stage 1 (iterate_many) and each walked as decode() walks it
// alone. The batch is an optimisation only: every message must decode as it does alone.
//
// Input: one option byte (bits 0-1 the venue's decode spec: 0 generic, 1 binance, 2 betfair,
// 3 as 0; bit 2 `identity`; bit 3 `symbol`; bit 4 some messages are left out, as the router
// leaves out what is not data), eight bytes of split seed, then the messages, separated by
// '\n' (at most 64, a native read's batch).
// The messages are laid out in one receive buffer as the native websocket transport lays out
// a read: each behind a gap of 0 to 14 bytes of whatever the seed gives (a frame header), with
// the seed's junk in the padding after the last and the buffer beyond it poisoned for ASan.
// Checked, for every message asked for:
// - it decodes from the batch exactly as decode() decodes a copy of it alone: the same result,
//   the same lastError() and lastErrorIsField(), the same fields;
// - nothing is read past the last message's padding;
// - every message is left as it came (only the gaps between them are written).

#include "DecodeOutcome.h"
#include "FuzzSupport.h"
#include "protocol/MessageDecoder.h"

#include <sanitizer/asan_interface.h>

#include <cstring>
#include <string>
#include <vector>

using streamscope::DecodedFields;
using streamscope::DecodeSpec;
using streamscope::MessageDecoder;
using streamscope::MessageView;
using streamscope::ReceiveBuffer;
using streamscope::fuzz::DecodeOutcome;
using streamscope::fuzz::InputReader;
using streamscope::fuzz::SplitRng;

namespace {

constexpr std::size_t kMaxMessages = 64; // NativeWebSocketTransport's batch
constexpr std::size_t kMaxGap = 14;      // the longest server frame header

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    InputReader in(data, size);
    const std::uint8_t options = in.byte();
    const DecodeSpec &spec = streamscope::fuzz::decodeSpecOf(options);
    const bool identity = options & 4;
    const bool symbol = options & 8;
    const bool leaveOut = options & 16;
    SplitRng rng(in.u64());

    // The messages, as the input separates them.
    std::vector<std::string> messages;
    const char *rest = in.rest();
    std::size_t left = in.restSize();
    while (messages.size() < kMaxMessages) {
        const auto *nl = static_cast<const char *>(std::memchr(rest, '\n', left));
        const std::size_t n = nl ? std::size_t(nl - rest) : left;
        messages.emplace_back(rest, n);
        if (!nl)
            break;
        rest += n + 1;
        left -= n + 1;
    }

    // One read: a gap before each message, junk in the padding after the last.
    std::size_t total = 0;
    std::vector<std::size_t> offsets;
    for (const std::string &m : messages) {
        total += rng.below(kMaxGap + 1);
        offsets.push_back(total);
        total += m.size();
    }
    ReceiveBuffer buffer;
    char *const base = buffer.reserve(total);
    for (std::size_t i = 0; i < total + ReceiveBuffer::kPadding; ++i)
        base[i] = char(rng.next());
    std::vector<MessageView> views;
    for (std::size_t i = 0; i < messages.size(); ++i) {
        std::memcpy(base + offsets[i], messages[i].data(), messages[i].size());
        const auto n = qsizetype(messages[i].size());
        views.push_back(MessageView{base + offsets[i], n, n, true});
    }
    std::vector<bool> asked(messages.size(), true);
    if (leaveOut)
        for (std::size_t i = 0; i < messages.size(); ++i)
            asked[i] = rng.below(4) != 0;

    // The batch, with what lies past the padding poisoned while it runs.
    char *const tail = base + total + ReceiveBuffer::kPadding;
    const std::size_t tailBytes = buffer.allocated() - total - ReceiveBuffer::kPadding;
    std::vector<DecodeOutcome> fromBatch(messages.size());
    MessageDecoder batchDecoder;
    ASAN_POISON_MEMORY_REGION(tail, tailBytes);
    batchDecoder.beginBatch(views.data(), qsizetype(views.size()));
    for (std::size_t i = 0; i < messages.size(); ++i) {
        if (!asked[i])
            continue;
        DecodedFields f;
        const bool ok = batchDecoder.decodeInBatch(qsizetype(i), std::string(), f, spec, identity, symbol);
        fromBatch[i] = DecodeOutcome::of(batchDecoder, ok, f);
    }
    batchDecoder.endBatch();
    ASAN_UNPOISON_MEMORY_REGION(tail, tailBytes);
    for (std::size_t i = 0; i < messages.size(); ++i)
        FUZZ_CHECK(std::memcmp(views[i].data, messages[i].data(), messages[i].size()) == 0,
                   "the batch leaves every message as it came");

    // Each message alone, in the same order, by a decoder of its own (as a transport that
    // hands one message at a time has it decoded).
    MessageDecoder aloneDecoder;
    ReceiveBuffer own;
    for (std::size_t i = 0; i < messages.size(); ++i) {
        if (!asked[i])
            continue;
        DecodedFields f;
        const MessageView view = own.copy(messages[i].data(), qsizetype(messages[i].size()));
        std::memset(own.data() + messages[i].size(), 0, ReceiveBuffer::kPadding);
        const bool ok = aloneDecoder.decode(view, std::string(), f, spec, identity, symbol);
        const DecodeOutcome alone = DecodeOutcome::of(aloneDecoder, ok, f);
        if (!(alone == fromBatch[i])) {
            std::fprintf(stderr, "message %zu of %zu (%zu bytes): alone %s \"%s\", batch %s \"%s\"\n", i,
                         messages.size(), messages[i].size(), alone.ok ? "ok" : "failed", qPrintable(alone.error),
                         fromBatch[i].ok ? "ok" : "failed", qPrintable(fromBatch[i].error));
            FUZZ_CHECK(false, "a message decodes from its batch as it decodes alone");
        }
    }
    return 0;
}
