#pragma once

// Decodes the few fields StreamScope needs from a data message, with simdjson ondemand, as the
// venue's DecodeSpec describes them: the event time (or a configured JSON pointer), the event
// type, the symbol, the sequence fields, what tells events apart, the venue's own fields, an
// event nested in an envelope, a list of changes. It knows no venue. Everything else is
// skipped, not copied; nothing is allocated.
//
// Thread contract: one decoder per worker thread, reused for every message of every stream
// on that worker (one parser). It reads messages in place in the worker's ReceiveBuffer
// (ReceiveBuffer.h); views in DecodedFields point into the message and are valid until the
// buffer is written again.
//
// simdjson stays inside MessageDecoder.cpp, which is built for SSE4.2 + CLMUL on x86-64 so
// that the ondemand parser uses its SIMD kernel rather than the portable fallback.

#include "DecodeSpec.h"
#include "DecodedFields.h"
#include "ReceiveBuffer.h"

#include <QtCore/QByteArray>
#include <QtCore/QString>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace streamscope {

class MessageDecoder {
public:
    static constexpr std::size_t kMaxDocumentBytes = 64 * 1024 * 1024;

    MessageDecoder();
    ~MessageDecoder();

    // Decodes one whole message by `spec`, in place: `message` must be padded (in a
    // ReceiveBuffer; a view of bytes elsewhere is copied there first, ReceiveBuffer::copy()).
    // The bytes after it are written for a moment and put back, so a message that another
    // follows in the buffer stays intact. `pointer`, when not empty, is the JSON pointer of the
    // event time, and nothing else is read; one with '"' or '\\' in it matches nothing (simdjson
    // cannot compare such keys), and the message is then not checked either. Returns false on
    // malformed JSON, or on a field we read whose value has the wrong type or is out of range
    // (see lastError()). An event time that is a number beyond int64 (1e300) is read as
    // INT64_MAX or INT64_MIN + 1: no plausible time.
    // `identity`: also read what tells one event from another (the envelope's "stream", the
    // symbol and trade id of an event that is not a depth diff), which only a rollover's
    // de-duplication needs. Without it the walk of an event nested in an envelope stops once
    // its type and time are known (a sequenced event's sequence fields are always read).
    // `symbol`: such a walk goes on until the event's symbol too (a stream that watches each
    // instrument's cadence, session/InstrumentWatch).
    bool decode(const MessageView &message, const std::string &pointer, DecodedFields &out, const DecodeSpec &spec,
                bool identity = true, bool symbol = false);

    // A read's messages decoded as one batch (MessageBatchDecoder.cpp): simdjson's stage 1 runs
    // once over a run of them (iterate_many) rather than once a message. `messages`: the views
    // of a MessageBatch (transport/Transport.h), in the buffer in this order; the bytes between
    // two become spaces. They stay the caller's until endBatch().
    void beginBatch(const MessageView *messages, qsizetype count);
    // Decodes messages[index] exactly as decode() does (the same fields, result and
    // lastError()): from its batch when it is under kBatchMessageBytes and one JSON object with
    // nothing around it, in a run of at least two such within kBatchBytes, and where the batch's
    // document is the message (it starts and ends where the message does); else alone. Messages
    // are asked for in order; any may be left out.
    bool decodeInBatch(qsizetype index, const std::string &pointer, DecodedFields &out, const DecodeSpec &spec,
                       bool identity = true, bool symbol = false);
    void endBatch();
    // Messages decodeInBatch() read from a batch, since this decoder was made (for tests).
    quint64 batchDecoded() const { return m_batchDecoded; }
    // Below kLazyTailBytes (MessageDecoder.cpp), a message is walked to its end, and needs no
    // prefix: its document in a batch is read as it is alone.
    static constexpr std::size_t kBatchMessageBytes = 2048;
    static constexpr std::size_t kBatchBytes = 64 * 1024;

    // A long message whose head only may be converted yet: how many of its first bytes
    // decodeHead() needs (0: the whole message is needed, for it is short, its spec reads to the
    // end (DecodeSpec::prefixDecode), or the prefix missed on a recent message).
    std::size_t headBytes(std::size_t len, const std::string &pointer, const DecodeSpec &spec) const;
    // Decodes a message from its head (a padded view of its first headBytes() bytes, whose
    // messageBytes is the whole message's size) as decode() tries first for a long message,
    // without what tells events apart (no rollover de-duplicates a stream that converts heads
    // only). False: the prefix was not enough, and the whole message must be decode()d;
    // nothing is then counted as an error.
    bool decodeHead(const MessageView &head, const std::string &pointer, DecodedFields &out, const DecodeSpec &spec,
                    bool symbol = false);

    // Where a message's order-book levels are (book/BookRules.h, LevelKeys, says the same):
    // [price, quantity, ...] arrays, or objects with `price` and `qty` keys, under `bids` and
    // `asks` or all in one array under `levels` whose objects name their side under `side`
    // (`bidSide` or `askSide`); a price or quantity is a string or a number, handed over as the
    // text sent. In the root or in the object under `event` (an envelope's "data"; an array's
    // first element; empty: the root only); an update id under `updateId` (a REST snapshot's
    // "lastUpdateId"; an integer, or a string of digits as OKX writes them; empty: none) and the venue's checksum under `checksum` (empty: none). With
    // `eventSymbol`, every element of the `event` array is read, each an instrument's event.
    // Keys as written in the message.
    struct LevelKeys {
        std::string_view event;
        std::string_view bids;
        std::string_view asks;
        std::string_view updateId;
        std::string_view price = {};
        std::string_view qty = {};
        std::string_view levels = {};
        std::string_view side = {};
        std::string_view bidSide = {};
        std::string_view askSide = {};
        std::string_view checksum = {};
        // Each element of the `event` array an event of its own (Coinbase): its instrument and
        // its kind under these keys, handed over with LevelSink::beginEvent() / eventText().
        std::string_view eventSymbol = {};
        std::string_view eventKind = {};
        // A REST answer's own status at its root (Bybit "retCode"/"retMsg", OKX "code"/"msg"),
        // a number or a string, handed over with LevelSink::errorText().
        std::string_view errorCode = {};
        std::string_view errorMessage = {};
    };
    // Receives the levels in the order they come, as the text sent (valid during the call).
    class LevelSink {
    public:
        // False stops the walk (a level the book cannot take); decodeLevels() then returns false.
        virtual bool level(bool ask, std::string_view price, std::string_view qty) = 0;
        virtual void updateId(std::int64_t id) = 0;
        virtual void checksum(std::uint32_t value) { (void)value; }
        // An event of its own begins (LevelKeys::eventSymbol), and its symbol or kind text.
        virtual void beginEvent() { }
        virtual void eventText(bool symbol, std::string_view text)
        {
            (void)symbol;
            (void)text;
        }
        // The answer's status code (`code`) or message, as the text sent.
        virtual void errorText(bool code, std::string_view text)
        {
            (void)code;
            (void)text;
        }

    protected:
        ~LevelSink() = default;
    };
    // Reads the levels of one whole padded message (a depth diff or a REST snapshot copied
    // into a ReceiveBuffer) and hands each to `sink`. False: not valid JSON, a level that is not
    // a pair of strings or numbers, an update id that is not an int64, a checksum that is not an
    // unsigned 32-bit integer, or the sink stopped; lastError() says which. Nothing is allocated.
    bool decodeLevels(const MessageView &message, const LevelKeys &keys, LevelSink &sink);

    // Where a message's nested ladders are (book/BookRules.h, LadderLayout, says the same): an
    // array of groups under `groups` (Betfair's markets, "mc"), each with its id under `groupId`
    // (a string or a number, as the text sent), an image flag under `groupImage`, a version
    // (an int64) under `version` in the object under `definition`, and its items under `items`
    // (runners, "rc"), each with its id under `itemId`, a sub-key under `itemSub` (a number's
    // text: Betfair's handicap) and its levels under `bids` and `asks`: [price, size, ...], or
    // with `positional` [position, price, size, ...]; numbers or strings, as the text sent.
    struct LadderKeys {
        std::string_view groups;
        std::string_view groupId;
        std::string_view groupImage;
        std::string_view definition;
        std::string_view version;
        std::string_view items;
        std::string_view itemId;
        std::string_view itemSub;
        std::string_view bids;
        std::string_view asks;
        bool positional = false;
    };
    // Receives a ladder message's parts in the order they come; texts are valid during the call.
    class LadderSink {
    public:
        virtual void beginGroup() = 0;
        virtual void groupId(std::string_view text) = 0;
        virtual void groupImage(bool image) = 0;
        virtual void groupVersion(std::int64_t version) = 0;
        virtual void beginItem() = 0;
        virtual void itemId(std::string_view text) = 0;
        virtual void itemSub(std::string_view text) = 0;
        // `position` empty unless the ladder is positional.
        virtual void level(bool ask, std::string_view position, std::string_view price, std::string_view size) = 0;

    protected:
        ~LadderSink() = default;
    };
    // Reads the ladders of one whole padded message and hands them to `sink`. False: not valid
    // JSON, or a field of the wrong type (a level that is not an array of at least two, or
    // three, strings or numbers; a version that is not an int64); lastError() says which.
    // Nothing is allocated.
    bool decodeLadders(const MessageView &message, const LadderKeys &keys, LadderSink &sink);
    // Receives a trade message's trades in the order they come: each one's instrument (empty
    // when the trade names none: the message's) and price, as the text sent (valid during the
    // call).
    class TradeSink {
    public:
        virtual void trade(std::string_view symbol, std::string_view price) = 0;

    protected:
        ~TradeSink() = default;
    };
    // Reads the trades of one whole padded message where `spec` (its venue's TradeSpec) says
    // they are, and hands each that has a price to `sink`. False: not valid JSON, or a price or
    // instrument that is not a string (or, a price, a number); the trades before it were handed
    // over. Nothing is allocated; lastError() is not changed.
    bool decodeTrades(const MessageView &message, const TradeSpec &spec, TradeSink &sink);
    // Whether a whole padded message is one valid JSON object, every byte of it checked
    // (simdjson's DOM parser; the walks above skip what they do not read). It allocates a parser
    // the message's size: off the hot path only (a REST snapshot kept in a capture, BookKeeper).
    static bool isJsonObject(const MessageView &message);

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
    // From the first `available` bytes of a padded message at `data` (all of them, or its head).
    bool decodePrefix(char *data, std::size_t available, const std::string &pointer, DecodedFields &out,
                      const DecodeSpec &spec);

    class Parser;
    std::unique_ptr<Parser> m_parser;
    int m_lastError = 0;       // simdjson::error_code
    std::string m_failedField; // the key (or pointer) whose value failed to read; empty: the JSON
    int m_prefixSkips = 0;
    quint64 m_batchDecoded = 0;
};

} // namespace streamscope
