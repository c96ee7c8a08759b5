// HeadScanner (engine/protocol/HeadScanner.*): classifies every message a peer sends from its
// first 256 bytes, before any JSON parser has looked at it.
//
// Input: the message itself. Checked: a kind is always given; the id, when found, lies inside
// the head; only the head is read (the same head with or without a tail classifies the same,
// and a head in a buffer of its own exact size is read within it, which ASan checks); leaving
// heartbeats to the decoder changes only what it should.

#include "FuzzSupport.h"
#include "protocol/DecodeSpec.h"
#include "protocol/HeadScanner.h"
#include "venues/VenueRegistry.h"

#include <algorithm>
#include <cstring>
#include <memory>

using streamscope::HeadInfo;
using streamscope::HeadScanner;
using streamscope::HeadSpec;
using streamscope::MessageKind;
using streamscope::Venue;
using streamscope::VenueRegistry;

namespace {

bool sameInfo(const HeadInfo &a, const HeadInfo &b)
{
    return a.kind == b.kind && a.id == b.id && a.idIsString == b.idIsString
        && a.heartbeatCandidate == b.heartbeatCandidate;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const char *message = reinterpret_cast<const char *>(data);
    const auto len = qsizetype(size);
    // The generic venue's spec: it knows every shape of the venues StreamScope started with.
    const HeadSpec &spec = VenueRegistry::entryOf(Venue::Generic).decodeSpec().head;
    const HeadInfo info = HeadScanner::scan(message, len, spec);
    FUZZ_CHECK(info.kind != MessageKind::Unknown, "every message gets a kind");
    if (!info.id.empty()) {
        const qsizetype headBytes = std::min(len, HeadScanner::kHeadBytes);
        FUZZ_CHECK(info.id.data() >= message && info.id.data() + info.id.size() <= message + headBytes,
                   "the id lies inside the head");
    }
    FUZZ_CHECK(info.kind != MessageKind::Data || (info.id.empty() && !info.idIsString), "data carries no id");

    // The head alone, in a buffer of exactly its size: the same answer (views compared by value).
    const qsizetype headBytes = std::min(len, HeadScanner::kHeadBytes);
    std::unique_ptr<char[]> head(new char[std::size_t(headBytes)]);
    std::memcpy(head.get(), message, std::size_t(headBytes));
    const HeadInfo fromHead = HeadScanner::scan(head.get(), headBytes, spec);
    FUZZ_CHECK(sameInfo(info, fromHead), "only the first kHeadBytes are read");

    // A decoder that reads "ct" itself: a heartbeat becomes data, nothing else changes.
    const HeadInfo leave = HeadScanner::scan(message, len, spec, HeadScanner::Heartbeats::LeaveToDecoder);
    FUZZ_CHECK(leave.kind != MessageKind::Heartbeat, "heartbeats are left to the decoder");
    if (info.kind == MessageKind::Heartbeat)
        FUZZ_CHECK(leave.kind == MessageKind::Data && leave.heartbeatCandidate, "a heartbeat left is a candidate");
    else
        FUZZ_CHECK(sameInfo(info, leave), "leaving heartbeats changes nothing else");
    return 0;
}
