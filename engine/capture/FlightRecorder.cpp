#include "FlightRecorder.h"

#include "CaptureFormat.h"
#include "FlightBudget.h"

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QScopeGuard>
#include <QtCore/QSet>

#include <zstd.h>

#include <algorithm>
#include <cerrno>

namespace streamscope {

namespace {

constexpr int kLevel = 1; // zstd's fastest: compression runs for every message

// One compression context for every flight recorder: they all compress on the writer thread.
struct CCtxDeleter {
    void operator()(ZSTD_CCtx *c) const { ZSTD_freeCCtx(c); }
};
ZSTD_CCtx *writerContext()
{
    thread_local std::unique_ptr<ZSTD_CCtx, CCtxDeleter> context(ZSTD_createCCtx());
    return context.get();
}

// `text` as one complete zstd frame (with a checksum, as recordings have); empty on failure.
std::string compressFrame(const std::string &text)
{
    ZSTD_CCtx *c = writerContext();
    if (!c)
        return {};
    ZSTD_CCtx_reset(c, ZSTD_reset_session_and_parameters);
    ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, kLevel);
    ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
    std::string out;
    out.resize(ZSTD_compressBound(text.size()));
    const std::size_t n = ZSTD_compress2(c, out.data(), out.size(), text.data(), text.size());
    if (ZSTD_isError(n))
        return {};
    out.resize(n);
    out.shrink_to_fit(); // the cap counts what is held
    return out;
}

} // namespace

FlightRecorder::FlightRecorder(CaptureRecorder::Identity identity, std::shared_ptr<FlightBudget> budget, qint64 keepMs)
    : m_identity(std::move(identity))
    , m_budget(std::move(budget))
    , m_keepMs(keepMs)
    , m_ring(kRingBytes)
    , m_store(m_budget.get())
{
}

FlightRecorder::~FlightRecorder()
{
    if (m_attached)
        m_budget->detach(&m_store);
    m_budget->charge(-qint64(m_pendingBytes.load()));
}

void FlightRecorder::event(qint64 timeUs, const QString &name, const QJsonObject &fields)
{
    eventJson(timeUs, capture::eventJson(name, fields));
}

void FlightRecorder::eventJson(qint64 timeUs, const QByteArray &json)
{
    if (!m_ring.push(CaptureRing::Kind::Event, timeUs, json.constData(), std::size_t(json.size())))
        m_eventDrops.add();
}

namespace {

// Paths asked for and not written yet, over every stream's recorder: two stream names can give
// the same file name ("BTC/USDT" and "BTC USDT"), and both may be saved in the same second.
struct PendingSaves {
    QMutex mutex;
    QSet<QString> paths;
};

PendingSaves &pendingSaves()
{
    static PendingSaves pending;
    return pending;
}

} // namespace

QString FlightRecorder::requestSave(const QString &dir, qint64 wallUs)
{
    const QString stream = m_identity.stream + QStringLiteral("-flight");
    QMutexLocker lock(&m_mutex);
    PendingSaves &pending = pendingSaves();
    QMutexLocker pendingLock(&pending.mutex);
    QString path;
    for (int serial = 0;; ++serial) {
        path = QDir(dir).filePath(capture::fileName(stream, wallUs, serial, true));
        if (!pending.paths.contains(path) && !QFileInfo::exists(path))
            break;
    }
    pending.paths.insert(path);
    m_saveRequests.append(path);
    return path;
}

FlightStatus FlightRecorder::status() const
{
    FlightStatus s;
    s.on = true;
    s.memoryBytes = m_store.bytes() + m_pendingBytes.load(std::memory_order_relaxed);
    s.heldMs = m_store.spanMs();
    s.messagesHeld = m_store.messages();
    s.evictedAgeMessages = m_store.evictedAgeMessages();
    s.evictedCapMessages = m_store.evictedCapMessages();
    s.dropped = m_ringDrops.load();
    s.droppedEvents = m_eventDrops.load();
    s.savedFiles = m_saved.load();
    s.saveErrors = m_saveErrors.load();
    s.keepMs = m_keepMs.load(std::memory_order_relaxed);
    s.capBytes = m_budget->capBytes();
    QMutexLocker lock(&m_mutex);
    s.lastFile = m_lastFile;
    s.error = m_error;
    return s;
}

void FlightRecorder::take(const CaptureRing::Record &r, qint64 steadyMs)
{
    if (m_text.empty()) {
        m_textFirstUs = m_textLastUs = r.timeUs;
        m_chunkStartedMs = steadyMs;
    }
    m_textLastUs = std::max(m_textLastUs, qint64(r.timeUs));
    if (r.kind == CaptureRing::Kind::Event) {
        capture::appendEventLine(m_text, r.timeUs, QByteArray::fromRawData(r.data, qsizetype(r.len)));
    } else {
        capture::appendMessageLine(m_text, r.timeUs, r.data, r.len, r.kind == CaptureRing::Kind::Binary);
        ++m_textMessages;
    }
}

void FlightRecorder::seal()
{
    if (m_text.empty())
        return;
    FlightChunkStore::Chunk chunk;
    chunk.firstUs = m_textFirstUs;
    chunk.lastUs = m_textLastUs;
    chunk.messages = m_textMessages;
    chunk.bytes = compressFrame(m_text);
    m_text.clear();
    m_textMessages = 0;
    chargePending();
    // zstd does not fail with an output of ZSTD_compressBound; a chunk is never kept broken.
    if (chunk.bytes.empty())
        return;
    // Room first, so that the memory in use never passes the cap.
    m_budget->enforce(chunk.bytes.size());
    m_store.append(std::move(chunk));
}

void FlightRecorder::chargePending()
{
    const quint64 pending = m_text.size();
    const quint64 charged = m_pendingBytes.load(std::memory_order_relaxed);
    if (pending > charged)
        m_budget->enforce(pending - charged);
    m_budget->charge(qint64(pending) - qint64(charged));
    m_pendingBytes.store(pending, std::memory_order_relaxed);
}

bool FlightRecorder::service(qint64 wallUs, qint64 steadyMs)
{
    if (m_done)
        return false;
    if (!m_attached) {
        m_budget->attach(&m_store);
        m_attached = true;
    }
    const bool finishing = m_finishing.load(std::memory_order_acquire);
    bool busy = false;
    std::size_t budget = CaptureRing::kServiceBudget;
    CaptureRing::Record r;
    while (budget > 0 && m_ring.peek(r)) {
        busy = true;
        take(r, steadyMs);
        m_ring.pop();
        budget -= std::min(budget, r.len + CaptureRing::kHeaderBytes);
        if (m_text.size() >= kChunkTextBytes)
            seal();
    }
    if (!m_text.empty() && steadyMs - m_chunkStartedMs >= kChunkMs)
        seal();

    QStringList saves;
    {
        QMutexLocker lock(&m_mutex);
        saves.swap(m_saveRequests);
    }
    if (!saves.isEmpty()) {
        seal(); // everything received so far is in the file
        for (const QString &path : std::as_const(saves))
            writeSave(path, wallUs);
        busy = true;
    }

    m_store.evictOlderThan(wallUs - m_keepMs.load(std::memory_order_relaxed) * 1000);
    chargePending();
    m_budget->enforce(); // the cap may have been lowered

    if (finishing && !busy)
        close(wallUs, steadyMs);
    return busy;
}

void FlightRecorder::close(qint64 wallUs, qint64 steadyMs)
{
    // The stream is gone: its history goes with it (a save asked for before still happens).
    m_finishing.store(true, std::memory_order_release);
    QStringList saves;
    {
        QMutexLocker lock(&m_mutex);
        saves.swap(m_saveRequests);
    }
    if (!saves.isEmpty()) {
        CaptureRing::Record r;
        while (m_ring.peek(r)) {
            take(r, steadyMs);
            m_ring.pop();
        }
        seal();
        for (const QString &path : std::as_const(saves))
            writeSave(path, wallUs);
    }
    if (m_attached) {
        m_budget->detach(&m_store);
        m_attached = false;
    }
    m_done = true;
}

QByteArray FlightRecorder::headerJson(qint64 wallUs) const
{
    QJsonObject o = CaptureRecorder::headerObject(m_identity, true, 0);
    o.insert(QStringLiteral("flight_recorder"), true);
    o.insert(QStringLiteral("saved"), QString::fromLatin1(capture::formatTime(wallUs)));
    o.insert(QStringLiteral("evicted"), qint64(m_store.evictedAgeMessages() + m_store.evictedCapMessages()));
    return capture::eventJson(QStringLiteral("capture"), o);
}

void FlightRecorder::writeSave(const QString &path, qint64 wallUs)
{
    // However it ends, the path is no longer pending.
    const auto release = qScopeGuard([&path] {
        PendingSaves &pending = pendingSaves();
        QMutexLocker lock(&pending.mutex);
        pending.paths.remove(path);
    });
    const auto fail = [&](const QString &why) {
        m_saveErrors.add();
        QMutexLocker lock(&m_mutex);
        m_error = why;
    };
    if (!QDir().mkpath(QFileInfo(path).absolutePath())) {
        fail(QStringLiteral("cannot create the folder %1")
                 .arg(QDir::toNativeSeparators(QFileInfo(path).absolutePath())));
        return;
    }
    // Written under a temporary name and renamed when whole: the name a notification gives is
    // never a file half written (an alert's webhook may fetch it at once).
    QFile file(path + QStringLiteral(".part"));
    if (!file.open(QIODevice::WriteOnly | QIODevice::NewOnly)) {
        fail(QStringLiteral("cannot create %1: %2").arg(QDir::toNativeSeparators(file.fileName()), file.errorString()));
        return;
    }
    // The first line names the stream as a recording's does; it is dated with the oldest line held.
    std::string header;
    capture::appendEventLine(header, m_store.empty() ? wallUs : m_store.oldestUs(), headerJson(wallUs));
    const std::string headerFrame = compressFrame(header);
    bool ok = !headerFrame.empty();
    const auto put = [&](const std::string &bytes) {
        errno = 0;
        if (ok && file.write(bytes.data(), qint64(bytes.size())) != qint64(bytes.size()))
            ok = false;
    };
    put(headerFrame);
    for (const FlightChunkStore::Chunk &c : m_store.chunks())
        put(c.bytes);
    const int writeErrno = errno;
    if (ok)
        ok = file.flush();
    if (!ok) {
        const QString why =
            file.error() == QFileDevice::NoError && writeErrno != 0 ? qt_error_string(writeErrno) : file.errorString();
        file.remove();
        fail(QStringLiteral("cannot write %1: %2").arg(QDir::toNativeSeparators(path), why));
        return;
    }
    file.close();
    if (!file.rename(path)) { // never over an existing file
        const QString why = file.errorString();
        file.remove();
        fail(QStringLiteral("cannot rename %1 to %2: %3")
                 .arg(QDir::toNativeSeparators(file.fileName()), QDir::toNativeSeparators(path), why));
        return;
    }
    {
        QMutexLocker lock(&m_mutex);
        m_lastFile = path;
    }
    m_saved.add();
}

} // namespace streamscope
