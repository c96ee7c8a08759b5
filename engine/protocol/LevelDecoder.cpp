// MessageDecoder::decodeLevels: a book's levels, read exactly (MessageDecoder.h).

#include "MessageDecoder.h"
#include "MessageDecoderParser.h"
#include "MessageDecoderReaders.h"

#include <simdjson.h>

#include <string>

namespace streamscope {

namespace ondemand = simdjson::ondemand;
using decoder::IdRule;
using decoder::readId;
using decoder::readNumberText;

namespace {

enum class LevelSide : quint8 { Bid, Ask, FromLevel };

// One level: a [price, quantity, ...] array, or an object with the price and quantity keys (and,
// for `side` FromLevel, the side key).
simdjson::error_code readLevel(ondemand::value entry, const MessageDecoder::LevelKeys &keys, LevelSide side,
                               MessageDecoder::LevelSink &sink, bool &stopped)
{
    std::string_view price;
    std::string_view qty;
    bool ask = side == LevelSide::Ask;
    ondemand::json_type type;
    if (auto e = entry.type().get(type))
        return e;
    if (type == ondemand::json_type::array) {
        ondemand::array pair;
        if (auto e = entry.get_array().get(pair))
            return e;
        int n = 0;
        for (auto element : pair) {
            // Only the first two; anything after them is skipped.
            if (n < 2) {
                ondemand::value v;
                if (auto e = element.get(v))
                    return e;
                if (auto e = readNumberText(v, n == 0 ? price : qty))
                    return e;
            }
            ++n;
        }
        if (n < 2 || side == LevelSide::FromLevel)
            return simdjson::INCORRECT_TYPE;
    } else if (type == ondemand::json_type::object && !keys.price.empty()) {
        ondemand::object level;
        if (auto e = entry.get_object().get(level))
            return e;
        int found = 0;
        bool sideFound = side != LevelSide::FromLevel;
        for (auto field : level) {
            std::string_view key;
            if (auto e = field.unescaped_key().get(key))
                return e;
            if (key == keys.price) {
                if (auto e = readNumberText(field.value(), price))
                    return e;
                found |= 1;
            } else if (key == keys.qty) {
                if (auto e = readNumberText(field.value(), qty))
                    return e;
                found |= 2;
            } else if (side == LevelSide::FromLevel && key == keys.side) {
                std::string_view s;
                if (auto e = field.value().get_string().get(s))
                    return e;
                if (s != keys.bidSide && s != keys.askSide)
                    return simdjson::INCORRECT_TYPE;
                ask = s == keys.askSide;
                sideFound = true;
            }
        }
        if (found != 3 || !sideFound)
            return simdjson::INCORRECT_TYPE;
    } else {
        return simdjson::INCORRECT_TYPE;
    }
    if (!sink.level(ask, price, qty))
        stopped = true;
    return simdjson::SUCCESS;
}

// One object's levels (and, one level down at most, the nested event's: an object, or the first
// element of an array).
simdjson::error_code walkLevels(ondemand::object object, const MessageDecoder::LevelKeys &keys,
                                MessageDecoder::LevelSink &sink, bool nested, std::string_view &failedKey,
                                bool &stopped)
{
    for (auto field : object) {
        std::string_view key;
        if (auto e = field.unescaped_key().get(key))
            return e;
        const bool oneArray = !keys.levels.empty() && key == keys.levels;
        const bool bids = !oneArray && !keys.bids.empty() && key == keys.bids;
        if (oneArray || bids || (!keys.asks.empty() && key == keys.asks)) {
            failedKey = oneArray ? keys.levels : bids ? keys.bids : keys.asks;
            const LevelSide side = oneArray ? LevelSide::FromLevel : bids ? LevelSide::Bid : LevelSide::Ask;
            ondemand::array levels;
            if (auto e = field.value().get_array().get(levels))
                return e;
            for (auto entry : levels) {
                ondemand::value value;
                if (auto e = entry.get(value))
                    return e;
                if (auto e = readLevel(value, keys, side, sink, stopped))
                    return e;
                if (stopped)
                    return simdjson::SUCCESS;
            }
            failedKey = {};
        } else if (!keys.updateId.empty() && key == keys.updateId) {
            failedKey = keys.updateId;
            std::int64_t id = 0;
            if (auto e = readId(field.value(), id, IdRule::Strict))
                return e;
            sink.updateId(id);
            failedKey = {};
        } else if (!nested && !keys.errorCode.empty() && (key == keys.errorCode || key == keys.errorMessage)) {
            std::string_view text;
            if (auto e = readNumberText(field.value(), text)) // a string, or a number's text
                return e;
            sink.errorText(key == keys.errorCode, text);
        } else if (nested && !keys.eventSymbol.empty() && (key == keys.eventSymbol || key == keys.eventKind)) {
            std::string_view text;
            if (auto e = field.value().get_string().get(text))
                return e;
            sink.eventText(key == keys.eventSymbol, text);
        } else if (!keys.checksum.empty() && key == keys.checksum) {
            failedKey = keys.checksum;
            std::uint64_t sum = 0;
            if (auto e = field.value().get_uint64().get(sum))
                return e;
            if (sum > UINT32_MAX)
                return simdjson::NUMBER_OUT_OF_RANGE;
            sink.checksum(std::uint32_t(sum));
            failedKey = {};
        } else if (!nested && !keys.event.empty() && key == keys.event) {
            ondemand::value value;
            if (auto e = field.value().get(value))
                return e;
            ondemand::json_type type;
            if (auto e = value.type().get(type))
                return e;
            ondemand::object inner;
            if (type == ondemand::json_type::array) {
                ondemand::array events;
                if (auto e = value.get_array().get(events))
                    return e;
                for (auto element : events) {
                    if (keys.eventSymbol.empty()) {
                        if (element.get_object().get(inner) == simdjson::SUCCESS) {
                            if (auto e = walkLevels(inner, keys, sink, true, failedKey, stopped))
                                return e;
                        }
                        break; // the first element stands for the message
                    }
                    // Each element an event of its own instrument (Coinbase).
                    if (auto e = element.get_object().get(inner))
                        return e;
                    sink.beginEvent();
                    if (auto e = walkLevels(inner, keys, sink, true, failedKey, stopped))
                        return e;
                    if (stopped)
                        break;
                }
                if (stopped)
                    return simdjson::SUCCESS;
            } else if (value.get_object().get(inner) == simdjson::SUCCESS) {
                if (auto e = walkLevels(inner, keys, sink, true, failedKey, stopped))
                    return e;
                if (stopped)
                    return simdjson::SUCCESS;
            }
        }
    }
    return simdjson::SUCCESS;
}

} // namespace

bool MessageDecoder::decodeLevels(const MessageView &message, const LevelKeys &keys, LevelSink &sink)
{
    std::string_view failedKey;
    bool stopped = false;
    const simdjson::error_code result = m_parser->walkRootObject(
        message, [&](ondemand::object root) { return walkLevels(root, keys, sink, false, failedKey, stopped); });
    if (result) {
        m_lastError = int(result);
        m_failedField = std::string(failedKey);
        return false;
    }
    if (stopped) {
        m_lastError = int(simdjson::SUCCESS);
        m_failedField.clear();
        return false;
    }
    return true;
}

} // namespace streamscope
