#include "StreamSession.h"

#include "BookKeeper.h"
#include "LastTradeKeeper.h"
#include "ServerTimeService.h"
#include "model/PeerText.h"
#include "stats/StreamShared.h"
#include "venues/VenueHandler.h"

namespace streamscope {

StreamSession::StreamSession(std::shared_ptr<StreamShared> shared, const StreamConfig &config, ReceiveBuffer &buffer,
                             MessageDecoder &decoder, SessionEvents &events, const Clock &clock,
                             TransportFactory transports, QObject *parent)
    : QObject(parent)
    , m_shared(std::move(shared))
    , m_config(config)
    , m_clock(clock)
    , m_status(*m_shared, events, clock, m_recorders)
    , m_venue(VenueHandler::create(m_config, *this))
    , m_observers(m_config, *m_shared, clock, *m_venue, m_status)
    , m_lifecycle(m_config, *m_shared, clock, buffer, std::move(transports), *m_venue, m_status, m_observers, m_router)
    , m_outgoing(m_config, clock, *m_venue, m_status, m_lifecycle)
    , m_router(m_config, *m_shared, decoder, clock, *m_venue, m_status, m_recorders, m_lifecycle, m_observers)
{
    if (const book::BookRules *rules = m_venue->bookRules(); BookKeeper::wanted(m_config, rules)) {
        m_books = std::make_unique<BookKeeper>(m_config, *rules, *m_shared, decoder, clock, m_status);
        m_books->setResubscriber([this](const QString &instrument) { return m_venue->resubscribeBook(instrument); });
        m_router.setBooks(m_books.get());
        m_lifecycle.setBooks(m_books.get());
    }
}

void StreamSession::setServerTimeService(ServerTimeService *service)
{
    m_serverTime = service;
    m_observers.setServerTimeService(service);
    if (m_books && service)
        m_books->setNetwork(service->networkManager());
}

StreamSession::~StreamSession()
{
    // The books go with the session: no reset (which a recording would keep as the books
    // starting over, the last thing a capture of them says).
    m_lifecycle.setBooks(nullptr);
    // While every part is still there: the venue may act on its connections' end.
    m_lifecycle.dropConnections();
    m_router.setBooks(nullptr);
    m_router.setLastTrades(nullptr);
    // Its prices go with it (a new session of the stream reads its own, if asked).
    if (m_trades)
        m_shared->setLastTrades({});
}

StreamId StreamSession::id() const
{
    return m_shared->id;
}

bool StreamSession::copyBookDepth(const QString &instrument, int levels, BookDepth &out) const
{
    return m_books && m_books->copyDepth(instrument, levels, m_clock.monotonicMs(), out);
}

void StreamSession::setLastTradeInstruments(const QSet<QString> &names, const InstrumentAliases &aliases)
{
    const TradeSpec &spec = m_venue->decodeSpec().trades;
    if (m_config.mode == DecodeMode::Raw || !m_config.latencyField.isEmpty() || !spec.reads())
        return;
    if (!m_trades) {
        if (names.isEmpty())
            return;
        m_trades = std::make_unique<LastTradeKeeper>(spec);
    }
    m_trades->setWanted(names, aliases);
    // Without a wanted instrument the hot path holds no keeper: nothing is looked at.
    m_router.setLastTrades(m_trades->wantsAny() ? m_trades.get() : nullptr);
}

void StreamSession::setRecorder(std::shared_ptr<CaptureRecorder> recorder)
{
    m_recorders.setRecorder(std::move(recorder));
}

void StreamSession::setFlightRecorder(std::shared_ptr<FlightRecorder> flight)
{
    m_recorders.setFlightRecorder(std::move(flight));
}

void StreamSession::tick()
{
    // What the capture writer thread reported becomes the stream's events.
    for (const QString &news : m_recorders.takeNews())
        m_status.emitEvent(EventKind::Info, news);
    const qint64 now = m_clock.monotonicMs();
    const bool dataSinceLastTick = m_lifecycle.observe(now);
    m_observers.tick(now, dataSinceLastTick, m_lifecycle.unreadBytes());
    if (m_books)
        m_books->tick(now);
    if (m_trades && m_trades->tick(now))
        m_shared->setLastTrades(m_trades->prices());
    m_lifecycle.tick(now);
    // What moved since the last tick makes the next poll read the stream (Engine::changedSnapshots).
    m_shared->publishTick();
}

// ---- VenueHost -------------------------------------------------------------------------

void StreamSession::sendOn(int linkId, const QString &text, const QString &method, const QString &requestId)
{
    m_outgoing.sendOn(linkId, text, method, requestId);
}

void StreamSession::venueEvent(EventKind kind, const QString &text)
{
    // Every gap is recorded; the event log gets at most ten a second.
    if (kind == EventKind::Gap)
        m_status.record(QStringLiteral("gap"), QJsonObject{{QStringLiteral("text"), peerText(text)}});
    if (m_status.allow(kind))
        m_status.emitEvent(kind, text);
}

QNetworkAccessManager *StreamSession::networkManager()
{
    return m_serverTime ? m_serverTime->networkManager() : nullptr;
}

void StreamSession::booksLost(const QStringList &instruments, const QString &reason)
{
    if (m_books)
        m_books->lostByVenue(instruments, reason);
}

void StreamSession::bookDepth(const QString &instrument, int levels)
{
    if (m_books)
        m_books->setDepth(instrument, levels);
}

void StreamSession::venueFailed(const QString &reason)
{
    m_lifecycle.fail(reason);
}

void StreamSession::venueReconnect(const QString &reason)
{
    m_lifecycle.scheduleReconnect(reason);
}

void StreamSession::venueStalled(const QString &reason)
{
    m_lifecycle.stalled(reason);
}

void StreamSession::rollOver(int linkId, const QString &reason)
{
    m_lifecycle.rollOver(linkId, reason);
}

} // namespace streamscope
