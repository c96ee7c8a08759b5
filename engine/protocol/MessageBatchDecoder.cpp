// MessageDecoder's batch (MessageDecoder.h, beginBatch()): the small messages of one read
// indexed by one stage 1 (simdjson's iterate_many) and each walked as decode() walks it alone.
//
// Why a document of the batch reads as its message alone: a run's messages start with '{' and
// end with '}', spaces between them. When a document starts at a message's first byte, that
// '{' is a structural character, so stage 1 was outside any string there, as it is at the
// start of the message alone; and when, after the walk, the next document starts at the next
// message's first byte (or the run ends), the message's last '}' closed its root and nothing
// but the message lay in between. Stage 1 then marked the message's bytes as it marks them
// alone, and the walk read what decode() reads. Anything else (a message cut short or with
// more after its root, a bad one before it) moves a document boundary off a message's: that
// message, and the rest of the run, are decoded alone, so a bad message is counted with the
// error decode() gives it and every other one exactly. A run of which stage 1 cut anything off
// (what follows its last whole document) is not read from the batch at all: the cut says that
// some message is no whole document, and the boundaries guessed around it are not trusted.

#include "MessageDecoder.h"
#include "MessageDecoderParser.h"

#include <cstring>

namespace streamscope {

namespace ondemand = simdjson::ondemand;

namespace {

bool batchable(const MessageView &m)
{
    return m.padded && m.isWhole() && m.size >= 2 && std::size_t(m.size) < MessageDecoder::kBatchMessageBytes
        && m.data[0] == '{' && m.data[m.size - 1] == '}';
}

} // namespace

void MessageDecoder::beginBatch(const MessageView *messages, qsizetype count)
{
    Parser::Batch &b = m_parser->batch;
    b.messages = messages;
    b.count = count;
    b.runEnd = 0;
    b.current = -1;
    b.live = false;
}

void MessageDecoder::endBatch()
{
    beginBatch(nullptr, 0);
}

bool MessageDecoder::decodeInBatch(qsizetype index, const std::string &pointer, DecodedFields &out,
                                   const DecodeSpec &spec, bool identity, bool symbol)
{
    Parser::Batch &b = m_parser->batch;
    Q_ASSERT(index >= 0 && index < b.count);
    const MessageView &message = b.messages[index];
    const auto alone = [&] { return decode(message, pointer, out, spec, identity, symbol); };
    if (!pointer.empty())
        return alone();
    if (index >= b.runEnd) {
        // A new run from this message: the batchable messages that follow it in order, within
        // kBatchBytes.
        b.live = false;
        qsizetype end = index;
        while (end < b.count && batchable(b.messages[end])
               && (end == index
                   || (b.messages[end].data >= b.messages[end - 1].data + b.messages[end - 1].size
                       && std::size_t(b.messages[end].data + b.messages[end].size - message.data) <= kBatchBytes)))
            ++end;
        b.runEnd = std::max(end, index + 1);
        if (end - index < 2)
            return alone();
        for (qsizetype i = index + 1; i < end; ++i) {
            char *gap = b.messages[i - 1].writable() + b.messages[i - 1].size;
            std::memset(gap, ' ', std::size_t(b.messages[i].data - gap));
        }
        const MessageView &last = b.messages[end - 1];
        const auto len = std::size_t(last.data + last.size - message.data);
        if (b.parser.iterate_many(message.data, len, kBatchBytes).get(b.stream))
            return alone();
        b.at = b.stream.begin();
        // Stage 1 cut off what follows the run's last whole document: a message of the run is
        // no whole document (unbalanced, a string left open), and the boundaries stage 1 guessed
        // for the rest cannot be trusted (fuzz_messagebatch found a message with a missing
        // comma read without error before such a cut). The run is decoded alone.
        if (b.stream.truncated_bytes() != 0)
            return alone();
        b.runStart = message.data;
        b.current = index;
        b.live = true;
    }
    if (!b.live || index < b.current)
        return alone();
    // The documents of messages left out are skipped (by their brackets).
    for (; b.current < index; ++b.current)
        ++b.at;
    // The document must start at the message, be walked without error, and be followed by the
    // next message's document or by the end of the run.
    ondemand::document_reference ref;
    if (!(b.at != b.stream.end()) || (*b.at).get(ref)
        || b.at.current_index() != std::size_t(message.data - b.runStart)) {
        b.live = false;
        return alone();
    }
    ondemand::document &doc = ref;
    if (decoder::walkSmallDocument(doc, out, spec, identity, symbol) != simdjson::SUCCESS) {
        b.live = false;
        return alone();
    }
    const simdjson::simdjson_result<const char *> next = doc.current_location();
    const bool lastOfRun = index + 1 == b.runEnd;
    if (lastOfRun ? next.error() != simdjson::OUT_OF_BOUNDS
                  : next.error() != simdjson::SUCCESS || next.value_unsafe() != b.messages[index + 1].data) {
        b.live = false;
        return alone();
    }
    ++m_batchDecoded;
    return true;
}

} // namespace streamscope
