// MessageDecoder::decodeTrades: each trade's price and instrument (MessageDecoder.h, TradeSpec.h).

#include "MessageDecoder.h"
#include "MessageDecoderParser.h"

#include <simdjson.h>

namespace streamscope {

namespace ondemand = simdjson::ondemand;
using decoder::ClearedEnd;
using decoder::readNumberText;

namespace {

// A trade's price and instrument in `object` (any order), handed over when it has a price;
// `nested` is the key of further objects inside it that hold the trades (the root's `event`, an
// event's `list`), empty when there are none.
simdjson::error_code walkTrade(ondemand::object object, const TradeSpec &spec, std::string_view nested,
                               MessageDecoder::TradeSink &sink);

// A nested value that holds trades: one object, or an array of them; `nested` as above.
simdjson::error_code walkTrades(ondemand::value value, const TradeSpec &spec, std::string_view nested,
                                MessageDecoder::TradeSink &sink)
{
    ondemand::json_type type;
    if (auto e = value.type().get(type))
        return e;
    ondemand::object object;
    if (type == ondemand::json_type::object) {
        if (auto e = value.get_object().get(object))
            return e;
        return walkTrade(object, spec, nested, sink);
    }
    if (type != ondemand::json_type::array)
        return simdjson::SUCCESS; // neither: no trade here
    ondemand::array items;
    if (auto e = value.get_array().get(items))
        return e;
    for (auto item : items) {
        if (auto e = item.get_object().get(object))
            return e;
        if (auto e = walkTrade(object, spec, nested, sink))
            return e;
    }
    return simdjson::SUCCESS;
}

simdjson::error_code walkTrade(ondemand::object object, const TradeSpec &spec, std::string_view nested,
                               MessageDecoder::TradeSink &sink)
{
    std::string_view price;
    std::string_view symbol;
    bool hasPrice = false;
    for (auto field : object) {
        std::string_view key;
        if (auto e = field.unescaped_key().get(key))
            return e;
        if (key == spec.price) {
            if (auto e = readNumberText(field.value(), price))
                return e;
            hasPrice = true;
        } else if (!spec.symbol.empty() && key == spec.symbol) {
            if (auto e = field.value().get_string().get(symbol))
                return e;
        } else if (!nested.empty() && key == nested) {
            ondemand::value value;
            if (auto e = field.value().get(value))
                return e;
            // An event's trades, which hold no further level.
            if (auto e = walkTrades(value, spec, nested == spec.event ? spec.list : std::string_view(), sink))
                return e;
        }
    }
    if (hasPrice)
        sink.trade(symbol, price);
    return simdjson::SUCCESS;
}

} // namespace

bool MessageDecoder::decodeTrades(const MessageView &message, const TradeSpec &spec, TradeSink &sink)
{
    Q_ASSERT(message.isWhole());
    if (!spec.reads())
        return true;
    char *const data = message.writable();
    const auto len = std::size_t(message.size);
    const ClearedEnd cleared(data + len);
    ondemand::document doc;
    if (m_parser->parser.iterate(data, len, len + ReceiveBuffer::kPadding).get(doc) != simdjson::SUCCESS)
        return false;
    ondemand::object root;
    if (doc.get_object().get(root) != simdjson::SUCCESS)
        return false;
    return walkTrade(root, spec, spec.event, sink) == simdjson::SUCCESS;
}

} // namespace streamscope
