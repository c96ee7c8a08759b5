#include "EngineWorker.h"

#include "session/StreamSession.h"
#include "stats/StreamShared.h"

#include <QtCore/QTimer>

namespace streamscope {

namespace {
constexpr int kTickMs = 100;
} // namespace

EngineWorker::EngineWorker(std::shared_ptr<ConnectionPacer> connectPacer)
    : m_connectPacer(std::move(connectPacer))
{
}

EngineWorker::~EngineWorker()
{
    qDeleteAll(m_sessions);
}

void EngineWorker::post(std::function<void()> fn)
{
    std::lock_guard lock(m_postedMutex);
    const bool wake = m_posted.empty();
    m_posted.push_back(std::move(fn));
    if (wake) // otherwise a wake-up is already on its way and will take this task too
        QMetaObject::invokeMethod(this, "runPosted", Qt::QueuedConnection);
}

void EngineWorker::runPosted()
{
    std::vector<std::function<void()>> tasks;
    {
        std::lock_guard lock(m_postedMutex);
        tasks.swap(m_posted);
    }
    for (auto &task : tasks)
        task();
}

void EngineWorker::init()
{
    m_tick = new QTimer(this);
    m_tick->setInterval(kTickMs);
    connect(m_tick, &QTimer::timeout, this, &EngineWorker::onTick);
    m_tick->start();
}

void EngineWorker::shutdown()
{
    if (m_tick)
        m_tick->stop();
    qDeleteAll(m_sessions);
    m_sessions.clear();
    m_serverTime.shutdown();
}

void EngineWorker::addSession(std::shared_ptr<StreamShared> shared, const StreamConfig &config,
                              std::shared_ptr<CaptureRecorder> recorder, std::shared_ptr<FlightRecorder> flight,
                              std::uint64_t commandsBefore)
{
    const StreamId id = shared->id;
    auto *session = new StreamSession(std::move(shared), config, m_buffer, m_decoder, *this, SystemClock::instance(),
                                      networkTransports(), this);
    session->setServerTimeService(&m_serverTime);
    session->setConnectionPacer(m_connectPacer);
    session->setWorkerLoad(&m_busy);
    session->setRecorder(std::move(recorder));
    session->setFlightRecorder(std::move(flight));
    m_sessions.insert(id, session);
    session->setCommandsSeen(commandsBefore);
    if (!session->runCommands())
        session->start();
}

void EngineWorker::removeSession(StreamId id)
{
    delete m_sessions.take(id);
}

void EngineWorker::setRecorder(StreamId id, std::shared_ptr<CaptureRecorder> recorder)
{
    if (StreamSession *s = m_sessions.value(id))
        s->setRecorder(std::move(recorder));
}

void EngineWorker::setFlightRecorder(StreamId id, std::shared_ptr<FlightRecorder> flight)
{
    if (StreamSession *s = m_sessions.value(id))
        s->setFlightRecorder(std::move(flight));
}

void EngineWorker::runCommands(StreamId id)
{
    if (StreamSession *s = m_sessions.value(id))
        s->runCommands();
}

void EngineWorker::sendControl(StreamId id, const QString &method, const QStringList &params, qint64 requestId)
{
    if (StreamSession *s = m_sessions.value(id))
        s->sendControl(method, params, requestId);
}

void EngineWorker::sendRaw(StreamId id, const QString &text)
{
    if (StreamSession *s = m_sessions.value(id))
        s->sendRaw(text);
}

void EngineWorker::setLastTradeInstruments(StreamId id, const QSet<QString> &names, const InstrumentAliases &aliases)
{
    if (StreamSession *s = m_sessions.value(id))
        s->setLastTradeInstruments(names, aliases);
}

void EngineWorker::copyBookDepth(StreamId id, const QString &instrument, int levels, quint64 requestId)
{
    BookDepth depth;
    depth.stream = id;
    depth.instrument = instrument;
    depth.requestId = requestId;
    if (const StreamSession *s = m_sessions.value(id); !s || !s->copyBookDepth(instrument, levels, depth))
        depth.found = false;
    handOffRelease(&kEventHandOffToken);
    emit bookDepthReady(depth);
}

void EngineWorker::onTick()
{
    m_busy.sample(SystemClock::instance().monotonicMs());
    // Copy: a tick may make a session fail or reconnect, never remove it, but stay safe.
    const auto sessions = m_sessions.values();
    for (StreamSession *s : sessions)
        s->tick();
}

} // namespace streamscope
