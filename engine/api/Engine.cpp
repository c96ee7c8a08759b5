#include "Engine.h"
#include "Workspace.h"

#include "EventLoop.h"

#include "capture/CaptureRecorder.h"
#include "capture/CaptureWriter.h"
#include "capture/FlightBudget.h"
#include "capture/FlightRecorder.h"
#include "core/EngineWorker.h"
#include "core/ThreadHandOff.h"
#include "protocol/MessageDecoder.h"
#include "protocol/RequestIds.h"
#include "session/ConnectionPacer.h"
#include "stats/StreamShared.h"

#include <QtCore/QDateTime>
#include <QtCore/QDir>
#include <QtCore/QThread>

#include <algorithm>
#include <chrono>

namespace streamscope {

QString Engine::simdjsonVersion()
{
    return MessageDecoder::simdjsonVersion();
}

namespace {
int defaultWorkerCount()
{
    return std::clamp(QThread::idealThreadCount(), 1, 8);
}
} // namespace

Engine::Engine(QObject *parent)
    : Engine(Options{}, parent)
{
}

Engine::Engine(Options options, QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<streamscope::StreamEvent>();
    qRegisterMetaType<streamscope::StreamState>();
    qRegisterMetaType<streamscope::StreamId>("streamscope::StreamId");
    qRegisterMetaType<streamscope::BookDepth>();
    const int count = options.workerCount > 0 ? options.workerCount : defaultWorkerCount();
    // The venues' per-IP connection limits hold for all the engine's streams together.
    const auto connectPacer = std::make_shared<ConnectionPacer>();
    if (options.maxConnectsInFlight > 0)
        connectPacer->setMaxHandshakes(options.maxConnectsInFlight);
    for (int i = 0; i < count; ++i) {
        auto *thread = new QThread(this);
        thread->setObjectName(QStringLiteral("engine-worker-%1").arg(i));
        installEventLoop(thread); // epoll on Linux (EventLoop.h)
        auto *worker = new EngineWorker(connectPacer);
        worker->moveToThread(thread);
        connect(worker, &EngineWorker::eventOccurred, this, &Engine::onWorkerEvent, Qt::QueuedConnection);
        connect(worker, &EngineWorker::bookDepthReady, this, &Engine::onBookDepth, Qt::QueuedConnection);
        thread->start();
        worker->post([worker] { worker->init(); });
        m_threads.push_back(thread);
        m_workers.push_back(worker);
    }
}

Engine::~Engine()
{
    // Each worker closes its sessions and ends its own event loop; joining the threads then
    // orders everything they did before the workers are deleted here.
    for (std::size_t i = 0; i < m_workers.size(); ++i) {
        EngineWorker *worker = m_workers[i];
        QThread *thread = m_threads[i];
        worker->post([worker, thread] {
            worker->shutdown();
            thread->quit();
            handOffRelease(worker);
        });
    }
    for (QThread *t : m_threads)
        t->wait();
    for (EngineWorker *w : m_workers)
        handOffAcquire(w);
    for (EngineWorker *w : m_workers)
        delete w; // its thread has finished: nothing else can touch it
    // Last: no session produces any more, so the writer writes out every capture and closes it.
    m_captureWriter.reset();
}

namespace {
CaptureRecorder::Identity captureIdentity(const StreamConfig &config)
{
    CaptureRecorder::Identity identity;
    identity.stream = config.name;
    identity.venue = venueName(config.venue);
    identity.url = RedactedUrl::of(config.url);
    identity.mode = modeName(config.mode);
    if (!config.latencyField.isEmpty()) {
        identity.latencyField = config.latencyField;
        identity.latencyUnit = latencyUnitName(config.latencyUnit);
    }
    identity.futures = config.futures;
    identity.book = config.book;
    return identity;
}

bool sameIdentity(const CaptureRecorder::Identity &a, const CaptureRecorder::Identity &b)
{
    return a.stream == b.stream && a.venue == b.venue && a.url == b.url && a.mode == b.mode
        && a.latencyField == b.latencyField && a.latencyUnit == b.latencyUnit && a.futures == b.futures
        && a.book == b.book;
}

constexpr qint64 kMiB = 1024 * 1024;
} // namespace

CaptureWriter &Engine::captureWriter()
{
    if (!m_captureWriter)
        m_captureWriter = std::make_unique<CaptureWriter>();
    return *m_captureWriter;
}

std::shared_ptr<CaptureRecorder> Engine::startRecorder(const StreamConfig &config)
{
    if (!config.record.active())
        return nullptr;
    auto recorder =
        std::make_shared<CaptureRecorder>(config.record, captureIdentity(config), QDateTime::currentMSecsSinceEpoch());
    captureWriter().add(recorder);
    return recorder;
}

std::shared_ptr<FlightRecorder> Engine::startFlight(const StreamConfig &config)
{
    if (!m_flight.enabled)
        return nullptr;
    auto flight =
        std::make_shared<FlightRecorder>(captureIdentity(config), m_flightBudget, qint64(m_flight.minutes) * 60 * 1000);
    captureWriter().add(flight);
    return flight;
}

void Engine::setFlightRecorder(const FlightConfig &config)
{
    FlightConfig c = config;
    c.minutes = std::clamp(c.minutes, 1, 24 * 60);
    c.memoryMb = std::clamp(c.memoryMb, 1, 1024 * 1024);
    if (c == m_flight)
        return;
    const bool wasOn = m_flight.enabled;
    m_flight = c;
    if (!m_flightBudget)
        m_flightBudget = std::make_shared<FlightBudget>();
    m_flightBudget->setCapBytes(quint64(c.memoryMb) * quint64(kMiB));
    for (auto it = m_streams.begin(); it != m_streams.end(); ++it) {
        EngineWorker *worker = it->worker;
        const StreamId id = it.key();
        if (c.enabled && wasOn && it->flight) {
            it->flight->setKeepMs(qint64(c.minutes) * 60 * 1000);
            continue;
        }
        std::shared_ptr<FlightRecorder> old = std::move(it->flight);
        it->flight = startFlight(it->config);
        worker->post([worker, id, flight = it->flight] { worker->setFlightRecorder(id, flight); });
        finishRecorder(worker, std::move(old));
    }
}

QString Engine::saveFlightRecording(StreamId id, const QString &fallbackDir)
{
    const auto it = m_streams.constFind(id);
    if (it == m_streams.constEnd() || !it->flight)
        return {};
    const QString dir = !m_flight.dir.isEmpty() ? m_flight.dir
        : !fallbackDir.isEmpty()                ? fallbackDir
                                                : QDir::currentPath();
    return it->flight->requestSave(dir, QDateTime::currentMSecsSinceEpoch() * 1000);
}

quint64 Engine::flightMemoryBytes() const
{
    return m_flightBudget ? m_flightBudget->usedBytes() : 0;
}

void Engine::finishRecorder(EngineWorker *worker, std::shared_ptr<CaptureSink> recorder)
{
    if (!recorder)
        return;
    // Queued behind the session's removal on its worker: the ring's producer is gone by then.
    CaptureWriter *writer = m_captureWriter.get();
    worker->post([writer, recorder] { writer->remove(recorder); });
}

EngineWorker *Engine::leastLoadedWorker() const
{
    return *std::min_element(m_workers.begin(), m_workers.end(),
                             [](const EngineWorker *a, const EngineWorker *b) { return a->load() < b->load(); });
}

StreamId Engine::addStream(const StreamConfig &config)
{
    const StreamId id = m_nextId++;
    auto shared = std::make_shared<StreamShared>(id, config);
    EngineWorker *worker = leastLoadedWorker();
    worker->addLoad(1);
    std::shared_ptr<CaptureRecorder> recorder = startRecorder(config);
    std::shared_ptr<FlightRecorder> flight = startFlight(config);
    m_streams.insert(id, Entry{shared, worker, config, recorder, flight, {}, {}});
    m_order.append(id);
    worker->post([worker, shared, config, recorder, flight] { worker->addSession(shared, config, recorder, flight); });
    emit streamAdded(id);
    return id;
}

void Engine::removeStream(StreamId id)
{
    const auto it = m_streams.find(id);
    if (it == m_streams.end())
        return;
    EngineWorker *worker = it->worker;
    worker->addLoad(-1);
    std::shared_ptr<CaptureRecorder> recorder = it->recorder;
    std::shared_ptr<FlightRecorder> flight = it->flight;
    m_streams.erase(it);
    m_order.removeOne(id);
    worker->post([worker, id] { worker->removeSession(id); });
    finishRecorder(worker, std::move(recorder));
    finishRecorder(worker, std::move(flight));
    emit streamRemoved(id);
}

bool Engine::updateStream(StreamId id, const StreamConfig &config)
{
    const auto it = m_streams.find(id);
    if (it == m_streams.end())
        return false;
    StreamConfig sameDestinations = config;
    sameDestinations.notify = it->config.notify;
    if (config.notify != it->config.notify && Workspace::sameStream(sameDestinations, it->config)) {
        it->config = config;
        it->shared->setConfig(config);
        return false;
    }
    // The same shared block: a new session counts on where the old one stopped.
    EngineWorker *worker = it->worker;
    // A recording goes on into the same file unless its settings or what the file's first line
    // says of the stream (name, venue, URL, mode, latency field) changed.
    std::shared_ptr<CaptureRecorder> old = it->recorder;
    const bool sameRecording =
        old && config.record == it->config.record && sameIdentity(old->identity(), captureIdentity(config));
    if (!sameRecording)
        it->recorder = startRecorder(config);
    // The flight recorder keeps its history unless what its files' first line says changed.
    std::shared_ptr<FlightRecorder> oldFlight = it->flight;
    const bool sameFlight = oldFlight && sameIdentity(oldFlight->identity(), captureIdentity(config));
    if (!sameFlight)
        it->flight = startFlight(config);
    it->config = config;
    const std::shared_ptr<StreamShared> shared = it->shared;
    shared->setConfig(config);
    std::shared_ptr<CaptureRecorder> recorder = it->recorder;
    std::shared_ptr<FlightRecorder> flight = it->flight;
    // The commands asked for so far are the old session's; one asked for after this is the new one's.
    const std::uint64_t commands = shared->commands.word();
    const QSet<QString> lastTradeNames = it->lastTradeNames;
    const InstrumentAliases lastTradeAliases = it->lastTradeAliases;
    worker->post([worker, shared, config, id, recorder, flight, commands, lastTradeNames, lastTradeAliases] {
        worker->removeSession(id);
        worker->addSession(shared, config, recorder, flight, commands);
        if (!lastTradeNames.isEmpty())
            worker->setLastTradeInstruments(id, lastTradeNames, lastTradeAliases);
    });
    if (!sameRecording)
        finishRecorder(worker, std::move(old));
    if (!sameFlight)
        finishRecorder(worker, std::move(oldFlight));
    return true;
}

void Engine::setRecording(StreamId id, const RecordConfig &record)
{
    const auto it = m_streams.find(id);
    if (it == m_streams.end() || it->config.record == record)
        return;
    it->config.record = record;
    it->shared->setConfig(it->config);
    std::shared_ptr<CaptureRecorder> old = std::move(it->recorder);
    it->recorder = startRecorder(it->config); // null when the new settings record nothing
    EngineWorker *worker = it->worker;
    worker->post([worker, id, recorder = it->recorder] { worker->setRecorder(id, recorder); });
    finishRecorder(worker, std::move(old));
}

namespace {

// The command goes into the stream's shared block, where the worker's hot path finds it at its
// next message; the wake-up makes an idle worker look too. Its result comes back as the
// stream's StateChanged event (stateChanged()), the one way up.
void postCommand(StreamShared &shared, EngineWorker *worker, StreamId id, StreamCommands::Command command)
{
    shared.commands.post(command);
    worker->post([worker, id] { worker->runCommands(id); });
}

} // namespace

void Engine::stopStream(StreamId id)
{
    if (const auto it = m_streams.constFind(id); it != m_streams.constEnd())
        postCommand(*it->shared, it->worker, id, StreamCommands::Command::Stop);
}

void Engine::restartStream(StreamId id)
{
    if (const auto it = m_streams.constFind(id); it != m_streams.constEnd())
        postCommand(*it->shared, it->worker, id, StreamCommands::Command::Restart);
}

void Engine::stopAll()
{
    for (StreamId id : std::as_const(m_order))
        stopStream(id);
}

qint64 Engine::subscribe(StreamId id, const QStringList &streams)
{
    return sendControl(id, QStringLiteral("SUBSCRIBE"), streams);
}

qint64 Engine::unsubscribe(StreamId id, const QStringList &streams)
{
    return sendControl(id, QStringLiteral("UNSUBSCRIBE"), streams);
}

qint64 Engine::listSubscriptions(StreamId id)
{
    return sendControl(id, QStringLiteral("LIST_SUBSCRIPTIONS"), {});
}

qint64 Engine::sendControl(StreamId id, const QString &method, const QStringList &params)
{
    const auto it = m_streams.constFind(id);
    if (it == m_streams.constEnd())
        return 0;
    const qint64 requestId = nextRequestId();
    EngineWorker *worker = it->worker;
    worker->post([=] { worker->sendControl(id, method, params, requestId); });
    return requestId;
}

bool Engine::sendMessage(StreamId id, const QString &text)
{
    const auto it = m_streams.constFind(id);
    if (it == m_streams.constEnd())
        return false;
    EngineWorker *worker = it->worker;
    worker->post([=] { worker->sendRaw(id, text); });
    return true;
}

QList<StreamId> Engine::streamIds() const
{
    return m_order;
}

StreamConfig Engine::config(StreamId id) const
{
    const auto it = m_streams.constFind(id);
    return it == m_streams.constEnd() ? StreamConfig{} : it->config;
}

QVector<StreamSnapshot> Engine::snapshot(bool withLatency) const
{
    QVector<StreamSnapshot> out;
    out.resize(m_order.size());
    for (qsizetype i = 0; i < m_order.size(); ++i) {
        const Entry &e = m_streams.find(m_order[i]).value();
        e.shared->fillSnapshot(out[i], withLatency);
        if (e.recorder)
            out[i].record = e.recorder->status();
        if (e.flight)
            out[i].flight = e.flight->status();
    }
    return out;
}

namespace {
// The status of a stream's recording and flight recorder, kept apart from its shared block
// (their writers are the capture threads): a digest of every figure, compared between polls.
size_t sideDigest(const RecordStatus &r, const FlightStatus &f)
{
    return qHashMulti(0, r.on, r.file, r.files, r.bytesWritten, r.messages, r.dropped, r.errors, r.error, r.sinceMs,
                      f.on, f.memoryBytes, f.heldMs, f.messagesHeld, f.evictedAgeMessages, f.evictedCapMessages,
                      f.dropped, f.droppedEvents, f.savedFiles, f.lastFile, f.saveErrors, f.error, f.keepMs,
                      f.capBytes);
}
} // namespace

QVector<StreamSnapshot> Engine::changedSnapshots(SnapshotCursor &cursor, bool withLatency) const
{
    return changedSnapshots(cursor, [withLatency](StreamId) { return withLatency; });
}

QVector<StreamSnapshot> Engine::changedSnapshots(SnapshotCursor &cursor,
                                                 const std::function<bool(StreamId)> &latencyOf) const
{
    QVector<StreamSnapshot> out;
    changedSnapshots(cursor, latencyOf, out);
    return out;
}

void Engine::changedSnapshots(SnapshotCursor &cursor, const std::function<bool(StreamId)> &latencyOf,
                              QVector<StreamSnapshot> &out) const
{
    QList<StreamId> refreshed;
    changedSnapshots(cursor, latencyOf, {}, out, refreshed);
}

void Engine::changedSnapshots(SnapshotCursor &cursor, const std::function<bool(StreamId)> &latencyOf,
                              const std::function<StreamSnapshot *(StreamId)> &held, QVector<StreamSnapshot> &out,
                              QList<StreamId> &refreshed) const
{
    out.clear(); // keeps the capacity unless shared
    refreshed.clear();
    cursor.m_takenAtNs =
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count();
    cursor.m_read = 0;
    cursor.m_skipped = 0;
    cursor.m_latencyRead = 0;
    cursor.m_refreshed = 0;
    for (const StreamId id : m_order) {
        const bool withLatency = latencyOf(id);
        const Entry &e = m_streams.find(id).value();
        const StreamShared::ChangeStamp stamp = e.shared->changeStamp();
        RecordStatus record;
        FlightStatus flight;
        if (e.recorder)
            record = e.recorder->status();
        if (e.flight)
            flight = e.flight->status();
        const size_t side = (e.recorder || e.flight) ? sideDigest(record, flight) : 0;
        SnapshotCursor::Seen &seen = cursor.m_seen[id];
        // Asked for latency, a reading without it is read again even when nothing changed.
        const bool same =
            (seen.withLatency || !withLatency) && seen.messages == stamp.messages && seen.changes == stamp.changes;
        if (same && seen.side == side) { // a new entry never is: setConfig counted a change
            ++cursor.m_skipped;
            continue;
        }
        // Only the figures moved, and the poller holds the reading with the current details.
        StreamSnapshot *kept =
            (held && seen.details == stamp.details && seen.side == side && seen.changes != 0) ? held(id) : nullptr;
        if (kept) {
            e.shared->refreshFigures(*kept, withLatency);
            refreshed.append(id);
            ++cursor.m_refreshed;
        } else {
            StreamSnapshot &s = out.emplace_back();
            e.shared->fillSnapshot(s, withLatency);
            s.record = std::move(record);
            s.flight = std::move(flight);
        }
        seen.messages = stamp.messages;
        seen.changes = stamp.changes;
        seen.details = stamp.details;
        seen.side = side;
        seen.withLatency = withLatency;
        cursor.m_latencyRead += withLatency ? 1 : 0;
        ++cursor.m_read;
    }
    if (cursor.m_seen.size() > m_streams.size()) // streams went: forget them
        cursor.m_seen.removeIf([this](const auto &it) { return !m_streams.contains(it.key()); });
}

StreamSnapshot Engine::snapshot(StreamId id, bool withLatency) const
{
    StreamSnapshot s;
    if (const auto it = m_streams.constFind(id); it != m_streams.constEnd()) {
        it->shared->fillSnapshot(s, withLatency);
        if (it->recorder)
            s.record = it->recorder->status();
        if (it->flight)
            s.flight = it->flight->status();
    }
    return s;
}

QVector<ResponseRecord> Engine::results(StreamId id) const
{
    const auto it = m_streams.constFind(id);
    return it == m_streams.constEnd() ? QVector<ResponseRecord>{} : it->shared->responses(false);
}

QVector<ResponseRecord> Engine::errors(StreamId id) const
{
    const auto it = m_streams.constFind(id);
    return it == m_streams.constEnd() ? QVector<ResponseRecord>{} : it->shared->responses(true);
}

void Engine::setInspecting(StreamId id, bool on)
{
    if (const auto it = m_streams.constFind(id); it != m_streams.constEnd()) {
        it->shared->inspecting.store(on, std::memory_order_relaxed);
        if (!on)
            it->shared->clearInspected();
    }
}

QVector<InspectedMessage> Engine::takeInspected(StreamId id)
{
    const auto it = m_streams.constFind(id);
    return it == m_streams.constEnd() ? QVector<InspectedMessage>{} : it->shared->takeInspected();
}

quint64 Engine::requestBookDepth(StreamId id, const QString &instrument, int levels)
{
    const auto it = m_streams.constFind(id);
    if (it == m_streams.constEnd())
        return 0;
    const quint64 requestId = m_nextDepthRequest++;
    EngineWorker *worker = it->worker;
    worker->post([=] { worker->copyBookDepth(id, instrument, levels, requestId); });
    return requestId;
}

void Engine::setLastTradeInstruments(StreamId id, const QSet<QString> &names, const InstrumentAliases &aliases)
{
    const auto it = m_streams.find(id);
    if (it == m_streams.end())
        return;
    it->lastTradeNames = names;
    it->lastTradeAliases = aliases;
    EngineWorker *worker = it->worker;
    worker->post([=] { worker->setLastTradeInstruments(id, names, aliases); });
}

void Engine::onBookDepth(const BookDepth &depth)
{
    handOffAcquire(&kEventHandOffToken);
    if (m_streams.contains(depth.stream))
        emit bookDepthReady(depth);
}

void Engine::onWorkerEvent(const StreamEvent &event)
{
    handOffAcquire(&kEventHandOffToken);
    if (!m_streams.contains(event.stream))
        return; // removed meanwhile
    if (event.kind == EventKind::StateChanged)
        emit stateChanged(event.stream, event.state, event.text);
    emit eventOccurred(event);
}

} // namespace streamscope
