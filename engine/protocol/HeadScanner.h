#pragma once

// Classifies a message from its first 256 bytes only, without parsing it, by what the venue's
// HeadSpec says of its messages: data, a response that succeeded or failed (and its id), a
// connection message, a heartbeat. It knows no venue. Whatever follows the head is never
// looked at, so a data message that says "error" or "result" further in stays data.
//
// Pure function, no state: callable from any thread.

#include "HeadSpec.h"

#include <QtCore/QtGlobal>

#include <string_view>

namespace streamscope {

struct HeadInfo {
    MessageKind kind = MessageKind::Unknown;
    std::string_view id; // the "id" value as written (digits, or the string's content); empty if none
    bool idIsString = false;
    // The venue's heartbeat marker may be in the message (HeadSpec::KindValue::heartbeatCandidate:
    // a Betfair change message, op mcm or ocm).
    bool heartbeatCandidate = false;
};

class HeadScanner {
public:
    static constexpr qsizetype kHeadBytes = 256;
    // Whether a heartbeat candidate's marker is looked up here (Heartbeat or Data), or left to
    // a decoder that reads it anyway (Data, with heartbeatCandidate set).
    enum class Heartbeats : quint8 { Find, LeaveToDecoder };
    static HeadInfo scan(const char *data, qsizetype len, const HeadSpec &spec,
                         Heartbeats heartbeats = Heartbeats::Find) noexcept;
};

} // namespace streamscope
