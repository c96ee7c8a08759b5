// ReplayConnection's data stream: the scenario's frames, patched and written in batches, as fast
// as the socket takes them or paced by a token bucket, and the misbehaviours a run asks for.

#include "ReplayConnection.h"

#include "PaceTicker.h"

#include "ReplayServer.h"
#include "ScenarioPool.h"
#include "ScenarioRest.h"
#include "WebSocketWire.h"

#include <QTcpSocket>
#include <QTimer>

#include <algorithm>
#include <chrono>
#include <cstring>

namespace streamscope::replay {

namespace {

// The socket is kept between these two marks ahead of the kernel: enough that the firehose
// never waits for us, little enough that a stop or a misbehaviour acts at once.
constexpr qint64 kLowWaterBytes = 1024 * 1024;
constexpr qint64 kHighWaterBytes = 4 * 1024 * 1024;
constexpr qsizetype kBatchBytes = 256 * 1024;
constexpr quint64 kMaxPaceBurst = 100000; // messages per tick after a long backlog

// The pace timer's interval: a tenth of the spacing, at least 1 ms. The bucket sends what is due
// at each tick, so a message leaves at most a tenth of its spacing late, and 10,000 slow
// connections (the benchmark's scale run) do not ask the event loop for 10 million ticks a second.
int paceTickMs(double rate)
{
    return int(std::clamp(100.0 / rate, 1.0, 1000.0));
}

quint64 nowNs()
{
    using namespace std::chrono;
    return quint64(duration_cast<nanoseconds>(system_clock::now().time_since_epoch()).count());
}

} // namespace

quint64 ReplayConnection::venueNowMs() const
{
    return replay::venueNowMs(m_options.clockOffsetMs);
}

bool ReplayConnection::setupStream(const ReplayOptions &options, QString *error)
{
    m_options = options;
    m_pool = ScenarioPool::get(options.scenario);
    m_frames = FrameSet::get(m_pool, options.protocol, options.stamp);
    if (!m_pool || !m_frames || m_frames->frames().empty()) {
        *error = QStringLiteral("unknown scenario \"%1\"").arg(options.scenario);
        return false;
    }
    m_target = options.effectiveCount();
    m_numbered = m_pool->messages().front().instrumentOffsets[0] >= 0;
    m_badJson = options.misbehaviour() == ReplayOptions::Misbehaviour::BadJson && options.after;
    switch (options.misbehaviour()) {
    case ReplayOptions::Misbehaviour::Silent: m_event = Event::Silent; break;
    case ReplayOptions::Misbehaviour::Drop: m_event = Event::Drop; break;
    case ReplayOptions::Misbehaviour::BadFrame: m_event = Event::BadFrame; break;
    case ReplayOptions::Misbehaviour::InvalidUtf8: m_event = Event::InvalidUtf8; break;
    case ReplayOptions::Misbehaviour::Oversized: m_event = Event::Oversized; break;
    case ReplayOptions::Misbehaviour::Gap: m_event = Event::Gap; break;
    case ReplayOptions::Misbehaviour::Shutdown: m_event = Event::Shutdown; break;
    default: m_event = Event::None; break;
    }
    m_eventArmed = m_event != Event::None;
    if ((m_event == Event::Drop || m_event == Event::Shutdown) && !options.dropEvery && m_server) {
        const QString key = m_webSocket ? m_requestTarget : QStringLiteral("line");
        m_eventArmed = m_server->claimDrop(m_event == Event::Shutdown ? QStringLiteral("shutdown:") + key : key);
    }
    return true;
}

void ReplayConnection::beginData()
{
    if (m_dataStarted || m_options.idle || m_closing)
        return;
    m_dataStarted = true;
    m_dataClock.start();
    if (m_options.market && m_server) {
        // Join the market where it is now: the events before were someone else's.
        const quint64 start = std::min(m_server->marketPosition(m_options.scenario), m_target);
        m_sent = start;
        m_poolIndex = start;
        m_depthSeq = start;
    }
    if (m_options.rate > 0) {
        startPaceTicks();
        resetPacing();
    }
    pump();
}

void ReplayConnection::resetPacing()
{
    m_paceClock.start();
    m_paceBase = m_sent;
}

bool ReplayConnection::canSend() const
{
    return m_socket && m_dataStarted && !m_halted && !m_serverSilent && !m_eventSilent && !m_dropPending && !m_closing;
}

quint64 ReplayConnection::pacedAllowance() const
{
    // Token bucket from the elapsed time since the pacing began: the long-run rate is exact
    // whatever the timer's jitter. The first message goes at once.
    const double due = m_options.rate * double(m_paceClock.nsecsElapsed()) / 1e9;
    return m_paceBase + 1 + quint64(due);
}

void ReplayConnection::onPaceTick()
{
    pump();
}

void ReplayConnection::startPaceTicks()
{
    if (m_paceHandle < 0 && m_server)
        m_paceHandle = m_server->paceTicker().add(paceTickMs(m_options.rate), [this] { onPaceTick(); });
}

void ReplayConnection::stopPaceTicks()
{
    if (m_paceHandle >= 0 && m_server)
        m_server->paceTicker().remove(m_paceHandle);
    m_paceHandle = -1;
}

void ReplayConnection::onBytesWritten()
{
    if (m_dropPending) {
        maybeFinishDrop();
        return;
    }
    if (m_socket && m_socket->bytesToWrite() < kLowWaterBytes)
        pump();
}

void ReplayConnection::pump()
{
    while (canSend()) {
        if (m_eventArmed && m_sent >= m_options.after) {
            fireEvent();
            continue;
        }
        quint64 limit = m_target;
        if (m_eventArmed)
            limit = std::min(limit, m_options.after);
        if (m_options.rate > 0) {
            // After a long stall (a client that does not read) restart the bucket rather
            // than release an unbounded burst.
            if (pacedAllowance() > m_sent + kMaxPaceBurst)
                resetPacing();
            limit = std::min(limit, pacedAllowance());
        }
        if (m_sent >= limit || m_socket->bytesToWrite() >= kHighWaterBytes)
            break;
        writeBatch(limit);
    }
    if (m_sent >= m_target)
        stopPaceTicks();
}

const FrameSet::Frame &ReplayConnection::pickFrame(quint64 index)
{
    const std::vector<FrameSet::Frame> &frames = m_frames->frames();
    if (m_badJson && (index + 1) % m_options.after == 0)
        return m_frames->badJson();
    if (m_pool->isChangeStream()) {
        if (index == 0)
            return m_resubscribed ? m_frames->resubDelta() : m_frames->subImage();
        if ((index + 1) % ScenarioPool::kHeartbeatEvery == 0)
            return m_frames->heartbeat();
        if (m_options.imageAfter && index == m_options.imageAfter)
            return m_frames->subImage();
        if (m_options.status503Count && index >= m_options.status503After
            && index < m_options.status503After + m_options.status503Count)
            return m_frames->status503();
        if (m_options.segmentEvery) {
            const quint64 k = index % m_options.segmentEvery;
            if (k + 3 >= m_options.segmentEvery)
                return m_frames->segment(int(k + 3 - m_options.segmentEvery));
        }
        if (m_options.conflatedEvery && (index + 1) % m_options.conflatedEvery == 0)
            return m_frames->conflated();
    }
    if (m_numbered) // each instrument walks the pool in order: all of one round share a message
        return frames[size_t(m_depthSeq / m_options.instruments % frames.size())];
    return frames[size_t(m_poolIndex++ % frames.size())];
}

void ReplayConnection::writeBatch(quint64 limit)
{
    // One output buffer per batch, handed to the socket by reference; frames are copied in
    // and patched there. Nothing is allocated per message.
    // Sized for what is due (a paced connection's message or two), at most a batch.
    const qsizetype frameMax = m_frames->maxFrameSize();
    const quint64 due = limit > m_sent ? limit - m_sent : 0;
    const qsizetype room = due >= quint64(kBatchBytes / std::max<qsizetype>(frameMax, 1)) + 1
        ? kBatchBytes
        : std::min<qsizetype>(kBatchBytes, qsizetype(due) * frameMax);
    QByteArray batch(room + frameMax, Qt::Uninitialized);
    char *out = batch.data();
    qsizetype used = 0;
    // A venue falling behind stamps ever older event times (lag_ms_per_s).
    const quint64 lagMs = m_options.lagMsPerS * quint64(m_dataClock.isValid() ? m_dataClock.elapsed() : 0) / 1000;
    FrameSet::writeNumber(m_nowMsText, venueNowMs() - lagMs, ScenarioPool::kTimeMsWidth, '0');
    scenario::writeTimeText(m_nowTimeText, venueNowMs() - lagMs);
    const quint64 first = m_sent;
    qint64 depthIndex = -1; // the batch's last depth diff: its pool index and its u
    quint64 depthLast = 0;
    while (m_sent < limit && used < kBatchBytes) {
        const FrameSet::Frame &frame = pickFrame(m_sent);
        char *dst = out + used;
        std::memcpy(dst, m_frames->frameData(frame), size_t(frame.size));
        if (frame.timeMsOffset >= 0)
            std::memcpy(dst + frame.timeMsOffset, m_nowMsText, ScenarioPool::kTimeMsWidth);
        if (frame.timeTextOffset >= 0)
            std::memcpy(dst + frame.timeTextOffset, m_nowTimeText, ScenarioPool::kTimeTextWidth);
        if (frame.stampOffset >= 0)
            FrameSet::writeNumber(dst + frame.stampOffset, nowNs(), FrameSet::kStampWidth, '0');
        if (frame.instrumentOffsets[0] >= 0) {
            const quint64 instrument = m_options.firstInstrument + m_depthSeq % m_options.instruments;
            FrameSet::writeNumber(dst + frame.instrumentOffsets[0], instrument, ScenarioPool::kInstrumentDigits, '0');
            FrameSet::writeNumber(dst + frame.instrumentOffsets[1], instrument, ScenarioPool::kInstrumentDigits, '0');
        }
        if (frame.firstSeqOffset >= 0) {
            // Each instrument its own sequence: a round of every instrument moves them all on by one.
            const quint64 round = m_numbered ? m_depthSeq / m_options.instruments : m_depthSeq;
            const quint64 firstSeq = ScenarioPool::kFirstSeq + round * (ScenarioPool::kSeqSpan + 1);
            FrameSet::writeNumber(dst + frame.firstSeqOffset, firstSeq, ScenarioPool::kSeqWidth, ' ');
            FrameSet::writeNumber(dst + frame.lastSeqOffset, firstSeq + ScenarioPool::kSeqSpan, ScenarioPool::kSeqWidth,
                                  ' ');
            ++m_depthSeq;
            depthIndex = qint64((m_poolIndex - 1) % m_frames->frames().size());
            depthLast = firstSeq + ScenarioPool::kSeqSpan;
        }
        if (frame.clkOffset >= 0)
            FrameSet::writeNumber(dst + frame.clkOffset, ++m_clk, ScenarioPool::kClkWidth, '0');
        if (frame.tradeIdOffset >= 0)
            FrameSet::writeNumber(dst + frame.tradeIdOffset, ScenarioPool::kFirstTradeId + m_sent,
                                  ScenarioPool::kSeqWidth, ' ');
        if (frame.heartbeatMsOffset >= 0)
            FrameSet::writeNumber(dst + frame.heartbeatMsOffset, m_heartbeatMs, ScenarioPool::kHeartbeatWidth, ' ');
        used += frame.size;
        ++m_sent;
    }
    batch.truncate(used);
    m_socket->write(batch);
    if (m_server) {
        m_server->addSent(m_sent - first);
        if (m_numbered)
            m_server->noteDepthRange(m_pool->name(), m_options.firstInstrument, m_options.instruments, m_depthSeq);
        else if (depthIndex >= 0 && !m_pool->bookSymbol().isEmpty())
            m_server->noteDepth(m_pool->name(), depthIndex, depthLast);
        if (m_options.market)
            m_server->advanceMarket(m_options.scenario, m_sent);
    }
}

void ReplayConnection::fireEvent()
{
    m_eventArmed = false;
    switch (m_event) {
    case Event::Silent:
        m_eventSilent = true;
        if (m_options.silentMs > 0) {
            QTimer::singleShot(std::chrono::milliseconds(m_options.silentMs), this,
                               &ReplayConnection::resumeFromSilence);
        }
        break;
    case Event::Drop:
        m_dropPending = true;
        maybeFinishDrop();
        break;
    case Event::BadFrame:
        if (m_webSocket) {
            // RSV1 with no extension negotiated: a protocol error (1002).
            m_socket->write(FrameSet::webSocketFrame(QByteArrayLiteral("{\"rsv1\":true}"), kFin | kRsv1 | kOpText));
            m_halted = true;
        }
        break;
    case Event::InvalidUtf8:
        if (m_webSocket) {
            // 0xC3 0x28 is not a UTF-8 sequence, 0xFF never occurs in UTF-8 (1007).
            m_socket->write(FrameSet::webSocketFrame(QByteArrayLiteral("{\"s\":\"\xC3\x28\xFF\"}")));
            m_halted = true;
        }
        break;
    case Event::Oversized: {
        const qsizetype size = qsizetype(std::min<quint64>(m_options.oversizedBytes, 1ull << 30));
        // Valid JSON of exactly `size` bytes when size allows it; only its size is wrong.
        const QByteArray head = "{\"stream\":\"oversized\",\"data\":\"";
        QByteArray payload;
        if (size >= head.size() + 2)
            payload = head + QByteArray(size - head.size() - 2, 'x') + "\"}";
        else
            payload = QByteArray(size, 'x');
        m_socket->write(FrameSet::wireMessage(payload, m_options.protocol));
        ++m_sent;
        if (m_server)
            m_server->addSent(1);
        break;
    }
    case Event::Gap: m_depthSeq += m_options.gapCount; break;
    case Event::Shutdown: {
        // Binance announces a maintenance close, keeps serving for a while, then closes.
        const QByteArray notice = R"({"stream":"!serverShutdown","data":{"e":"serverShutdown","E":)"
            + QByteArray::number(venueNowMs()) + "}}";
        m_socket->write(FrameSet::wireMessage(notice, m_options.protocol));
        QTimer::singleShot(std::chrono::milliseconds(m_options.shutdownGraceMs), this, [this] {
            if (m_webSocket)
                sendCloseAndFinish(kCloseGoingAway);
            else if (m_socket)
                m_socket->disconnectFromHost();
        });
        break;
    }
    case Event::None: break;
    }
}

void ReplayConnection::startAgeLimit()
{
    if (m_options.maxAgeMs == 0)
        return;
    // Binance closes every connection at 24 h; scaled down for tests.
    QTimer::singleShot(std::chrono::milliseconds(m_options.maxAgeMs), this, [this] {
        if (m_webSocket)
            sendCloseAndFinish(kCloseNormal);
        else if (m_socket)
            m_socket->disconnectFromHost();
    });
}

void ReplayConnection::sendPerStream(const QStringList &streams)
{
    // One event per stream, so that a client can tell every subscription delivered.
    for (const QString &name : streams) {
        const QByteArray symbol = name.section(QLatin1Char('@'), 0, 0).toUpper().toUtf8();
        const QByteArray json = R"({"stream":")" + name.toUtf8() + R"(","data":{"e":"aggTrade","E":)"
            + QByteArray::number(venueNowMs()) + R"(,"s":")" + symbol + R"(","a":)"
            + QByteArray::number(++m_perStreamSerial) + "}}";
        sendControl(json);
    }
    if (m_server)
        m_server->addSent(quint64(streams.size()));
}

void ReplayConnection::resumeFromSilence()
{
    m_eventSilent = false;
    resetPacing();
    if (m_options.rate > 0 && m_sent < m_target)
        startPaceTicks();
    pump();
}

void ReplayConnection::maybeFinishDrop()
{
    // Let the messages before the drop reach the client, then cut the connection without a
    // close frame, as a network failure would.
    // Queued: aborting a QSslSocket from inside its own bytesWritten signal crashes it.
    if (m_socket && m_socket->bytesToWrite() == 0) {
        QMetaObject::invokeMethod(
            this,
            [this] {
                if (m_socket)
                    m_socket->abort();
            },
            Qt::QueuedConnection);
    }
}

} // namespace streamscope::replay
