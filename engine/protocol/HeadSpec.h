#pragma once

// What the head scan (HeadScanner) must know of one venue's messages, given as data by the
// venue's folder: the first keys that start a data message at once, a first key whose value
// says what the message is (Betfair's "op": a change message, the connection message, a status
// response), and whether responses are shaped like JSON-RPC ({"result":..,"id":..},
// {"error":..}, {"code":..,"msg":..}, the "status" envelope). Part of a venue's DecodeSpec.
//
// Thread contract: immutable once built; read from any thread.

#include <QtCore/QtGlobal>

#include <array>
#include <string_view>

namespace streamscope {

enum class MessageKind : quint8 {
    Unknown = 0,
    Data,
    Result,     // a response that succeeded: {"result":..,"id":..}, status < 400, Betfair SUCCESS
    Error,      // {"error":..}, {"code":..,"msg":..}, status >= 400, Betfair FAILURE
    Connection, // a connection message (Betfair {"op":"connection",...})
    Heartbeat,  // the venue's heartbeat (Betfair: a change message with "ct":"HEARTBEAT")
    Pong,       // the answer to the venue's text keep-alive (OKX: the text "pong"; HeadSpec::pongText)
};

struct HeadSpec {
    // One value of kindKey and what it makes the message. Keys and values are written bare
    // (no quotes), as they appear in the message.
    struct KindValue {
        std::string_view value{}; // empty: unused
        MessageKind kind = MessageKind::Unknown;
        bool readId = false; // a response: its "id" is read, to match it to its request
        // The venue's heartbeat marker may be in it (HeadInfo::heartbeatCandidate); a decoder
        // that reads the marker anyway is left the refinement (HeadScanner::Heartbeats).
        bool heartbeatCandidate = false;
        // A key anywhere in the head whose string value, when it is refineValue, makes the
        // message refinedKind instead ("ct":"HEARTBEAT" → Heartbeat, "statusCode":"FAILURE" → Error).
        std::string_view refineKey{};
        std::string_view refineValue{};
        MessageKind refinedKind = MessageKind::Unknown;
    };

    // First keys (followed at once by ':') that make a message data without looking further:
    // the hot path's common case (Binance "stream", "e").
    std::array<std::string_view, 4> dataKeys{};
    // A first key whose string value says what the message is; a value not listed is data.
    std::string_view kindKey{};
    std::array<KindValue, 6> kinds{};
    // A key anywhere in the head whose value makes the message `kind`, for a message whose first
    // key is neither a data key nor kindKey: a venue whose answers have keys in no fixed order
    // (Bybit: {"success":true,"ret_msg":"pong",..,"op":"ping"}, {"req_id":"1","op":"pong",..}).
    // Tried in order; the first whose key holds its value decides. The value is written bare and
    // matches the string "value" or the literal value (true, false, a number).
    struct KeyedKind {
        std::string_view key{}; // empty: unused
        std::string_view value{};
        MessageKind kind = MessageKind::Unknown;
    };
    std::array<KeyedKind, 4> keyedKinds{};
    // Look for JSON-RPC-shaped responses in a message that none of the above classified.
    bool rpcResponses = true;
    // A message that is exactly this text (not JSON) answers the venue's text keep-alive
    // (VenueHandler::keepAlivePing(): OKX sends "ping", the venue answers "pong"); empty: none.
    std::string_view pongText{};
};

} // namespace streamscope
