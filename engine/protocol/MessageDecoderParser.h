#pragma once

// What MessageDecoder's two translation units share (MessageDecoder.cpp: the message's fields;
// LevelDecoder.cpp: a book's levels): the simdjson parser, and the guard of the byte after a
// message. Both are compiled with the SIMD options of engine/CMakeLists.txt, and only they
// include simdjson.
//
// Thread contract: as MessageDecoder's (one decoder a thread).

#include "MessageDecoder.h"

#include <simdjson.h>

namespace streamscope {

static_assert(ReceiveBuffer::kPadding >= simdjson::SIMDJSON_PADDING);

class MessageDecoder::Parser {
public:
    simdjson::ondemand::parser parser{MessageDecoder::kMaxDocumentBytes};
};

namespace decoder {

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

} // namespace streamscope
