#include "MessageDecoder.h"

#include <simdjson.h>

#include <charconv>
#include <cstring>

namespace streamscope {

namespace ondemand = simdjson::ondemand;
static_assert(PaddedBuffer::kPadding >= simdjson::SIMDJSON_PADDING);

class MessageDecoder::Parser {
public:
    ondemand::parser parser{MessageDecoder::kMaxDocumentBytes};
};

MessageDecoder::MessageDecoder() : m_parser(std::make_unique<Parser>()) {}
MessageDecoder::~MessageDecoder() = default;

QString MessageDecoder::lastError() const
{
    return QString::fromLatin1(simdjson::error_message(simdjson::error_code(m_lastError)));
}

namespace {

// Key comparison on the raw (still escaped) key: our keys never need unescaping.
inline bool keyIs(const ondemand::raw_json_string &key, const char *name, std::size_t n)
{
    const char *raw = key.raw();
    return std::memcmp(raw, name, n) == 0 && raw[n] == '"';
}
#define KEY_IS(key, lit) keyIs(key, lit, sizeof(lit) - 1)

simdjson::error_code readTime(ondemand::value value, std::int64_t &out)
{
    ondemand::number_type type;
    if (auto e = value.get_number_type().get(type); e == simdjson::SUCCESS) {
        if (type == ondemand::number_type::floating_point_number) {
            double d;
            if (auto e2 = value.get_double().get(d))
                return e2;
            out = std::int64_t(d);
            return simdjson::SUCCESS;
        }
        return value.get_int64().get(out);
    }
    // Some feeds send times as strings of digits.
    std::string_view s;
    if (auto e = value.get_string().get(s))
        return e;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
    return r.ec == std::errc() ? simdjson::SUCCESS : simdjson::INCORRECT_TYPE;
}

// A large tail that holds no field we read (a depth diff's 2 x 200 levels, the 1,399 other
// tickers of a batch) is left unread once the event's fields are known: walking it costs
// more than the rest of the decode, for nothing we keep. Stage 1 has still checked the whole
// message (UTF-8, strings, characters outside strings); what is not checked is the tail's
// grammar, so a message malformed only there is not counted as a parse error.
constexpr std::size_t kLazyTailBytes = 2048;
struct LazyTail {
    const char *end = nullptr; // one past the message
    bool stopped = false;      // the walk ended early: the document was not read to its end
};
thread_local LazyTail t_tail;

bool fieldsComplete(const DecodedFields &out)
{
    if (out.eventTime == DecodedFields::kNone)
        return false;
    if (out.eventType == "depthUpdate")
        return out.firstUpdateId != DecodedFields::kNone && out.finalUpdateId != DecodedFields::kNone;
    return true;
}

// True (and the walk marked as stopped) when everything wanted is known and `value` starts a
// tail of at least kLazyTailBytes.
bool stopBefore(ondemand::value &value, const DecodedFields &out)
{
    if (!t_tail.end || !fieldsComplete(out))
        return false;
    const std::string_view token = value.raw_json_token();
    if (t_tail.end - token.data() < std::ptrdiff_t(kLazyTailBytes))
        return false;
    t_tail.stopped = true;
    return true;
}

// Reads the fields of one event object; `envelope` is true for the outer object, where
// "data" may hold the event (Binance combined streams).
// Betfair mc[] / oc[]: only con and img of each element are read.
simdjson::error_code decodeChanges(ondemand::value value, DecodedFields &out)
{
    ondemand::json_type type;
    if (auto e = value.type().get(type))
        return e;
    if (type != ondemand::json_type::array)
        return simdjson::SUCCESS;
    ondemand::array items;
    if (auto e = value.get_array().get(items))
        return e;
    for (auto item : items) {
        ondemand::object change;
        if (auto e = item.get_object().get(change))
            return e;
        for (auto field : change) {
            ondemand::raw_json_string key;
            if (auto e = field.key().get(key))
                return e;
            const bool con = KEY_IS(key, "con");
            if (con || KEY_IS(key, "img")) {
                bool flag = false;
                if (auto e = field.value().get_bool().get(flag))
                    return e;
                (con ? out.conflated : out.image) |= flag;
            }
        }
    }
    return simdjson::SUCCESS;
}

simdjson::error_code readOptionalInt(ondemand::value value, std::int64_t &out)
{
    bool isNull = false;
    if (auto e = value.is_null().get(isNull); !e && isNull)
        return simdjson::SUCCESS;
    return value.get_int64().get(out);
}

simdjson::error_code decodeObject(ondemand::object object, DecodedFields &out, bool envelope,
                                  DecodeProfile profile)
{
    for (auto field : object) {
        ondemand::raw_json_string key;
        if (auto e = field.key().get(key))
            return e;
        ondemand::value value;
        if (auto e = field.value().get(value))
            return e;
        if (!KEY_IS(key, "data") && !KEY_IS(key, "mc") && !KEY_IS(key, "oc")) {
            ondemand::json_type valueType;
            if (value.type().get(valueType) == simdjson::SUCCESS
                && (valueType == ondemand::json_type::array || valueType == ondemand::json_type::object)
                && stopBefore(value, out))
                return simdjson::SUCCESS;
        }
        if (KEY_IS(key, "E") || KEY_IS(key, "pt")) {
            if (auto e = readTime(value, out.eventTime))
                return e;
        } else if (KEY_IS(key, "e")) {
            if (auto e = value.get_string().get(out.eventType))
                return e;
        } else if (KEY_IS(key, "s")) {
            if (auto e = value.get_string().get(out.symbol))
                return e;
        } else if (KEY_IS(key, "U")) {
            if (auto e = value.get_int64().get(out.firstUpdateId))
                return e;
        } else if (KEY_IS(key, "u")) {
            if (auto e = value.get_int64().get(out.finalUpdateId))
                return e;
        } else if (KEY_IS(key, "pu")) {
            if (auto e = value.get_int64().get(out.prevFinalUpdateId))
                return e;
        } else if (profile != DecodeProfile::Betfair && (KEY_IS(key, "a") || KEY_IS(key, "t"))) {
            ondemand::json_type type;
            if (auto e = value.type().get(type))
                return e;
            // Only an integer is a trade id; any other "a"/"t" (a generic feed's) is skipped.
            ondemand::number_type numberType;
            if (type == ondemand::json_type::number && value.get_number_type().get(numberType) == simdjson::SUCCESS
                && numberType == ondemand::number_type::signed_integer)
                if (auto e = value.get_int64().get(out.tradeId))
                    return e;
        } else if (profile == DecodeProfile::Betfair && envelope) {
            if (KEY_IS(key, "op")) {
                if (auto e = value.get_string().get(out.op))
                    return e;
            } else if (KEY_IS(key, "ct")) {
                if (auto e = value.get_string().get(out.changeType))
                    return e;
            } else if (KEY_IS(key, "clk")) {
                if (auto e = value.get_string().get(out.clk))
                    return e;
            } else if (KEY_IS(key, "initialClk")) {
                if (auto e = value.get_string().get(out.initialClk))
                    return e;
            } else if (KEY_IS(key, "segmentType")) {
                if (auto e = value.get_string().get(out.segmentType))
                    return e;
            } else if (KEY_IS(key, "status")) {
                if (auto e = readOptionalInt(value, out.status))
                    return e;
            } else if (KEY_IS(key, "conflateMs")) {
                if (auto e = readOptionalInt(value, out.conflateMs))
                    return e;
            } else if (KEY_IS(key, "heartbeatMs")) {
                if (auto e = readOptionalInt(value, out.heartbeatMs))
                    return e;
            } else if (KEY_IS(key, "mc") || KEY_IS(key, "oc")) {
                if (auto e = decodeChanges(value, out))
                    return e;
            }
        } else if (envelope && KEY_IS(key, "stream")) {
            if (auto e = value.get_string().get(out.stream))
                return e;
        } else if (envelope && KEY_IS(key, "data")) {
            ondemand::json_type type;
            if (auto e = value.type().get(type))
                return e;
            if (type == ondemand::json_type::object) {
                ondemand::object inner;
                if (auto e = value.get_object().get(inner))
                    return e;
                if (auto e = decodeObject(inner, out, false, profile))
                    return e;
                if (t_tail.stopped)
                    return simdjson::SUCCESS;
            } else if (type == ondemand::json_type::array) {
                // Array streams (!ticker@arr): the first event's time stands for the batch.
                ondemand::array items;
                if (auto e = value.get_array().get(items))
                    return e;
                for (auto item : items) {
                    ondemand::object first;
                    if (auto e = item.get_object().get(first))
                        return e;
                    if (auto e = decodeObject(first, out, false, profile))
                        return e;
                    if (stopBefore(value, out))
                        return simdjson::SUCCESS;
                    break; // the rest of the batch is skipped, and the envelope read on to its end
                }
            }
        }
    }
    return simdjson::SUCCESS;
}

} // namespace

bool MessageDecoder::decodeCopy(const char *data, std::size_t len, const std::string &pointer, DecodedFields &out,
                                DecodeProfile profile)
{
    std::memcpy(m_buffer.reserve(len), data, len);
    return decode(len, pointer, out, profile);
}

bool MessageDecoder::decode(std::size_t len, const std::string &pointer, DecodedFields &out, DecodeProfile profile)
{
    const auto fail = [this](simdjson::error_code e) {
        m_lastError = int(e);
        return false;
    };
    out = DecodedFields{};
    t_tail = LazyTail{m_buffer.data() + len, false};
    ondemand::document doc;
    if (auto e = m_parser->parser.iterate(m_buffer.data(), len, m_buffer.allocated()).get(doc))
        return fail(e);
    if (!pointer.empty()) {
        ondemand::value value;
        if (auto e = doc.at_pointer(pointer).get(value))
            return e == simdjson::NO_SUCH_FIELD || e == simdjson::INDEX_OUT_OF_BOUNDS ? true : fail(e);
        if (auto e = readTime(value, out.eventTime))
            return fail(e);
        return true;
    }
    ondemand::json_type type;
    if (auto e = doc.type().get(type))
        return fail(e);
    if (type == ondemand::json_type::object) {
        ondemand::object object;
        if (auto e = doc.get_object().get(object))
            return fail(e);
        if (auto e = decodeObject(object, out, true, profile))
            return fail(e);
    } else if (type == ondemand::json_type::array) {
        // Raw array streams (!ticker@arr): the first event's time stands for the batch; the
        // other elements are skipped unread.
        ondemand::array items;
        if (auto e = doc.get_array().get(items))
            return fail(e);
        bool first = true;
        for (auto item : items) {
            ondemand::value value;
            if (auto e = item.get(value))
                return fail(e);
            if (!first)
                continue;
            first = false;
            ondemand::json_type itemType;
            if (auto e = value.type().get(itemType))
                return fail(e);
            if (itemType == ondemand::json_type::object) {
                ondemand::object event;
                if (auto e = value.get_object().get(event))
                    return fail(e);
                if (auto e = decodeObject(event, out, false, profile))
                    return fail(e);
                if (stopBefore(value, out))
                    break;
            }
        }
    } else {
        // A lone scalar is no event, but it must still be one well-formed value.
        simdjson::error_code e = simdjson::SUCCESS;
        if (type == ondemand::json_type::number) {
            double d;
            e = doc.get_double().get(d);
        } else if (type == ondemand::json_type::string) {
            std::string_view s;
            e = doc.get_string().get(s);
        } else if (type == ondemand::json_type::boolean) {
            bool b;
            e = doc.get_bool().get(b);
        } else {
            bool isNull = false;
            e = doc.is_null().get(isNull);
            if (!e && !isNull)
                e = simdjson::N_ATOM_ERROR;
        }
        if (e)
            return fail(e);
    }
    // document::at_end() is newer than simdjson 3.0; current_location() reports the end as OUT_OF_BOUNDS.
    if (!t_tail.stopped && doc.current_location().error() != simdjson::OUT_OF_BOUNDS)
        return fail(simdjson::TRAILING_CONTENT);
    return true;
}

} // namespace streamscope
