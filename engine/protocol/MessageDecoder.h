#pragma once

// Decodes the few fields StreamScope needs from a data message, with simdjson ondemand, as the
// venue's DecodeSpec describes them: the event time (or a configured JSON pointer), the event
// type, the symbol, the sequence fields, what tells events apart, the venue's own fields, an
// event nested in an envelope, a list of changes. It knows no venue. Everything else is
// skipped, not copied; nothing is allocated.
//
// Thread contract: one decoder per worker thread, reused for every message of every stream
// on that worker (one parser, one padded buffer). Views in DecodedFields point into the
// buffer and are valid until the next call.
//
// simdjson stays inside MessageDecoder.cpp, which is built for SSE4.2 + CLMUL on x86-64 so
// that the ondemand parser uses its SIMD kernel rather than the portable fallback.

#include "DecodeSpec.h"
#include "DecodedFields.h"

#include <QtCore/QByteArray>
#include <QtCore/QString>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace streamscope {

// A padded buffer that simdjson can parse in place; grows, never shrinks.
class PaddedBuffer {
public:
    // Room for `len` bytes plus simdjson's padding; returns the start.
    static constexpr std::size_t kPadding = 64; // at least simdjson::SIMDJSON_PADDING

    char *reserve(std::size_t len)
    {
        const std::size_t need = len + kPadding;
        if (need > m_data.size())
            m_data.resize(std::max(need, m_data.size() * 2));
        return m_data.data();
    }
    char *data() { return m_data.data(); }
    std::size_t allocated() const { return m_data.size(); }

private:
    std::string m_data = std::string(64 * 1024, '\0');
};

class MessageDecoder {
public:
    static constexpr std::size_t kMaxDocumentBytes = 64 * 1024 * 1024;

    MessageDecoder();
    ~MessageDecoder();

    // The worker's scratch buffer: transports encode or copy a message here once, and the
    // decoder parses it in place.
    PaddedBuffer &buffer() { return m_buffer; }

    // Decodes `len` bytes at buffer().data() by `spec`. `pointer`, when not empty, is the JSON
    // pointer of the event time, and nothing else is read; one with '"' or '\\' in it matches nothing (simdjson cannot compare
    // such keys), and the message is then not checked either. Returns false on malformed JSON, or on a field we read whose value
    // has the wrong type or is out of range (see lastError()). An event time that is a number
    // beyond int64 (1e300) is read as INT64_MAX or INT64_MIN + 1: no plausible time.
    // `identity`: also read what tells one event from another (the envelope's "stream", the
    // symbol and trade id of an event that is not a depth diff), which only a rollover's
    // de-duplication needs. Without it the walk of an event nested in an envelope stops once
    // its type and time are known (a sequenced event's sequence fields are always read).
    bool decode(std::size_t len, const std::string &pointer, DecodedFields &out, const DecodeSpec &spec,
                bool identity = true);
    // Copies into the scratch buffer first.
    bool decodeCopy(const char *data, std::size_t len, const std::string &pointer, DecodedFields &out,
                    const DecodeSpec &spec, bool identity = true);

    // A long message whose head only may be converted yet: how many of its first bytes
    // decodeHead() needs (0: the whole message is needed, for it is short, its spec reads to the
    // end (DecodeSpec::prefixDecode), or the prefix missed on a recent message).
    std::size_t headBytes(std::size_t len, const std::string &pointer, const DecodeSpec &spec) const;
    // Decodes a message of `len` bytes of which the first `available` (headBytes()) are at
    // buffer().data() from its prefix, as decode() tries first, without what tells events apart
    // (no rollover de-duplicates a stream that converts heads only). False: the prefix was not
    // enough, and the whole message must be decode()d; nothing is then counted as an error.
    bool decodeHead(std::size_t available, std::size_t len, const std::string &pointer, DecodedFields &out,
                    const DecodeSpec &spec);

    // What went wrong: "not valid JSON (...)" or "field "E" has the wrong type (...)".
    QString lastError() const;
    // The last failure was valid JSON with a field of the wrong type or out of range.
    bool lastErrorIsField() const { return !m_failedField.empty(); }

    // The simdjson version built in ("3.0.1").
    static QString simdjsonVersion();

    // Messages of at least kPrefixMinBytes are first decoded from a prefix of about
    // kPrefixBytes, which succeeds when every wanted field comes before a long tail that the
    // walk leaves unread (MessageDecoder.cpp: the lazy tail); see decode().
    static constexpr std::size_t kPrefixMinBytes = 8 * 1024;
    static constexpr std::size_t kPrefixBytes = 2 * 1024;
    static constexpr int kPrefixRetryAfter = 255;
    // What decodePrefix() reads of a message whose root starts within its first 64 bytes.
    static constexpr std::size_t kHeadBytes = 2 * kPrefixBytes + 64;

private:
    // From the first `available` bytes of the message in the buffer (all of them, or its head).
    bool decodePrefix(std::size_t available, const std::string &pointer, DecodedFields &out, const DecodeSpec &spec);

    class Parser;
    std::unique_ptr<Parser> m_parser;
    PaddedBuffer m_buffer;
    int m_lastError = 0;       // simdjson::error_code
    std::string m_failedField; // the key (or pointer) whose value failed to read; empty: the JSON
    int m_prefixSkips = 0;
};

} // namespace streamscope
