#include "MessageRouter.h"

#include "BookKeeper.h"
#include "Clock.h"
#include "ConnectionLifecycle.h"
#include "InstrumentWatch.h"
#include "LastTradeKeeper.h"
#include "Link.h"
#include "SessionRecorders.h"
#include "SessionStatus.h"
#include "TickObservers.h"
#include "model/PeerText.h"
#include "protocol/MessageDecoder.h"
#include "stats/StreamShared.h"
#include "transport/ReceivedMessage.h"

#include <algorithm>
#include <cstring>

namespace streamscope {

namespace {

// The wall clock's plausible range for an event time, in µs since the epoch.
constexpr double kMinPlausibleUs = 946'684'800'000'000.0;   // 2000-01-01
constexpr double kMaxPlausibleUs = 4'102'444'800'000'000.0; // 2100-01-01
// What of a peer's message an event quotes.
constexpr qsizetype kQuotedChars = 200;

// `us` in units of `usPerUnit` µs, within int64.
std::int64_t inUnits(double us, double usPerUnit)
{
    const double units = us / usPerUnit;
    constexpr double kLimit = 9.2e18;
    return std::int64_t(std::clamp(units, -kLimit, kLimit));
}

} // namespace

MessageRouter::MessageRouter(const StreamConfig &config, StreamShared &shared, MessageDecoder &decoder,
                             const Clock &clock, VenueHandler &venue, SessionStatus &status,
                             SessionRecorders &recorders, ConnectionLifecycle &lifecycle, TickObservers &observers)
    : m_shared(shared)
    , m_decoder(decoder)
    , m_clock(clock)
    , m_venue(venue)
    , m_status(status)
    , m_recorders(recorders)
    , m_lifecycle(lifecycle)
    , m_rollover(lifecycle.rollover())
    , m_stall(lifecycle.stall())
    , m_clockTrack(observers.clock())
    , m_eventTypes(observers.eventTypes())
    , m_backpressure(observers.backpressure())
    , m_instruments(observers.instruments())
    , m_latencyPointer(config.latencyField.toStdString())
    , m_usPerUnit(microsecondsPerUnit(config.latencyField.isEmpty() ? venue.decodeSpec().timeUnit : config.latencyUnit))
    , m_minEventTime(inUnits(kMinPlausibleUs, m_usPerUnit))
    , m_maxEventTime(inUnits(kMaxPlausibleUs, m_usPerUnit))
    , m_parsed(config.mode != DecodeMode::Raw)
    , m_heartbeats(venue.headScanHeartbeats(m_parsed))
    , m_rawNotice(venue.rawNotice())
{
    m_eventTypes.setUnit(m_usPerUnit);
}

qsizetype MessageRouter::headBytes(qsizetype len) const
{
    // A recording, a flight recorder, a rollover's de-duplication, an inspector, order books and
    // last trade prices need the whole message.
    if (m_books || m_trades || m_recorders.any() || m_rollover.overlapping()
        || m_shared.inspecting.load(std::memory_order_relaxed))
        return 0;
    if (!m_parsed)
        return HeadScanner::kHeadBytes;
    return qsizetype(m_decoder.headBytes(std::size_t(len), m_latencyPointer, m_venue.decodeSpec()));
}

// Inlined into Link::onMessage, its one caller (below): a call less a message.
Q_ALWAYS_INLINE void MessageRouter::onMessage(Link &link, ReceivedMessage &message)
{
    if (!link.active)
        return;
    // A stop or restart was asked for: it is carried out here and now, and this message (the
    // connection's, which goes) is not counted, so that the rest of the read in progress (a
    // firehose's kernel buffer, thousands of messages) is dropped rather than waited for.
    if (Q_UNLIKELY(m_lifecycle.commandPending())) {
        m_lifecycle.runCommands();
        return;
    }
    if (const qsizetype length = message.length(); length > HeadScanner::kHeadBytes) {
        if (const qsizetype want = headBytes(length); want > 0) {
            onLongMessage(link, message, want);
            return;
        }
    }
    const MessageView &view = message.whole();
    handleMessage(link, message, view.data, view.size, true,
                  HeadScanner::scan(view.data, view.size, m_venue.decodeSpec().head, m_heartbeats), nullptr);
}

// The transport's one call per message lands here.
void Link::onMessage(ReceivedMessage &message)
{
    router->onMessage(*this, message);
}

void Link::onMessages(const MessageBatch &batch)
{
    router->onBatch(*this, batch);
}

void MessageRouter::onBatch(Link &link, const MessageBatch &batch)
{
    const bool decoded = m_parsed && batch.count > 1;
    if (decoded)
        m_decoder.beginBatch(batch.messages, batch.count);
    // A stop or a reconnect that one of them causes ends the batch (current()).
    for (qsizetype i = 0; i < batch.count && batch.current(); ++i) {
        m_batchIndex = decoded ? i : -1;
        ReceivedMessage message(batch.messages[i], false, *batch.buffer);
        onMessage(link, message);
    }
    m_batchIndex = -1;
    if (decoded)
        m_decoder.endBatch();
}

// A long message of which the first `want` bytes may be enough: text is converted only that
// far, and the rest only when the head is not enough after all.
void MessageRouter::onLongMessage(Link &link, ReceivedMessage &message, qsizetype want)
{
    const MessageView head = message.head(want);
    const HeadInfo info = HeadScanner::scan(head.data, head.size, m_venue.decodeSpec().head, m_heartbeats);
    const bool data = info.kind == MessageKind::Data || info.kind == MessageKind::Unknown;
    if (!head.isWhole() && data && !m_parsed) { // raw mode reads no further
        handleMessage(link, message, head.data, head.messageBytes, false, info, nullptr);
        return;
    }
    DecodedFields fields;
    if (!head.isWhole() && data
        && m_decoder.decodeHead(head, m_latencyPointer, fields, m_venue.decodeSpec(), m_instruments != nullptr)) {
        handleMessage(link, message, head.data, head.messageBytes, false, info, &fields);
        return;
    }
    // A response, whose text is kept, or a prefix that was not enough: the whole message.
    const MessageView &whole = message.whole();
    handleMessage(link, message, whole.data, whole.size, true, info, nullptr);
}

// `len` is the message's size; `whole`: all of it is at `data`, else only its head (raw mode,
// which reads no further, or a parsed message whose fields were decoded from its head,
// `decodedHead`).
void MessageRouter::handleMessage(Link &link, ReceivedMessage &message, const char *data, qsizetype len, bool whole,
                                  const HeadInfo &head, const DecodedFields *decodedHead)
{
    Q_ASSERT(whole || !m_parsed || decodedHead);
    // One clock read a message, the wall clock's, for latency and the times shown; the
    // watchdogs are told a frame came and timestamp it on the tick.
    const qint64 nowUs = m_clock.wallUs();
    const qint64 wallMs = nowUs / 1000;
    StreamCounters &c = m_shared.counters;
    c.messages.add();
    c.bytes.add(std::uint64_t(len));
    c.lastMessageMs.store(wallMs);
    link.watchdog.frameSeen();
    // Recorded first, so that an event the message causes (a gap) follows it in the capture.
    // A recording stream reads whole messages (headBytes()).
    if (m_recorders.any() && whole)
        m_recorders.message(nowUs, data, len, message.binary());

    double latencyMs = qQNaN();
    switch (head.kind) {
    case MessageKind::Data:
    case MessageKind::Unknown: handleData(link, message, data, len, head, nowUs, latencyMs, decodedHead); break;
    case MessageKind::Heartbeat: onHeartbeatMessage(link.id, nullptr); break;
    case MessageKind::Pong:
        // The answer to the venue's text keep-alive: the connection is alive (its watchdog
        // saw a frame, above), and the ping is answered; no data, no decode.
        c.controlMessages.add();
        link.watchdog.pongSeen();
        break;
    case MessageKind::Connection:
        c.controlMessages.add();
        m_venue.onConnectionMessage(link.id, data, len);
        break;
    case MessageKind::Result:
    case MessageKind::Error: routeResponse(link, head, data, len); break;
    }
    // An inspector opened while the head of this message was read sees the next one.
    if (m_shared.inspecting.load(std::memory_order_relaxed) && whole)
        m_shared.inspect(wallMs, latencyMs, data, len);
    if (m_rollover.overlapping())
        m_lifecycle.advanceRollover(m_rollover.afterMessage(),
                                    QStringLiteral("the old connection caught up with the new one"));
    if (m_backpressure.due()) // one message in 64 (docs/freshness.md, "Backpressure")
        m_backpressure.processed(m_clock.wallUs() - nowUs);
}

void MessageRouter::handleData(Link &link, ReceivedMessage &message, const char *data, qsizetype len,
                               const HeadInfo &head, qint64 nowUs, double &latencyMs, const DecodedFields *decodedHead)
{
    StreamCounters &c = m_shared.counters;
    DecodedFields &fields = m_fields; // the decoder resets it (or a decoded head is copied in)
    const DecodedFields *decoded = nullptr;
    const bool overlap = m_rollover.overlapping();
    if (m_parsed) {
        const DecodeSpec &spec = m_venue.decodeSpec();
        // What tells events apart (stream, symbol, trade id) is read only for the de-duplication.
        bool ok = true;
        if (decodedHead)
            fields = *decodedHead;
        else if (m_batchIndex >= 0)
            ok = m_decoder.decodeInBatch(m_batchIndex, m_latencyPointer, fields, spec, overlap,
                                         m_instruments != nullptr || m_trades != nullptr);
        else
            ok = m_decoder.decode(message.padded(), m_latencyPointer, fields, spec, overlap,
                                  m_instruments != nullptr || m_trades != nullptr);
        if (!ok) {
            c.dataMessages.add();
            c.lastDataMs.store(nowUs / 1000);
            m_stall.dataSeen();
            m_lifecycle.becomeLive(StreamState::Live, QStringLiteral("receiving data"));
            onDataDecodeFailed(data, len);
            return;
        }
        decoded = &fields;
        // The head scan finds heartbeats itself unless the venue leaves them to the decoder.
        if (m_heartbeats == HeadScanner::Heartbeats::LeaveToDecoder && m_venue.isHeartbeat(head, fields)) {
            onHeartbeatMessage(link.id, &fields);
            return;
        }
        if (m_venue.onNotice(link.id, fields)) {
            c.controlMessages.add();
            return;
        }
    } else if (!m_rawNotice.prefix.empty() && len > qsizetype(m_rawNotice.prefix.size())
               && data[m_rawNotice.probe] == m_rawNotice.prefix[m_rawNotice.probe]
               && std::memcmp(data, m_rawNotice.prefix.data(), m_rawNotice.prefix.size()) == 0) {
        // Raw mode decodes nothing, but a notice must still act (Binance: start a rollover).
        fields.reset();
        fields.eventType = m_rawNotice.eventType;
        if (m_venue.onNotice(link.id, fields)) {
            c.controlMessages.add();
            return;
        }
    }
    if (overlap && !m_rollover.accept(link.id, decoded, m_clock.monotonicMs())) {
        m_shared.venue.duplicates.add();
        return;
    }
    c.dataMessages.add();
    c.lastDataMs.store(nowUs / 1000);
    m_stall.dataSeen();
    if (decoded) {
        if (fields.eventTime >= m_minEventTime && fields.eventTime <= m_maxEventTime) {
            // Both times lie within a few centuries of the epoch: the difference fits.
            const auto latencyUs = qint64(double(nowUs) - double(fields.eventTime) * m_usPerUnit);
            m_shared.latency.record(latencyUs);
            m_eventTypes.record(m_eventTypes.slot(fields.eventType), fields.eventTime, latencyUs);
            m_clockTrack.observe(latencyUs);
            if (m_clockTrack.correcting())
                m_shared.latencyCorrected.record(latencyUs + m_clockTrack.offsetUs());
            latencyMs = double(latencyUs) / 1000.0;
        } else if (fields.eventTime != DecodedFields::kNone) {
            m_shared.latency.recordInvalid();
        }
        m_venue.onData(link.id, fields, m_rollover.checksSequence(link.id));
        if (m_venue.wantsWholeMessage() && !decodedHead) // a decoded head is not the whole message
            m_venue.onWholeMessage(link.id, data, len);
        // A batch (!ticker@arr) names its first event's instrument only: it counts for none.
        if (m_instruments && !fields.symbol.empty() && !fields.batch)
            m_instruments->onData(fields.symbol);
        if (m_books)
            m_books->onData(fields, message.padded());
        if (m_trades)
            m_trades->onData(fields, message.padded(), m_decoder, nowUs / 1000);
    } else {
        m_shared.venue.updates.add();
    }
    m_lifecycle.becomeLive(m_venue.liveState(), m_venue.liveReason());
}

// A venue heartbeat: `fields` when the decoder read it (parsed mode), else null.
void MessageRouter::onHeartbeatMessage(int link, const DecodedFields *fields)
{
    m_shared.counters.heartbeats.add();
    m_venue.onHeartbeat(link, fields);
    if (m_status.state() == StreamState::Stalled && m_venue.ownsFreshness())
        m_status.setState(m_venue.liveState(), QStringLiteral("heartbeats again"));
}

void MessageRouter::onDataDecodeFailed(const char *data, qsizetype len)
{
    m_shared.counters.parseErrors.add();
    const QString error = m_decoder.lastError();
    // The bad message is kept as it came (the inspector copies it); what is shown is escaped.
    m_shared.setParseError(error, data, len);
    if (m_status.allow(EventKind::ParseError))
        m_status.emitEvent(EventKind::ParseError,
                           QStringLiteral("%1: %2").arg(error, peerText(QByteArrayView(data, len), kQuotedChars)));
}

void MessageRouter::routeResponse(Link &link, const HeadInfo &head, const char *data, qsizetype len)
{
    const bool isError = head.kind == MessageKind::Error;
    ResponseRecord record;
    record.receivedMs = m_clock.wallMs();
    record.requestId = peerText(QByteArrayView(head.id.data(), qsizetype(head.id.size())));
    record.body = QByteArray(data, len);
    m_lifecycle.requests().match(record, m_clock.monotonicMs());
    if (isError)
        m_status.emitEvent(
            EventKind::Response,
            QStringLiteral("error response%1: %2")
                .arg(record.requestId.isEmpty() ? QString() : QStringLiteral(" to request ") + record.requestId,
                     peerText(QByteArrayView(data, len), kQuotedChars)));
    const int linkId = link.id;
    m_shared.pushResponse(isError, record);
    // Counted once the venue has read it (Binance's rate limits): a reader that sees the count
    // sees what the response changed.
    StreamCounters &counters = m_shared.counters;
    // The venue may fail or reconnect the stream, which retires this link.
    if (data[0] == '{')
        m_venue.onResponse(linkId, isError, record);
    (isError ? counters.errors : counters.results).add();
}

} // namespace streamscope
