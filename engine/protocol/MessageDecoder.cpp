#include "MessageDecoder.h"
#include "MessageDecoderParser.h"
#include "MessageDecoderReaders.h"

#include <simdjson.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace streamscope {

namespace ondemand = simdjson::ondemand;
using decoder::ClearedEnd;
using decoder::IdRule;
using decoder::readId;
using decoder::readOptionalInt;
using decoder::readTime;
using decoder::readTimeText;

MessageDecoder::MessageDecoder()
    : m_parser(std::make_unique<Parser>())
{
}
MessageDecoder::~MessageDecoder() = default;

QString MessageDecoder::simdjsonVersion()
{
    // SIMDJSON_VERSION is an unquoted token sequence (3.0.1).
    return QStringLiteral(QT_STRINGIFY(SIMDJSON_VERSION));
}

bool MessageDecoder::isJsonObject(const MessageView &message)
{
    if (!message.padded || !message.isWhole())
        return false;
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (parser.parse(message.data, std::size_t(message.size), false).get(root) != simdjson::SUCCESS)
        return false;
    return root.type() == simdjson::dom::element_type::OBJECT;
}

QString MessageDecoder::lastError() const
{
    const auto code = simdjson::error_code(m_lastError);
    const QString detail = QString::fromLatin1(simdjson::error_message(code));
    if (!lastErrorIsField())
        return QStringLiteral("not valid JSON (%1)").arg(detail);
    const QString field = QString::fromStdString(m_failedField);
    if (code == simdjson::NUMBER_OUT_OF_RANGE)
        return QStringLiteral("field \"%1\" is a number out of range (%2)").arg(field, detail);
    return QStringLiteral("field \"%1\" has the wrong type (%2)").arg(field, detail);
}

namespace {

// A large tail that holds no field we read (a depth diff's 2 x 200 levels, the 1,399 other
// tickers of a batch) is left unread once the event's fields are known: walking it costs
// more than the rest of the decode, for nothing we keep. What is not checked is the tail's
// grammar, so a message malformed only there is not counted as a parse error; and a message
// of kPrefixMinBytes or more is indexed by stage 1 only up to its prefix (decodePrefix()),
// so its tail's strings are not checked either (a websocket transport has checked UTF-8).
constexpr std::size_t kLazyTailBytes = 2048;
// One message's walk: where a lazy tail may start, whether the walk stopped there, and the
// key whose value could not be read as the type we need (set where that happens; only our own
// keys are read, so it is our text). Reset with one store per message.
struct WalkState {
    const char *end = nullptr; // one past the message
    bool stopped = false;      // the walk ended early: the document was not read to its end
    const char *failedKey = nullptr;
    bool identity = true; // read the fields that identify an event (decode()'s `identity`)
    bool symbol = false;  // a nested event's walk goes on until its symbol (decode()'s `symbol`)
};
thread_local WalkState t_walk;

// Whether the event's sequence fields are wanted before a walk may stop early.
bool wantsSequence(const DecodedFields &out, const DecodeSpec &spec)
{
    return spec.sequencedEventType.empty() ? spec.readsSequence() : out.eventType == spec.sequencedEventType;
}

bool fieldsComplete(const DecodedFields &out, const DecodeSpec &spec)
{
    if (out.eventTime == DecodedFields::kNone)
        return false;
    if (wantsSequence(out, spec))
        return out.firstUpdateId != DecodedFields::kNone && out.finalUpdateId != DecodedFields::kNone;
    return true;
}

// True (and the walk marked as stopped) when everything wanted is known and `value` starts a
// tail of at least kLazyTailBytes.
bool stopBefore(ondemand::value &value, const DecodedFields &out, const DecodeSpec &spec)
{
    if (!t_walk.end || !fieldsComplete(out, spec))
        return false;
    const std::string_view token = value.raw_json_token();
    if (t_walk.end - token.data() < std::ptrdiff_t(kLazyTailBytes))
        return false;
    t_walk.stopped = true;
    return true;
}

// A nested event of a type that ends at its id (DecodeSpec::idEndsEventTypes: Binance's
// trades) whose time, symbol and id are known: its remaining fields are left to the parent,
// which skips them by counting brackets instead of walking them one by one. (A root object is
// always walked to its end, where the document's end is checked.) Stopping at the id also
// keeps a trade event's later "a" (the seller's order id) from being taken for it.
bool idComplete(const DecodedFields &out, const DecodeSpec &spec)
{
    return out.tradeId != DecodedFields::kNone && out.eventTime != DecodedFields::kNone && !out.symbol.empty()
        && !out.eventType.empty()
        && (out.eventType == spec.idEndsEventTypes[0] || out.eventType == spec.idEndsEventTypes[1]);
}

// A nested event of which nothing more is wanted when its identity is not: its type and time
// are known (and its symbol, when the walk wants it), and it wants no sequence fields (which
// come later). The parent skips the rest by
// counting brackets, as after an id.
bool timeComplete(const DecodedFields &out, const DecodeSpec &spec)
{
    return !t_walk.identity && out.eventTime != DecodedFields::kNone && !out.eventType.empty()
        && !wantsSequence(out, spec) && (!t_walk.symbol || !out.symbol.empty());
}

// Reads a scalar field's value where its rule says. Inlined into the walks: it runs for every
// field a spec reads.
Q_ALWAYS_INLINE simdjson::error_code readField(const FieldRule &rule, ondemand::value value, DecodedFields &out)
{
    switch (rule.role) {
    case FieldRole::EventTime: return readTime(value, out.eventTime);
    case FieldRole::EventTimeText: return readTimeText(value, out.eventTime);
    case FieldRole::EventType: return value.get_string().get(out.eventType);
    case FieldRole::Symbol: return value.get_string().get(out.symbol);
    case FieldRole::FirstUpdateId: return value.get_int64().get(out.firstUpdateId);
    case FieldRole::FinalUpdateId: return value.get_int64().get(out.finalUpdateId);
    case FieldRole::PrevUpdateId: return value.get_int64().get(out.prevFinalUpdateId);
    case FieldRole::StreamName: return value.get_string().get(out.stream);
    case FieldRole::EventId: return readId(value, out.tradeId, IdRule::SkipOther);
    case FieldRole::Text: return value.get_string().get(out.texts[rule.slot]);
    case FieldRole::Number: return readOptionalInt(value, out.numbers[rule.slot]);
    case FieldRole::Flag: {
        bool flag = false;
        if (auto e = value.get_bool().get(flag))
            return e;
        out.flags |= quint32(flag) << rule.slot;
        return simdjson::SUCCESS;
    }
    case FieldRole::Event:
    case FieldRole::Items:
    case FieldRole::Unknown: break;
    }
    return simdjson::SUCCESS;
}

// The roles read as numbers (asked only when a read failed).
bool numericRole(FieldRole role)
{
    return role == FieldRole::EventTime || role == FieldRole::FirstUpdateId || role == FieldRole::FinalUpdateId
        || role == FieldRole::PrevUpdateId || role == FieldRole::Number;
}

// An Items list (Betfair mc[] / oc[]): every element is an object, read with the rules of
// kItemScope, to the end of the list. A value that is no array holds nothing we read.
simdjson::error_code decodeItems(ondemand::value value, DecodedFields &out, const DecodeSpec &spec)
{
    ondemand::json_type type;
    if (auto e = value.type().get(type))
        return e;
    if (type != ondemand::json_type::array)
        return simdjson::SUCCESS;
    ondemand::array items;
    if (auto e = value.get_array().get(items))
        return e;
    const DecodeSpec::Keys keys = spec.keys(kItemScope, t_walk.identity);
    for (auto item : items) {
        ondemand::object element;
        if (auto e = item.get_object().get(element))
            return e;
        for (auto field : element) {
            ondemand::raw_json_string key;
            if (auto e = field.key().get(key))
                return e;
            const FieldRule *rule = keys.find(key.raw());
            if (!rule)
                continue;
            ondemand::value inner;
            if (auto e = field.value().get(inner))
                return e;
            if (auto e = readField(*rule, inner, out))
                return e;
        }
    }
    return simdjson::SUCCESS;
}

simdjson::error_code decodeObject(ondemand::object object, DecodedFields &out, FieldScope scope,
                                  const DecodeSpec &spec);

// Whether a batch's next element is of the instrument its first named (`out.symbol`): its
// symbol, or none. A value we cannot read counts as another's.
bool sameSymbol(ondemand::object element, const DecodedFields &out, const DecodeSpec &spec)
{
    for (auto field : element) {
        ondemand::raw_json_string key;
        if (field.key().get(key))
            return false;
        const FieldRule *rule = spec.find(key.raw(), kEventScope, t_walk.identity);
        if (!rule || rule->role != FieldRole::Symbol)
            continue;
        std::string_view symbol;
        return field.value().get_string().get(symbol) == simdjson::SUCCESS && symbol == out.symbol;
    }
    return true;
}

// An Event value (Binance combined streams' "data"): the event, or an array of events
// (!ticker@arr) whose first stands for the batch.
simdjson::error_code decodeEvent(ondemand::value value, DecodedFields &out, const DecodeSpec &spec)
{
    ondemand::json_type type;
    if (auto e = value.type().get(type))
        return e;
    if (type == ondemand::json_type::object) {
        ondemand::object inner;
        if (auto e = value.get_object().get(inner))
            return e;
        return decodeObject(inner, out, kEventScope, spec);
    }
    if (type == ondemand::json_type::array) {
        ondemand::array items;
        if (auto e = value.get_array().get(items))
            return e;
        bool first = true;
        bool peek = false;
        for (auto item : items) {
            ondemand::object element;
            if (first) {
                if (auto e = item.get_object().get(element))
                    return e;
                const bool hadSymbol = !out.symbol.empty();
                if (auto e = decodeObject(element, out, kEventScope, spec))
                    return e;
                // A walk that wants the symbol, which the first element gave: the second says
                // whether the batch is one instrument's (a venue's trades) or many (!ticker@arr).
                peek = t_walk.symbol && !hadSymbol && !out.symbol.empty();
                first = false;
                if (peek)
                    continue;
            } else {
                out.batch = item.get_object().get(element) != simdjson::SUCCESS || !sameSymbol(element, out, spec);
            }
            break; // the rest of the batch is skipped, and the envelope read on to its end
        }
        if (!first)
            stopBefore(value, out, spec);
    }
    return simdjson::SUCCESS;
}

// Reads the fields of one object in `scope` (the root, or an event nested in it). The key is
// looked up first (DecodeSpec::Keys::find(), its scope's rules taken once for the object), and
// a value is taken only for a key the spec reads, or to look for a lazy tail: this runs for
// every field of every message.
simdjson::error_code decodeObject(ondemand::object object, DecodedFields &out, FieldScope scope, const DecodeSpec &spec)
{
    const DecodeSpec::Keys keys = spec.keys(scope, t_walk.identity);
    // Only a message long enough to have a lazy tail looks for one.
    const bool lazyTail = t_walk.end != nullptr;
    for (auto field : object) {
        ondemand::raw_json_string key;
        if (auto e = field.key().get(key))
            return e;
        const char *k = key.raw();
        const FieldRule *rule = keys.find(k);
        if (!rule && !lazyTail)
            continue;
        ondemand::value value;
        if (auto e = field.value().get(value))
            return e;
        if (lazyTail && (!rule || rule->role < FieldRole::Event)) { // not Event or Items
            ondemand::json_type valueType;
            if (value.type().get(valueType) == simdjson::SUCCESS
                && (valueType == ondemand::json_type::array || valueType == ondemand::json_type::object)
                && stopBefore(value, out, spec))
                return simdjson::SUCCESS;
        }
        if (!rule)
            continue;
        simdjson::error_code e = simdjson::SUCCESS;
        if (rule->role == FieldRole::Event) {
            e = decodeEvent(value, out, spec);
            if (!e && t_walk.stopped)
                return simdjson::SUCCESS;
        } else if (rule->role == FieldRole::Items) {
            e = decodeItems(value, out, spec);
        } else {
            e = readField(*rule, value, out);
        }
        if (e) {
            // A number we could not read as one is out of range (simdjson says "wrong type").
            ondemand::json_type failedType;
            if (e == simdjson::INCORRECT_TYPE && numericRole(rule->role)
                && value.type().get(failedType) == simdjson::SUCCESS && failedType == ondemand::json_type::number)
                e = simdjson::NUMBER_OUT_OF_RANGE;
            if (!t_walk.failedKey && (e == simdjson::INCORRECT_TYPE || e == simdjson::NUMBER_OUT_OF_RANGE))
                t_walk.failedKey = k;
            return e;
        }
        // The fields of an event change only here: whether it is complete is asked here only.
        if (scope != kRootScope && (idComplete(out, spec) || timeComplete(out, spec)))
            return simdjson::SUCCESS;
    }
    return simdjson::SUCCESS;
}

} // namespace

namespace {

// The root value of a document whose first structural character is '{' or '['. Any other
// root is checked to be one well-formed scalar.
simdjson::error_code walkDocument(ondemand::document &doc, DecodedFields &out, const DecodeSpec &spec)
{
    ondemand::json_type type;
    if (auto e = doc.type().get(type))
        return e;
    if (type == ondemand::json_type::object) {
        ondemand::object object;
        if (auto e = doc.get_object().get(object))
            return e;
        return decodeObject(object, out, kRootScope, spec);
    }
    if (type == ondemand::json_type::array) {
        // Raw array streams (!ticker@arr): the first event's time stands for the batch; the
        // other elements are skipped unread.
        ondemand::array items;
        if (auto e = doc.get_array().get(items))
            return e;
        bool first = true;
        for (auto item : items) {
            ondemand::value value;
            if (auto e = item.get(value))
                return e;
            if (!first)
                continue;
            first = false;
            ondemand::json_type itemType;
            if (auto e = value.type().get(itemType))
                return e;
            if (itemType == ondemand::json_type::object) {
                ondemand::object event;
                if (auto e = value.get_object().get(event))
                    return e;
                if (auto e = decodeObject(event, out, kEventScope, spec))
                    return e;
                if (stopBefore(value, out, spec))
                    break;
            }
        }
        return simdjson::SUCCESS;
    }
    // A lone scalar is no event, but it must still be one well-formed value.
    if (type == ondemand::json_type::number) {
        double d;
        return doc.get_double().get(d);
    }
    if (type == ondemand::json_type::string) {
        std::string_view text;
        return doc.get_string().get(text);
    }
    if (type == ondemand::json_type::boolean) {
        bool b;
        return doc.get_bool().get(b);
    }
    bool isNull = false;
    if (auto e = doc.is_null().get(isNull))
        return e;
    return isNull ? simdjson::SUCCESS : simdjson::N_ATOM_ERROR;
}

} // namespace

simdjson::error_code decoder::walkSmallDocument(ondemand::document &doc, DecodedFields &out, const DecodeSpec &spec,
                                                bool identity, bool symbol)
{
    static_assert(MessageDecoder::kBatchMessageBytes <= kLazyTailBytes);
    out.reset();
    t_walk = WalkState{nullptr, false, nullptr, identity, symbol};
    return walkDocument(doc, out, spec);
}

namespace {

// The last '"' of [begin, begin + n), or null.
const char *lastQuote(const char *begin, std::size_t n)
{
#if defined(__GLIBC__)
    return static_cast<const char *>(memrchr(begin, '"', n));
#else
    for (const char *p = begin + n; p > begin; --p)
        if (p[-1] == '"')
            return p - 1;
    return nullptr;
#endif
}

} // namespace

bool MessageDecoder::decodePrefix(char *data, std::size_t available, const std::string &pointer, DecodedFields &out,
                                  const DecodeSpec &spec)
{
    std::size_t root = 0;
    while (root < available && (data[root] == ' ' || data[root] == '\t' || data[root] == '\r' || data[root] == '\n'))
        ++root;
    if (root + kPrefixBytes >= available || (data[root] != '{' && data[root] != '['))
        return false;
    // The prefix ends just after a quote, and the root is closed right after it. Stage 1
    // checks nothing of the grammar, only strings: if that quote opened a string (or was
    // escaped), stage 1 reports the string unclosed, and the string is then closed at the cut
    // as well. A string so cut is never read: the walk stops before the cut or the prefix is
    // not used, and a pointer's value cut so is an empty string (no time: the whole message is
    // decoded) or was cut after a non-digit (the same time as read from the whole message).
    // The quote is the first after kPrefixBytes or, when a long string leaves none in the
    // next kPrefixBytes (a 64 KB text field), the last before. The bytes changed are put back.
    const char *quote = static_cast<const char *>(
        std::memchr(data + root + kPrefixBytes, '"', std::min(kPrefixBytes, available - root - kPrefixBytes)));
    if (!quote)
        quote = lastQuote(data + root, kPrefixBytes);
    if (!quote)
        return false;
    const auto cut = std::size_t(quote - data) + 1;
    if (cut + 3 > available)
        return false;
    const char saved[3] = {data[cut], data[cut + 1], data[cut + 2]};
    bool done = false;
    for (int attempt = 0; attempt < 2 && !done; ++attempt) {
        std::size_t end = cut;
        if (attempt == 1)
            data[end++] = '"'; // the quote opened a string: it ends here
        data[end++] = data[root] == '{' ? '}' : ']';
        data[end] = '\0'; // see decode()
        ondemand::document doc;
        const simdjson::error_code indexed =
            m_parser->parser.iterate(data, end, available + ReceiveBuffer::kPadding).get(doc);
        if (!indexed && pointer.empty()) {
            done = walkDocument(doc, out, spec) == simdjson::SUCCESS && t_walk.stopped;
        } else if (!indexed) {
            // The time at the pointer, if it lies before the cut; else the whole message.
            ondemand::value value;
            done = doc.at_pointer(pointer).get(value) == simdjson::SUCCESS
                && readTime(value, out.eventTime) == simdjson::SUCCESS;
        }
        if (!done) {
            out.reset();
            t_walk.stopped = false;
            t_walk.failedKey = nullptr;
        }
        if (indexed != simdjson::UNCLOSED_STRING)
            break;
    }
    std::memcpy(data + cut, saved, sizeof saved);
    return done;
}

namespace {

// simdjson compares a pointer's key with the message's raw, still escaped key, byte for byte up
// to the key's length and then expects the closing quote; it asks its caller for keys without
// '"'. A key with '"' or '\\' could match across the message's own quotes and on into the
// padding after it (a reused buffer holds an earlier message there): such a pointer matches
// nothing. The workspace refuses it; this keeps any other caller safe too.
bool pointerIsComparable(const std::string &pointer)
{
    return pointer.find_first_of("\"\\") == std::string::npos;
}

} // namespace

std::size_t MessageDecoder::headBytes(std::size_t len, const std::string &pointer, const DecodeSpec &spec) const
{
    const bool prefix = (!pointer.empty() || spec.prefixDecode) && pointerIsComparable(pointer);
    return prefix && len >= kPrefixMinBytes && len > kHeadBytes && m_prefixSkips == 0 ? kHeadBytes : 0;
}

bool MessageDecoder::decodeHead(const MessageView &head, const std::string &pointer, DecodedFields &out,
                                const DecodeSpec &spec, bool symbol)
{
    out.reset();
    char *data = head.writable();
    t_walk = WalkState{data + head.messageBytes, false, nullptr, false, symbol};
    if (decodePrefix(data, std::size_t(std::min(head.size, head.messageBytes)), pointer, out, spec))
        return true;
    // As in decode(): the next long messages go straight to the whole message.
    m_prefixSkips = kPrefixRetryAfter;
    out.reset();
    return false;
}

bool MessageDecoder::decode(const MessageView &message, const std::string &pointer, DecodedFields &out,
                            const DecodeSpec &spec, bool identity, bool symbol)
{
    Q_ASSERT(message.isWhole());
    const auto fail = [this](simdjson::error_code e) {
        m_lastError = int(e);
        m_failedField.clear();
        if (t_walk.failedKey)
            m_failedField.assign(t_walk.failedKey, std::strcspn(t_walk.failedKey, "\"")); // our keys: a few chars
        return false;
    };
    out.reset();
    if (!pointer.empty() && !pointerIsComparable(pointer))
        return true; // the time is nowhere, as for a pointer to a missing field
    char *const data = message.writable();
    const auto len = std::size_t(message.size);
    // A message shorter than a lazy tail cannot have one: its walk skips the checks.
    t_walk = WalkState{len >= kLazyTailBytes ? data + len : nullptr, false, nullptr, identity, symbol};
    const ClearedEnd cleared(data + len);

    // A long message whose fields all come before a long tail needs only its head indexed:
    // stage 1 over a prefix that ends where the walk will stop (or, with a pointer, that
    // holds the value it points to). If the walk does not stop there (the fields lie further
    // on, or the prefix is malformed), the whole message is decoded as usual; after a miss,
    // the next kPrefixRetryAfter long messages go straight to the whole message. A spec that
    // reads to the end (Betfair's change lists) never uses a prefix.
    if ((!pointer.empty() || spec.prefixDecode) && len >= kPrefixMinBytes) {
        if (m_prefixSkips > 0) {
            --m_prefixSkips;
        } else {
            if (decodePrefix(data, len, pointer, out, spec))
                return true;
            m_prefixSkips = kPrefixRetryAfter;
            out.reset();
            t_walk = WalkState{t_walk.end, false, nullptr, identity, symbol};
        }
    }

    ondemand::document doc;
    if (auto e = m_parser->parser.iterate(data, len, len + ReceiveBuffer::kPadding).get(doc))
        return fail(e);
    if (!pointer.empty()) {
        ondemand::value value;
        if (auto e = doc.at_pointer(pointer).get(value))
            return e == simdjson::NO_SUCH_FIELD || e == simdjson::INDEX_OUT_OF_BOUNDS ? true : fail(e);
        if (auto e = readTime(value, out.eventTime)) {
            const bool field = e == simdjson::INCORRECT_TYPE || e == simdjson::NUMBER_OUT_OF_RANGE;
            fail(e);
            if (field)
                m_failedField = pointer;
            return false;
        }
        return true;
    }
    if (auto e = walkDocument(doc, out, spec))
        return fail(e);
    // document::at_end() is newer than simdjson 3.0; current_location() reports the end as OUT_OF_BOUNDS.
    if (!t_walk.stopped && doc.current_location().error() != simdjson::OUT_OF_BOUNDS)
        return fail(simdjson::TRAILING_CONTENT);
    return true;
}

} // namespace streamscope
