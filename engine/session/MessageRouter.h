#pragma once

// One stream's hot path: every message of every one of its connections comes in here, in one
// call per message from the transport (Link::onMessage), and is counted, classified, routed,
// decoded and recorded:
//   1. a stop or restart the facade left (StreamCommands) is carried out first, at once;
//   2. of a long message only the head is asked for when that is enough (a raw stream reads
//      no further, a parsed stream's decoder may find its fields in a prefix); text is then
//      converted only that far (ReceivedMessage);
//   3. HeadScanner classifies it: data, heartbeat, connection message, result, error;
//   4. counters, the connection's and the stream's watchdogs, the recorders;
//   5. data is decoded (parsed mode) in the worker's receive buffer: event time, type and
//      sequence fields; venue notices and heartbeats go to the venue; a rollover's overlap is
//      de-duplicated; latency, per event type and corrected, is recorded; the instruments, the
//      order books and the last trade prices (each only where the stream has them) are fed;
//      responses are matched to their requests and kept.
// No allocation, lock or log per message; what is rare (a command, a state change, a parse
// error, a response) leaves through SessionStatus and ConnectionLifecycle.
//
// Thread contract: the session's worker only.

#include "protocol/DecodedFields.h"
#include "protocol/HeadScanner.h"
#include "venues/VenueHandler.h"

#include <cstdint>
#include <string>

namespace streamscope {

class BackpressureMeter;
class BookKeeper;
class ClockTracker;
class ConnectionLifecycle;
class Clock;
class EventTypeTracker;
class InstrumentWatch;
class LastTradeKeeper;
class MakeBeforeBreak;
class StallWatchdog;
class MessageDecoder;
class ReceivedMessage;
class SessionRecorders;
class SessionStatus;
class StreamShared;
class TickObservers;
struct Link;
struct MessageBatch;
struct MessageView;
struct StreamConfig;

class MessageRouter {
public:
    MessageRouter(const StreamConfig &config, StreamShared &shared, MessageDecoder &decoder, const Clock &clock,
                  VenueHandler &venue, SessionStatus &status, SessionRecorders &recorders,
                  ConnectionLifecycle &lifecycle, TickObservers &observers);

    // The stream's order books (null: none): every decoded data message goes to them, whole.
    void setBooks(BookKeeper *books) { m_books = books; }
    // The last trade prices compared across venues (null: none wanted, and nothing is read).
    void setLastTrades(LastTradeKeeper *trades) { m_trades = trades; }

    // Called by Link::onMessage only (MessageRouter.cpp, where it is inlined).
    void onMessage(Link &link, ReceivedMessage &message);
    // Called by Link::onMessages: a read's messages, each handled as onMessage() handles it,
    // those decoded in full read from one batch (MessageDecoder::beginBatch()).
    void onBatch(Link &link, const MessageBatch &batch);

private:
    qsizetype headBytes(qsizetype len) const;
    void onLongMessage(Link &link, ReceivedMessage &message, qsizetype want);
    void handleMessage(Link &link, ReceivedMessage &message, const char *data, qsizetype len, bool whole,
                       const HeadInfo &head, const DecodedFields *decodedHead);
    void handleData(Link &link, ReceivedMessage &message, const char *data, qsizetype len, const HeadInfo &head,
                    qint64 nowUs, double &latencyMs, const DecodedFields *decodedHead);
    void onHeartbeatMessage(int link, const DecodedFields *fields);
    void onDataDecodeFailed(const char *data, qsizetype len);
    void routeResponse(Link &link, const HeadInfo &head, const char *data, qsizetype len);

    StreamShared &m_shared;
    MessageDecoder &m_decoder;
    const Clock &m_clock;
    VenueHandler &m_venue;
    SessionStatus &m_status;
    SessionRecorders &m_recorders;
    ConnectionLifecycle &m_lifecycle;
    // The parts of the lifecycle and the observers that every message touches.
    MakeBeforeBreak &m_rollover;
    StallWatchdog &m_stall;
    ClockTracker &m_clockTrack;
    EventTypeTracker &m_eventTypes;
    BackpressureMeter &m_backpressure;
    InstrumentWatch *const m_instruments; // null: the stream's messages name no instrument
    BookKeeper *m_books = nullptr;
    LastTradeKeeper *m_trades = nullptr;

    // From the configuration.
    std::string m_latencyPointer;
    double m_usPerUnit = 1000.0;
    // Event times outside these (in the stream's unit: 2000-01-01 to 2100-01-01) are no
    // plausible time: counted as invalid, never a latency.
    std::int64_t m_minEventTime = 0;
    std::int64_t m_maxEventTime = 0;
    bool m_parsed = true;
    HeadScanner::Heartbeats m_heartbeats = HeadScanner::Heartbeats::Find;
    VenueHandler::RawNotice m_rawNotice;
    qsizetype m_batchIndex = -1; // in onBatch(): the message's index in the decoder's batch
    // What handleData() decoded from the message in hand: a member rather than a local, for a
    // local was initialised for every message before the decoder reset it again (~30
    // instructions a message, callgrind). Valid during one handleData() call.
    DecodedFields m_fields;
};

} // namespace streamscope
