// MessageDecoder::decodeLadders: nested ladders, groups of items, read as the text sent
// (MessageDecoder.h).

#include "MessageDecoder.h"
#include "MessageDecoderParser.h"

#include <simdjson.h>

#include <string>

namespace streamscope {

namespace ondemand = simdjson::ondemand;
using decoder::readNumberText;

namespace {

struct Walk {
    const MessageDecoder::LadderKeys &keys;
    MessageDecoder::LadderSink &sink;
    std::string_view failedKey;
};

// One level: [price, size, ...], or with keys.positional [position, price, size, ...].
simdjson::error_code readLevel(ondemand::value entry, bool ask, Walk &w)
{
    ondemand::array values;
    if (auto e = entry.get_array().get(values))
        return e;
    const int wanted = w.keys.positional ? 3 : 2;
    std::string_view text[3];
    int n = 0;
    for (auto element : values) {
        if (n < wanted) { // anything after them is skipped
            ondemand::value v;
            if (auto e = element.get(v))
                return e;
            if (auto e = readNumberText(v, text[n]))
                return e;
        }
        ++n;
    }
    if (n < wanted)
        return simdjson::INCORRECT_TYPE;
    if (w.keys.positional)
        w.sink.level(ask, text[0], text[1], text[2]);
    else
        w.sink.level(ask, {}, text[0], text[1]);
    return simdjson::SUCCESS;
}

simdjson::error_code readItem(ondemand::object item, Walk &w)
{
    w.sink.beginItem();
    for (auto field : item) {
        std::string_view key;
        if (auto e = field.unescaped_key().get(key))
            return e;
        const bool bids = key == w.keys.bids;
        if (bids || key == w.keys.asks) {
            w.failedKey = key == w.keys.bids ? w.keys.bids : w.keys.asks;
            ondemand::array levels;
            if (auto e = field.value().get_array().get(levels))
                return e;
            for (auto entry : levels) {
                ondemand::value value;
                if (auto e = entry.get(value))
                    return e;
                if (auto e = readLevel(value, !bids, w))
                    return e;
            }
            w.failedKey = {};
        } else if (key == w.keys.itemId || key == w.keys.itemSub) {
            const bool id = key == w.keys.itemId;
            w.failedKey = id ? w.keys.itemId : w.keys.itemSub;
            std::string_view text;
            if (auto e = readNumberText(field.value(), text))
                return e;
            if (id)
                w.sink.itemId(text);
            else
                w.sink.itemSub(text);
            w.failedKey = {};
        }
    }
    return simdjson::SUCCESS;
}

// A list of objects under `key` (a failure to read it as one is named after it), each read by
// `Read` (inlined, as the walk was before it was shared).
template<simdjson::error_code (*Read)(ondemand::object, Walk &)>
Q_ALWAYS_INLINE simdjson::error_code readObjects(simdjson::simdjson_result<ondemand::value> value, std::string_view key,
                                                 Walk &w)
{
    w.failedKey = key;
    ondemand::array list;
    if (auto e = value.get_array().get(list))
        return e;
    w.failedKey = {};
    for (auto element : list) {
        ondemand::object object;
        if (auto e = element.get_object().get(object))
            return e;
        if (auto e = Read(object, w))
            return e;
    }
    return simdjson::SUCCESS;
}

simdjson::error_code readGroup(ondemand::object group, Walk &w)
{
    w.sink.beginGroup();
    for (auto field : group) {
        std::string_view key;
        if (auto e = field.unescaped_key().get(key))
            return e;
        if (key == w.keys.items) {
            if (auto e = readObjects<readItem>(field.value(), w.keys.items, w))
                return e;
        } else if (key == w.keys.groupId) {
            w.failedKey = w.keys.groupId;
            std::string_view text;
            if (auto e = readNumberText(field.value(), text))
                return e;
            w.sink.groupId(text);
            w.failedKey = {};
        } else if (key == w.keys.groupImage) {
            w.failedKey = w.keys.groupImage;
            bool image = false;
            if (auto e = field.value().get_bool().get(image))
                return e;
            w.sink.groupImage(image);
            w.failedKey = {};
        } else if (!w.keys.definition.empty() && key == w.keys.definition) {
            ondemand::object definition;
            if (field.value().get_object().get(definition) != simdjson::SUCCESS)
                continue; // null, or not an object: no version
            for (auto inner : definition) {
                std::string_view innerKey;
                if (auto e = inner.unescaped_key().get(innerKey))
                    return e;
                if (innerKey != w.keys.version)
                    continue;
                w.failedKey = w.keys.version;
                std::int64_t version = 0;
                if (auto e = inner.value().get_int64().get(version))
                    return e;
                w.sink.groupVersion(version);
                w.failedKey = {};
            }
        }
    }
    return simdjson::SUCCESS;
}

} // namespace

bool MessageDecoder::decodeLadders(const MessageView &message, const LadderKeys &keys, LadderSink &sink)
{
    Walk w{keys, sink, {}};
    const simdjson::error_code result = m_parser->walkRootObject(message, [&](ondemand::object root) {
        for (auto field : root) {
            std::string_view key;
            if (auto e = field.unescaped_key().get(key))
                return e;
            if (key != keys.groups)
                continue;
            if (auto e = readObjects<readGroup>(field.value(), keys.groups, w))
                return e;
        }
        return simdjson::SUCCESS;
    });
    m_lastError = int(result);
    m_failedField = result ? std::string(w.failedKey) : std::string();
    return result == simdjson::SUCCESS;
}

} // namespace streamscope
