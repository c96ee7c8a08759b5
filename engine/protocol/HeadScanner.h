#pragma once

// Classifies a message from its first 256 bytes only, without parsing it: Binance
// subscription results and errors, the websocket-API envelope, Betfair status/connection
// messages and heartbeats, or data. Whatever follows the head is never looked at, so a data
// message that says "error" or "result" further in stays data.
//
// Pure function, no state: callable from any thread.

#include <QtCore/QtGlobal>

#include <string_view>

namespace streamscope {

enum class MessageKind : quint8 {
    Unknown = 0,
    Data,
    Result,     // a response that succeeded: {"result":..,"id":..}, status < 400, Betfair SUCCESS
    Error,      // {"error":..}, {"code":..,"msg":..}, status >= 400, Betfair FAILURE
    Connection, // Betfair {"op":"connection",...}
    Heartbeat,  // Betfair change message with "ct":"HEARTBEAT"
};

struct HeadInfo {
    MessageKind kind = MessageKind::Unknown;
    std::string_view id; // the "id" value as written (digits, or the string's content); empty if none
    bool idIsString = false;
    bool changeMessage = false; // a Betfair change message (op mcm or ocm)
};

class HeadScanner {
public:
    static constexpr qsizetype kHeadBytes = 256;
    // Whether a change message's "ct" is looked up here (Heartbeat or Data), or left to a
    // decoder that reads it anyway (Data, with changeMessage set).
    enum class Heartbeats : quint8 { Find, LeaveToDecoder };
    static HeadInfo scan(const char *data, qsizetype len, Heartbeats heartbeats = Heartbeats::Find) noexcept;
};

} // namespace streamscope
