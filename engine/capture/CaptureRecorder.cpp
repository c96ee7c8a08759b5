#include "CaptureRecorder.h"

#include "CaptureFormat.h"

#include <QtCore/QDir>
#include <QtCore/QFileInfo>

#include <zstd.h>

#include <algorithm>
#include <cerrno>

namespace streamscope {

namespace {

constexpr qint64 kFlushMs = 500;               // a zstd block at least this often: kill -9 loses at most this
constexpr qint64 kRetryMs = 5000;              // after an error, a new file is tried this much later
constexpr std::size_t kTextChunk = 256 * 1024; // formatted text handed to zstd at once
constexpr qint64 kMiB = 1024 * 1024;

} // namespace

CaptureRecorder::CaptureRecorder(const RecordConfig &config, Identity identity, qint64 startedMs)
    : m_config(config)
    , m_identity(std::move(identity))
    , m_startedMs(startedMs)
    , m_ring(std::size_t(std::clamp(config.bufferMb, 1, 4096)) * std::size_t(kMiB))
{
}

CaptureRecorder::~CaptureRecorder()
{
    if (m_zstd)
        ZSTD_freeCCtx(m_zstd);
}

void CaptureRecorder::event(qint64 timeUs, const QString &name, QJsonObject fields)
{
    eventJson(timeUs, capture::eventJson(name, fields));
}

void CaptureRecorder::eventJson(qint64 timeUs, const QByteArray &json)
{
    if (!m_ring.push(CaptureRing::Kind::Event, timeUs, json.constData(), std::size_t(json.size())))
        m_ringDrops.add();
}

RecordStatus CaptureRecorder::status() const
{
    RecordStatus s;
    s.on = true;
    s.files = m_files.load();
    s.bytesWritten = m_bytesWritten.load();
    s.messages = m_recorded.load();
    s.dropped = m_ringDrops.load() + m_lostDrops.load();
    s.errors = m_errors.load();
    s.sinceMs = m_startedMs;
    QMutexLocker lock(&m_mutex);
    s.file = m_fileShown;
    s.error = m_error;
    return s;
}

void CaptureRecorder::setError(const QString &error)
{
    QMutexLocker lock(&m_mutex);
    m_error = error;
}

void CaptureRecorder::setFile(const QString &path)
{
    QMutexLocker lock(&m_mutex);
    m_fileShown = path;
}

QJsonObject CaptureRecorder::headerObject(const Identity &identity, bool compressed, qint64 fileIndex)
{
    QJsonObject o{{QStringLiteral("format"), capture::kFormatVersion},
                  {QStringLiteral("stream"), identity.stream},
                  {QStringLiteral("venue"), identity.venue},
                  {QStringLiteral("url"), identity.url.toString()},
                  {QStringLiteral("mode"), identity.mode},
                  {QStringLiteral("version"), QStringLiteral(STREAMSCOPE_VERSION)},
                  {QStringLiteral("host_clock"), identity.hostClock},
                  {QStringLiteral("compressed"), compressed},
                  {QStringLiteral("file_index"), fileIndex}};
    if (!identity.latencyField.isEmpty()) { // so that a reader finds the event time as the stream did
        o.insert(QStringLiteral("latency_field"), identity.latencyField);
        o.insert(QStringLiteral("latency_unit"), identity.latencyUnit);
    }
    // What decides the stream's book rules beyond its venue and URL, so that a reader rebuilds
    // its books as the stream kept them (api/CaptureBooks).
    if (identity.futures)
        o.insert(QStringLiteral("futures"), true);
    if (!identity.book)
        o.insert(QStringLiteral("book"), false);
    return o;
}

QByteArray CaptureRecorder::headerJson(const QString &previous) const
{
    QJsonObject o = headerObject(m_identity, m_config.compress, qint64(m_files.load()) - 1);
    if (!previous.isEmpty())
        o.insert(QStringLiteral("previous"), previous);
    return capture::eventJson(QStringLiteral("capture"), o);
}

bool CaptureRecorder::service(qint64 wallUs, qint64 steadyMs)
{
    if (m_done)
        return false;
    // Read before the ring: once finishing, everything the worker pushed is visible.
    const bool finishing = m_finishing.load(std::memory_order_acquire);
    m_nowMs = steadyMs;
    if (!m_file.isOpen() && steadyMs >= m_retryAtMs)
        openFile(wallUs, steadyMs, QString());

    bool busy = false;
    std::size_t budget = CaptureRing::kServiceBudget;
    CaptureRing::Record r;
    while (budget > 0 && m_ring.peek(r)) {
        busy = true;
        if (m_file.isOpen()) {
            if (r.kind == CaptureRing::Kind::Event) {
                capture::appendEventLine(m_text, r.timeUs, QByteArray::fromRawData(r.data, qsizetype(r.len)));
            } else {
                capture::appendMessageLine(m_text, r.timeUs, r.data, r.len, r.kind == CaptureRing::Kind::Binary);
                ++m_pending;
            }
            m_unflushed = true;
        } else if (r.kind != CaptureRing::Kind::Event) {
            m_lostDrops.add();
        }
        m_ring.pop();
        budget -= std::min(budget, r.len + CaptureRing::kHeaderBytes);
        if (m_text.size() >= kTextChunk && m_file.isOpen())
            writeOut(false, false);
    }

    if (m_file.isOpen() && m_unflushed && (steadyMs - m_lastFlushMs >= kFlushMs || finishing)) {
        m_lastFlushMs = steadyMs;
        if (writeOut(true, false) && !QFileInfo::exists(m_file.fileName())) {
            // Writing on would fill a file nobody can reach: say so, and start a new one.
            const QString path = m_file.fileName();
            failed(QStringLiteral("the capture file %1 was deleted; a new file is started").arg(path));
            m_retryAtMs = steadyMs;
        }
    }
    if (m_file.isOpen()) {
        const bool bySize = m_config.rotateMb > 0 && m_fileBytes >= m_config.rotateMb * kMiB;
        const bool byAge = m_config.rotateS > 0 && steadyMs - m_fileOpenedMs >= m_config.rotateS * 1000;
        if ((bySize || byAge) && !finishing) {
            const QString previous = QFileInfo(m_file.fileName()).fileName();
            // The next file's name is known before the old one is closed: its last line names it.
            ++m_serial;
            const QString next = capture::fileName(m_identity.stream, wallUs, m_serial, m_config.compress);
            closeFile(wallUs, next);
            openFile(wallUs, steadyMs, previous);
            busy = true;
        }
    }
    if (finishing && !busy) {
        close(wallUs, steadyMs);
        return true;
    }
    return busy;
}

void CaptureRecorder::close(qint64 wallUs, qint64 steadyMs)
{
    m_finishing.store(true, std::memory_order_release);
    CaptureRing::Record r;
    while (m_ring.peek(r)) {
        // Everything left is written (or counted) before the file is closed.
        service(wallUs, steadyMs);
        if (m_done)
            return;
    }
    if (m_file.isOpen())
        closeFile(wallUs, QString());
    m_done = true;
}

bool CaptureRecorder::openFile(qint64 wallUs, qint64 steadyMs, const QString &previous)
{
    const QString dir = m_config.dir;
    if (!QDir().mkpath(dir)) {
        failed(QStringLiteral("cannot create the capture folder %1").arg(QDir::toNativeSeparators(dir)));
        return false;
    }
    QString path;
    bool opened = false;
    for (int attempt = 0; attempt < 1000 && !opened; ++attempt) {
        path = QDir(dir).filePath(capture::fileName(m_identity.stream, wallUs, m_serial, m_config.compress));
        m_file.setFileName(path);
        if (m_file.open(QIODevice::WriteOnly | QIODevice::NewOnly | QIODevice::Unbuffered)) {
            opened = true;
        } else if (QFileInfo::exists(path)) {
            ++m_serial; // taken (a rotation within the same second): the next number
        } else {
            failed(QStringLiteral("cannot create the capture file %1: %2")
                       .arg(QDir::toNativeSeparators(path), m_file.errorString()));
            return false;
        }
    }
    if (!opened) {
        failed(QStringLiteral("cannot create a capture file in %1: every name is taken").arg(dir));
        return false;
    }
    if (m_config.compress) {
        if (!m_zstd)
            m_zstd = ZSTD_createCCtx();
        ZSTD_CCtx_reset(m_zstd, ZSTD_reset_session_only);
        ZSTD_CCtx_setParameter(m_zstd, ZSTD_c_compressionLevel, std::clamp(m_config.level, 1, 19));
        ZSTD_CCtx_setParameter(m_zstd, ZSTD_c_checksumFlag, 1);
        if (m_out.empty())
            m_out.resize(ZSTD_CStreamOutSize());
    }
    m_files.add();
    m_fileBytes = 0;
    m_fileOpenedMs = steadyMs;
    m_lastFlushMs = steadyMs;
    setFile(path);
    capture::appendEventLine(m_text, wallUs, headerJson(previous));
    m_unflushed = true;
    // The first line is on disk at once: the file says what it is even if nothing follows.
    return writeOut(true, false);
}

void CaptureRecorder::closeFile(qint64 wallUs, const QString &next)
{
    if (!next.isEmpty())
        capture::appendEventLine(
            m_text, wallUs, capture::eventJson(QStringLiteral("rotated"), QJsonObject{{QStringLiteral("next"), next}}));
    if (writeOut(true, true))
        m_file.close();
}

bool CaptureRecorder::writeRaw(const char *data, std::size_t len)
{
    errno = 0;
    const qint64 n = m_file.write(data, qint64(len));
    const int writeErrno = errno;
    if (n > 0) {
        m_fileBytes += n;
        m_bytesWritten.add(std::uint64_t(n));
    }
    if (n != qint64(len)) {
        // A write cut short (a full disk, a file-size limit) is no error to QFile, which then
        // says "Unknown error": the system's own reason is clearer.
        const QString why = m_file.error() == QFileDevice::NoError && writeErrno != 0 ? qt_error_string(writeErrno)
                                                                                      : m_file.errorString();
        failed(QStringLiteral("cannot write the capture file %1: %2")
                   .arg(QDir::toNativeSeparators(m_file.fileName()), why));
        return false;
    }
    return true;
}

bool CaptureRecorder::writeOut(bool flush, bool end)
{
    if (!m_config.compress) {
        if (!m_text.empty() && !writeRaw(m_text.data(), m_text.size()))
            return false;
        m_text.clear();
        m_recorded.add(m_pending);
        m_pending = 0;
        m_unflushed = false;
        return true;
    }
    ZSTD_inBuffer in{m_text.data(), m_text.size(), 0};
    const ZSTD_EndDirective mode = end ? ZSTD_e_end : flush ? ZSTD_e_flush : ZSTD_e_continue;
    for (;;) {
        ZSTD_outBuffer out{m_out.data(), m_out.size(), 0};
        const std::size_t remaining = ZSTD_compressStream2(m_zstd, &out, &in, mode);
        if (ZSTD_isError(remaining)) {
            failed(QStringLiteral("cannot compress the capture: %1")
                       .arg(QString::fromLatin1(ZSTD_getErrorName(remaining))));
            return false;
        }
        if (out.pos > 0 && !writeRaw(m_out.data(), out.pos))
            return false;
        if (mode == ZSTD_e_continue ? in.pos == in.size : remaining == 0)
            break;
    }
    m_text.clear();
    if (flush || end) {
        m_recorded.add(m_pending);
        m_pending = 0;
        m_unflushed = false;
    }
    return true;
}

void CaptureRecorder::failed(const QString &error)
{
    setError(error);
    m_errors.add();
    // What was formatted but never confirmed on disk is lost: counted, never claimed recorded.
    m_lostDrops.add(m_pending);
    m_pending = 0;
    m_text.clear();
    m_unflushed = false;
    if (m_file.isOpen())
        m_file.close();
    if (m_zstd)
        ZSTD_CCtx_reset(m_zstd, ZSTD_reset_session_only);
    m_retryAtMs = m_nowMs + kRetryMs;
}

} // namespace streamscope
