#pragma once

// What the head scan and the decoder must find in one venue's messages, given as data by the
// venue's folder (engine/venues/<venue>/) to a scanner and a decoder that know no venue: which
// keys hold the event time (and its unit), the event type, the symbol, the sequence fields and
// what tells events apart; which key holds a nested event (an envelope's "data") or a list of
// changes; the heartbeat and notice shapes; and how the head scan tells data from responses
// (HeadSpec). MessageDecoder.cpp interprets it.
//
// A spec is built once (a venue's spec is a function-local static) and is immutable after;
// its keys are views of string literals. The constructor indexes the rules by scope and by the
// first character of their key, so that the decoder's per-field dispatch is one table lookup
// and, for a candidate, one word compare.
//
// Thread contract: immutable after construction; read from any thread.

#include "HeadSpec.h"
#include "TradeSpec.h"
#include "model/StreamTypes.h"

#include <QtCore/QtGlobal>

#include <array>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string_view>
#include <vector>

namespace streamscope {

struct DecodedFields;

// What a key's value is read as, and where it goes in DecodedFields.
enum class FieldRole : quint8 {
    Unknown = 0,
    EventTime,     // a time in the spec's timeUnit: integer, float or a string of digits → eventTime
    EventType,     // string → eventType
    Symbol,        // string → symbol
    FirstUpdateId, // integer → firstUpdateId (the first sequence number the event covers)
    FinalUpdateId, // integer → finalUpdateId (the last)
    PrevUpdateId,  // integer → prevFinalUpdateId (the previous event's last, where the venue says it)
    StreamName,    // string → stream: which of the connection's streams the event belongs to
    EventId,       // integer → tradeId, what identifies one event of its stream; any other type is skipped
    Text,          // string → texts[slot]
    Number,        // integer, or null for none → numbers[slot]
    Flag,          // boolean, OR-ed into bit `slot` of flags
    EventTimeText, // an RFC 3339 time as text ("2023-09-25T07:48:36.925533Z", protocol/TimeText.h) → eventTime
                   // in µs (the spec's timeUnit is then Microseconds)
    // The roles that hold further fields (last, so that one compare tells them apart):
    Event, // an object that is the event, or an array of events whose first stands for the batch
    Items, // an array of objects, each read with the rules of scope kItem (every one, to the end)
};

// Where a rule applies (a bit set): the root object, an event (nested in the root through an
// Event rule, or the first element of a root array), an element of an Items list.
enum FieldScope : quint8 { kRootScope = 1, kEventScope = 2, kItemScope = 4 };

struct FieldRule {
    std::string_view key{}; // as written in the message (our keys never need unescaping), at most kMaxKeyBytes
    FieldRole role = FieldRole::Unknown;
    quint8 scopes = kRootScope | kEventScope;
    quint8 slot = 0;       // Text, Number, Flag: which slot or bit
    bool identity = false; // read only when the caller asks what tells events apart (a rollover's de-duplication)
};

// A decoded text slot that marks a message: the venue's heartbeat (Betfair ct=HEARTBEAT).
struct TextMarker {
    static constexpr quint8 kEventType = 0xff; // a slot that means the decoded event type
    quint8 slot = 0;
    std::string_view value{}; // empty: no marker

    bool matches(const DecodedFields &fields) const;
};

// A data message that is a venue notice rather than data (Binance serverShutdown): its decoded
// event type, and for raw streams, which decode nothing, the bytes it starts with.
struct NoticeShape {
    std::string_view eventType{}; // empty: the venue has no notice
    std::string_view rawPrefix{};
    // A byte of the prefix that data messages rarely share, compared first (the hot path then
    // rejects almost every message with one comparison).
    std::size_t rawProbe = 0;
};

class DecodeSpec {
public:
    static constexpr std::size_t kMaxKeyBytes = 32; // below the receive buffer's padding
    static constexpr std::size_t kMaxRules = 40;    // all index entries (up to 6 per rule) fit a byte

    DecodeSpec() = default;
    DecodeSpec(const DecodeSpec &other);
    DecodeSpec &operator=(const DecodeSpec &other);
    // Indexes the rules by scope and the first character of their key; keys must be printable
    // ASCII. Copies keep their own index (it points into their own rules).
    explicit DecodeSpec(std::initializer_list<FieldRule> rules);
    // The same from rules put together (a venue that reads another's rules and more).
    explicit DecodeSpec(std::vector<FieldRule> rules);

    // The rules of one scope (and identity), for a walk of one object: taken once per object, so
    // that a field's lookup (find()) is one table read and, for a key some rule starts with the
    // same character, one masked 8-byte compare.
    class Keys;
    Keys keys(FieldScope scope, bool identity) const;

    // The rule for a raw (still escaped) key that ends with its closing quote, in `scope`;
    // identity rules only when `identity`. Reads up to 8 bytes from `rawKey` (Keys::find()).
    const FieldRule *find(const char *rawKey, FieldScope scope, bool identity) const;
    const std::vector<FieldRule> &rules() const { return m_rules; }
    // Whether some rule reads a value of `role`.
    bool reads(FieldRole role) const;
    // Some rule reads the first or final sequence number.
    bool readsSequence() const { return m_readsSequence; }

    // The event time's unit when the stream names no latency field of its own.
    LatencyUnit timeUnit = LatencyUnit::Milliseconds;
    // An event of this type wants its sequence fields before a walk may stop early (Binance
    // "depthUpdate"); empty: every event does, when the spec reads sequence fields at all.
    std::string_view sequencedEventType{};
    // Nested events of these types end at their id (EventId): the rest is skipped unread (and
    // a trade's later "a", the seller's order id, is not taken for its id).
    std::array<std::string_view, 2> idEndsEventTypes{};
    // Long messages are first decoded from a prefix (MessageDecoder.h); false when the venue's
    // fields are spread to the message's end (an Items list read whole).
    bool prefixDecode = true;
    TextMarker heartbeat;
    NoticeShape notice;
    HeadSpec head;
    // Where its trade messages carry their prices (read by a second walk, only for a stream
    // that compares its last trade price across venues).
    TradeSpec trades;

private:
    static constexpr std::size_t kFirstChars = 128;
    // One rule in one scope, with the first bytes of its key and closing quote (up to 8) as a
    // word to compare with the message's.
    struct Entry {
        std::uint64_t word = 0;
        std::uint64_t mask = 0;
        std::size_t length = 0; // the key's, without the quote
        const FieldRule *rule = nullptr;
    };
    static constexpr std::size_t kMaxEntries = 6 * kMaxRules;
    // The entries whose key starts with one character, in one identity and scope: [begin, end)
    // of m_entries.
    struct Range {
        quint8 begin = 0;
        quint8 end = 0;
    };

    void buildIndex();
    // The key's characters from the 8th on, and the quote after them.
    static bool tailMatches(const char *rawKey, const FieldRule &rule)
    {
        const std::size_t n = rule.key.size();
        for (std::size_t k = sizeof(std::uint64_t); k < n; ++k) {
            if (rawKey[k] != rule.key[k])
                return false;
        }
        return rawKey[n] == '"';
    }

    std::vector<FieldRule> m_rules;
    // By identity, scope, then the key's first character; held in the spec itself, so that the
    // lookup reads no pointer to reach them.
    std::array<Entry, kMaxEntries> m_entries{};
    std::size_t m_entryCount = 0;
    // Indexed by whether identity rules are read, then by the scope's bit, then the character.
    std::array<std::array<std::array<Range, kFirstChars>, kItemScope + 1>, 2> m_index{};
    bool m_readsSequence = false;
};

// One scope's rules of a DecodeSpec (DecodeSpec::keys()).
class DecodeSpec::Keys {
public:
    // The rule for a raw (still escaped) key that ends with its closing quote. Hot path: one
    // table read, and for a key some rule starts with the same character, one masked 8-byte
    // compare of the key and its quote (more only for keys of 8 characters or more). Reads up
    // to 8 bytes from `rawKey`: a message in the receive buffer is padded well beyond that
    // (ReceiveBuffer::kPadding).
    Q_ALWAYS_INLINE const FieldRule *find(const char *rawKey) const
    {
        const auto first = static_cast<unsigned char>(rawKey[0]);
        if (first >= kFirstChars)
            return nullptr;
        const Range range = m_ranges[first];
        if (range.begin == range.end)
            return nullptr;
        std::uint64_t word;
        std::memcpy(&word, rawKey, sizeof word);
        const Entry *entry = m_entries + range.begin;
        const Entry *const end = m_entries + range.end;
        for (; entry != end; ++entry) {
            if ((word & entry->mask) != entry->word)
                continue;
            if (entry->length >= sizeof word && !tailMatches(rawKey, *entry->rule))
                continue;
            return entry->rule;
        }
        return nullptr;
    }

private:
    friend class DecodeSpec;
    using Entry = DecodeSpec::Entry;
    using Range = DecodeSpec::Range;
    static constexpr std::size_t kFirstChars = DecodeSpec::kFirstChars;
    Keys(const Range *ranges, const Entry *entries)
        : m_ranges(ranges)
        , m_entries(entries)
    {
    }
    const Range *m_ranges;
    const Entry *m_entries;
};

inline DecodeSpec::Keys DecodeSpec::keys(FieldScope scope, bool identity) const
{
    return Keys(m_index[identity][scope].data(), m_entries.data());
}

inline const FieldRule *DecodeSpec::find(const char *rawKey, FieldScope scope, bool identity) const
{
    return keys(scope, identity).find(rawKey);
}

} // namespace streamscope
