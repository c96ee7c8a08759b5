#include "FrameSet.h"

#include "ScenarioPool.h"
#include "WebSocketWire.h"

#include <QHash>
#include <QMutex>
#include <QMutexLocker>

#include <cstring>

namespace streamscope::replay {

namespace {
// `{"ts":` + 19 digits + `,` replaces the opening brace of the message.
constexpr int kStampPrefixSize = 6 + FrameSet::kStampWidth + 1;
// Two header bytes and a 64-bit length at most: the server never sends a mask key.
constexpr int kMaxHeaderSize = 2 + 8;
} // namespace

std::shared_ptr<const FrameSet> FrameSet::get(const std::shared_ptr<const ScenarioPool> &pool,
                                              ReplayOptions::Protocol protocol, bool stamp)
{
    if (!pool)
        return nullptr;
    static QMutex mutex;
    // Never destroyed: a server thread may still hold the mutex while the process exits, and
    // the frames live until then anyway.
    static auto &cache = *new QHash<QString, std::shared_ptr<const FrameSet>>;
    const QString key = pool->name() + QLatin1Char('/') + QString::number(int(protocol)) + QLatin1Char('/')
        + QString::number(int(stamp));
    QMutexLocker lock(&mutex);
    auto &slot = cache[key];
    if (!slot)
        slot.reset(new FrameSet(*pool, protocol, stamp));
    return slot;
}

FrameSet::FrameSet(const ScenarioPool &pool, ReplayOptions::Protocol protocol, bool stamp)
{
    qsizetype total = 0;
    for (const PoolMessage &m : pool.messages())
        total += m.json.size() + kMaxHeaderSize + kStampPrefixSize;
    m_data.reserve(total + 4096);
    m_frames.reserve(pool.messages().size());
    for (const PoolMessage &m : pool.messages())
        m_frames.push_back(append(m, protocol, stamp));
    const PoolMessage *specials[9] = {&pool.heartbeat(), &pool.subImage(),  &pool.resubDelta(),
                                      &pool.badJson(),   &pool.status503(), &pool.conflated(),
                                      &pool.segment(0),  &pool.segment(1),  &pool.segment(2)};
    for (int k = 0; k < 9; ++k) {
        // The malformed message is never stamped: it must stay malformed, nothing more.
        m_specials[k] = specials[k]->json.isEmpty() ? Frame{} : append(*specials[k], protocol, stamp && k != 3);
    }
}

FrameSet::Frame FrameSet::append(const PoolMessage &message, ReplayOptions::Protocol protocol, bool stamp)
{
    QByteArray payload = message.json;
    int shift = 0;
    if (stamp && payload.startsWith('{')) {
        QByteArray prefix("{\"ts\":");
        prefix.append(QByteArray(kStampWidth, '0'));
        prefix.append(payload.size() > 2 ? "," : "");
        payload = prefix + payload.mid(1);
        shift = kStampPrefixSize - 1;
    }
    const QByteArray wire = wireMessage(payload, protocol);
    const int header = protocol == ReplayOptions::Protocol::WebSocket ? int(wire.size() - payload.size()) : 0;
    auto at = [&](int offset) { return offset < 0 ? -1 : offset + shift + header; };

    Frame frame;
    frame.offset = m_data.size();
    frame.size = wire.size();
    frame.stampOffset = shift ? header + 6 : -1;
    frame.timeMsOffset = at(message.timeMsOffset);
    frame.timeTextOffset = at(message.timeTextOffset);
    frame.firstSeqOffset = at(message.firstSeqOffset);
    frame.lastSeqOffset = at(message.lastSeqOffset);
    frame.clkOffset = at(message.clkOffset);
    frame.tradeIdOffset = at(message.tradeIdOffset);
    frame.heartbeatMsOffset = at(message.heartbeatMsOffset);
    frame.instrumentOffsets[0] = at(message.instrumentOffsets[0]);
    frame.instrumentOffsets[1] = at(message.instrumentOffsets[1]);
    m_data.append(wire);
    m_maxFrameSize = std::max(m_maxFrameSize, frame.size);
    return frame;
}

QByteArray FrameSet::webSocketHeader(quint64 payloadSize, quint8 firstByte)
{
    QByteArray header;
    header.append(char(firstByte));
    // The server never masks (RFC 6455 §5.3); the length is inline, or a marker followed by
    // 16 or 64 bits (§5.2).
    if (payloadSize <= kMaxInlineLength) {
        header.append(char(payloadSize));
    } else if (payloadSize <= kMaxLength16) {
        header.append(char(kLength16Marker));
        header.append(char(payloadSize >> 8));
        header.append(char(payloadSize & 0xff));
    } else {
        header.append(char(kLength64Marker));
        for (int shift = 56; shift >= 0; shift -= 8)
            header.append(char((payloadSize >> shift) & 0xff));
    }
    return header;
}

QByteArray FrameSet::webSocketFrame(const QByteArray &payload, quint8 firstByte)
{
    return webSocketHeader(quint64(payload.size()), firstByte) + payload;
}

QByteArray FrameSet::wireMessage(const QByteArray &payload, ReplayOptions::Protocol protocol)
{
    if (protocol == ReplayOptions::Protocol::WebSocket)
        return webSocketFrame(payload);
    return payload + QByteArrayLiteral("\r\n");
}

void FrameSet::writeNumber(char *dst, quint64 value, int width, char pad)
{
    for (int k = width - 1; k >= 0; --k) {
        if (value == 0 && k != width - 1) {
            std::memset(dst, pad, size_t(k + 1));
            return;
        }
        dst[k] = char('0' + value % 10);
        value /= 10;
    }
}

} // namespace streamscope::replay
