#pragma once

// What MessageDecoder's translation units share (MessageDecoder.cpp: the message's fields;
// LevelDecoder.cpp: a book's levels; LadderDecoder.cpp: nested ladders; TradeDecoder.cpp: trade
// prices; MessageBatchDecoder.cpp: a read's batch): the simdjson parsers,
// the guard of the byte after a message, the walk of a root object, a number read as the text
// sent (the other scalar readers: MessageDecoderReaders.h). They are compiled
// with the SIMD options of engine/CMakeLists.txt, and only they include simdjson.
//
// Thread contract: as MessageDecoder's (one decoder a thread).

#include "MessageDecoder.h"

#include <simdjson.h>

namespace streamscope {

static_assert(ReceiveBuffer::kPadding >= simdjson::SIMDJSON_PADDING);

namespace decoder {

// Walks a small document (under kBatchMessageBytes: no lazy tail) as decode() walks a whole
// message, `out` reset first; what decode() checks after the walk is the caller's.
simdjson::error_code walkSmallDocument(simdjson::ondemand::document &doc, DecodedFields &out, const DecodeSpec &spec,
                                       bool identity, bool symbol);

// simdjson 3.0 re-scans the whole structural index to check that brackets balance when the
// first padding byte is '}' (simdjson issue 1834), and a reused buffer often holds a longer
// message's '}' just there. A message never includes this byte: it is cleared while the
// message is decoded and put back after, for another message may begin there.
class ClearedEnd {
public:
    explicit ClearedEnd(char *end)
        : m_end(end)
        , m_saved(*end)
    {
        *end = '\0';
    }
    ~ClearedEnd() { *m_end = m_saved; }
    ClearedEnd(const ClearedEnd &) = delete;
    ClearedEnd &operator=(const ClearedEnd &) = delete;

private:
    char *m_end;
    char m_saved;
};

} // namespace decoder

class MessageDecoder::Parser {
public:
    simdjson::ondemand::parser parser{MessageDecoder::kMaxDocumentBytes};

    // Indexes a whole message whose root is an object and hands the root to `walk` (a callable
    // taking the object and returning a simdjson::error_code), the byte after the message
    // cleared meanwhile: how decodeLevels() and decodeLadders() begin. Returns the error of the
    // first step that failed, or `walk`'s.
    template<typename Walk>
    Q_ALWAYS_INLINE simdjson::error_code walkRootObject(const MessageView &message, Walk &&walk)
    {
        Q_ASSERT(message.isWhole());
        char *const data = message.writable();
        const auto len = std::size_t(message.size);
        const decoder::ClearedEnd cleared(data + len);
        simdjson::ondemand::document doc;
        if (auto e = parser.iterate(data, len, len + ReceiveBuffer::kPadding).get(doc))
            return e;
        simdjson::ondemand::object root;
        if (auto e = doc.get_object().get(root))
            return e;
        return walk(root);
    }

    // A read's batch (MessageBatchDecoder.cpp), with a parser of its own, allocated once at
    // kBatchBytes: a run is never longer, so stage 1 runs once a run, on this thread.
    struct Batch {
        simdjson::ondemand::parser parser{MessageDecoder::kBatchBytes};
        simdjson::ondemand::document_stream stream;
        simdjson::ondemand::document_stream::iterator at; // the document of messages[current]
        const MessageView *messages = nullptr;
        qsizetype count = 0;
        const char *runStart = nullptr; // where the run's first message starts
        qsizetype runEnd = 0;           // messages before it were in a run or alone
        qsizetype current = -1;         // the message whose document `at` is; -1: no run
        bool live = false;              // the run is read from; false after a mismatch, to its end
    } batch;
};

namespace decoder {

// A price, a quantity or an id: a string, or a number as the text sent (a venue that writes
// numbers, Kraken's v2, Betfair, writes them with all their places: the text is exact where a
// double is not).
inline simdjson::error_code readNumberText(simdjson::ondemand::value value, std::string_view &out)
{
    simdjson::ondemand::json_type type;
    if (auto e = value.type().get(type))
        return e;
    if (type == simdjson::ondemand::json_type::string)
        return value.get_string().get(out);
    if (type != simdjson::ondemand::json_type::number)
        return simdjson::INCORRECT_TYPE;
    std::string_view token = value.raw_json_token();
    // The token runs on over the whitespace after it.
    while (!token.empty()
           && (token.back() == ' ' || token.back() == '\t' || token.back() == '\n' || token.back() == '\r'))
        token.remove_suffix(1);
    out = token;
    return simdjson::SUCCESS;
}

} // namespace decoder

} // namespace streamscope
