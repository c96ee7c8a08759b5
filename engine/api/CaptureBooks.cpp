#include "CaptureBooks.h"

#include "BookEvents.h"
#include "CaptureReader.h"
#include "PeerText.h"
#include "StreamSnapshot.h"
#include "protocol/DecodedFields.h"
#include "session/BookKeeper.h"
#include "session/Clock.h"
#include "session/SessionEvents.h"
#include "session/SessionRecorders.h"
#include "session/SessionStatus.h"
#include "stats/StreamShared.h"
#include "venues/VenueHandler.h"
#include "venues/VenueHost.h"

#include <QtCore/QJsonObject>

#include <algorithm>
#include <utility>

namespace streamscope {

namespace {

constexpr qsizetype kQuotedChars = 200;

} // namespace

// Everything a book keeper needs around it, offline: the clock, the events it raises, a
// session's status without recorders, a shared block, and the venue's handler (for its rules
// only: it sends nothing, connects nowhere).
struct CaptureBooks::State final : SessionEvents, InertVenueHost {
    // The capture's time: the recorded time of the line being read.
    class CaptureClock final : public Clock {
    public:
        qint64 monotonicMs() const override { return m_us / 1000; }
        qint64 wallUs() const override { return m_us; }
        void advance(qint64 us) { m_us = std::max(m_us, us); }

    private:
        qint64 m_us = 0;
    };

    explicit State(const StreamConfig &c)
        : config(c)
        , block(0, config)
        , status(block, *this, clock, recorders)
    {
    }

    // SessionEvents: the keeper's events, at the line's time and message.
    void publish(const StreamEvent &e) override
    {
        const QString name = e.kind == EventKind::Gap ? QStringLiteral("book_desync") : QStringLiteral("book");
        events.append({clock.wallUs(), name,
                       capture::eventJson(name,
                                          QJsonObject{{QStringLiteral("text"), e.text},
                                                      {QStringLiteral("message"), qint64(messageIndex)}})});
    }

    // VenueHost: nothing is sent or acted on.
    StreamShared &shared() override { return block; }
    qint64 monotonicMs() const override { return clock.monotonicMs(); }
    qint64 wallMs() const override { return clock.wallMs(); }

    StreamConfig config;
    CaptureClock clock;
    SessionRecorders recorders; // none: a capture read back records nothing
    StreamShared block;
    SessionStatus status;
    std::unique_ptr<VenueHandler> handler;
    std::unique_ptr<BookKeeper> keeper;
    QVector<CaptureEvent> events;
    quint64 messageIndex = 0;
    qint64 lastTickMs = -1;
};

CaptureBooks::CaptureBooks(MessageDecoder &decoder)
    : m_decoder(decoder)
{
}

CaptureBooks::~CaptureBooks() = default;

bool CaptureBooks::start(Venue venue, const QJsonObject &header)
{
    StreamConfig c;
    c.name = QStringLiteral("capture");
    c.venue = venue;
    c.url = QUrl(header.value(QStringLiteral("url")).toString());
    c.mode =
        header.value(QStringLiteral("mode")).toString() == QLatin1String("raw") ? DecodeMode::Raw : DecodeMode::Parsed;
    c.latencyField = header.value(QStringLiteral("latency_field")).toString();
    c.futures = header.value(QStringLiteral("futures")).toBool();
    c.book = header.value(QStringLiteral("book")).toBool(true);
    auto state = std::make_unique<State>(c);
    state->handler = VenueHandler::create(state->config, *state);
    const book::BookRules *rules = state->handler->bookRules();
    if (!BookKeeper::wanted(state->config, rules)) {
        m_state.reset();
        return false;
    }
    state->keeper =
        std::make_unique<BookKeeper>(state->config, *rules, state->block, m_decoder, state->clock, state->status);
    // An in-stream book that lost sync was resubscribed live: the snapshot that brought is in
    // the capture.
    state->keeper->setResubscriber([](const QString &) { return true; });
    m_state = std::move(state);
    return true;
}

void CaptureBooks::advance(qint64 timeUs)
{
    if (!m_state)
        return;
    m_state->clock.advance(timeUs);
    const qint64 nowMs = m_state->clock.monotonicMs();
    if (m_state->lastTickMs < 0)
        m_state->lastTickMs = nowMs;
    if (nowMs - m_state->lastTickMs >= kTickMs) {
        m_state->lastTickMs = nowMs;
        m_state->keeper->tick(nowMs);
    }
}

void CaptureBooks::message(const DecodedFields &fields, const MessageView &view, quint64 index)
{
    if (!m_state)
        return;
    m_state->messageIndex = index;
    // The book this message is for, to see whether it lost sync here (the live keeper says so on
    // its next tick; here the tick comes at once, so the event is this message's).
    const QString symbol = QString::fromUtf8(fields.symbol.data(), qsizetype(fields.symbol.size()));
    const book::BookSync *before = m_state->keeper->book(symbol);
    const BookState was = before ? before->state() : BookState::Unknown;
    m_state->keeper->onData(fields, view);
    const book::BookSync *after = before ? before : m_state->keeper->book(symbol);
    if (after && after->state() == BookState::Desynced && was != BookState::Desynced) {
        const qint64 nowMs = m_state->clock.monotonicMs();
        m_state->lastTickMs = nowMs;
        m_state->keeper->tick(nowMs);
    }
}

bool CaptureBooks::event(const QByteArray &json)
{
    if (!m_state)
        return false;
    BookKeeper &keeper = *m_state->keeper;
    const qint64 nowMs = m_state->clock.monotonicMs();
    if (capture::isEventNamed(json, capture::kBookRequestEvent)) {
        QString instrument;
        bool audit = false;
        if (capture::readBookRequest(json, &instrument, &audit))
            keeper.recordedRequest(instrument, audit, nowMs);
        return true;
    }
    if (capture::isEventNamed(json, capture::kBookSnapshotEvent)) {
        capture::BookSnapshotEvent e;
        if (!capture::readBookSnapshot(json, &e))
            return true;
        // The file's text, whoever wrote it: escaped before a book's reason quotes it.
        const QString error = !e.error.isEmpty() ? peerText(e.error, kQuotedChars)
            : !e.omitted.isEmpty() ? QStringLiteral("not in the capture (%1)").arg(peerText(e.omitted, kQuotedChars))
                                   : QString();
        keeper.recordedAnswer(e.instrument, e.audit, e.body, error, nowMs);
        return true;
    }
    if (capture::isEventNamed(json, capture::kBookResetEvent)) {
        keeper.reset();
        return true;
    }
    return false;
}

QVector<CaptureEvent> CaptureBooks::takeEvents()
{
    return m_state ? std::exchange(m_state->events, {}) : QVector<CaptureEvent>();
}

QVector<BookStatus> CaptureBooks::books()
{
    if (!m_state)
        return {};
    m_state->keeper->tick(m_state->clock.monotonicMs()); // publishes what changed since the last tick
    StreamSnapshot s;
    m_state->block.fillSnapshot(s, false);
    return s.books;
}

} // namespace streamscope
