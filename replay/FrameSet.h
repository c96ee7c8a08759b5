#pragma once

#include "ReplayOptions.h"
#include "ScenarioKit.h"
#include "WebSocketWire.h"

#include <QByteArray>

#include <memory>
#include <vector>

namespace streamscope::replay {

class ScenarioPool;
using scenario::PoolMessage;

// The messages of a pool serialized once for the wire: for websocket, the server frame
// header followed by the payload (a text frame, never masked); for the line protocol, the
// payload followed by "\r\n". All frames live in one buffer; a sender copies a frame into its
// output batch and patches the fixed-width fields there (send time, sequence, clk), so the
// firehose path allocates nothing per message.
// Immutable and shared: get() builds each variant once per process and is thread-safe.
class FrameSet {
public:
    // Offsets are relative to the start of the frame; -1 when the frame has no such field.
    struct Frame {
        qsizetype offset = 0;
        qsizetype size = 0;
        int stampOffset = -1;    // 19 digits: ns since the epoch
        int timeMsOffset = -1;   // 13 digits: ms since the epoch
        int timeTextOffset = -1; // ScenarioPool::kTimeTextWidth characters: the same as RFC 3339 text
        int firstSeqOffset = -1; // ScenarioPool::kSeqWidth characters
        int lastSeqOffset = -1;
        int clkOffset = -1;                  // ScenarioPool::kClkWidth digits
        int tradeIdOffset = -1;              // ScenarioPool::kSeqWidth characters
        int heartbeatMsOffset = -1;          // ScenarioPool::kHeartbeatWidth characters
        int instrumentOffsets[2] = {-1, -1}; // ScenarioPool::kInstrumentDigits digits
    };
    static constexpr int kStampWidth = 19;

    static std::shared_ptr<const FrameSet> get(const std::shared_ptr<const ScenarioPool> &pool,
                                               ReplayOptions::Protocol protocol, bool stamp);

    const QByteArray &data() const { return m_data; }
    const std::vector<Frame> &frames() const { return m_frames; }
    const Frame &heartbeat() const { return m_specials[0]; }
    const Frame &subImage() const { return m_specials[1]; }
    const Frame &resubDelta() const { return m_specials[2]; }
    const Frame &badJson() const { return m_specials[3]; }
    const Frame &status503() const { return m_specials[4]; }
    const Frame &conflated() const { return m_specials[5]; }
    const Frame &segment(int part) const { return m_specials[6 + part]; }
    qsizetype maxFrameSize() const { return m_maxFrameSize; }
    const char *frameData(const Frame &frame) const { return m_data.constData() + frame.offset; }

    // One server-to-client websocket frame (never masked): firstByte is FIN|RSV|opcode.
    static QByteArray webSocketFrame(const QByteArray &payload, quint8 firstByte = kFin | kOpText);
    static QByteArray webSocketHeader(quint64 payloadSize, quint8 firstByte = kFin | kOpText);
    // The payload as one message of the protocol (a text frame or a CRLF line).
    static QByteArray wireMessage(const QByteArray &payload, ReplayOptions::Protocol protocol);
    // Writes value as exactly width characters, right aligned, padded with pad.
    static void writeNumber(char *dst, quint64 value, int width, char pad);

private:
    FrameSet(const ScenarioPool &pool, ReplayOptions::Protocol protocol, bool stamp);
    Frame append(const PoolMessage &message, ReplayOptions::Protocol protocol, bool stamp);

    QByteArray m_data;
    std::vector<Frame> m_frames;
    Frame m_specials[9];
    qsizetype m_maxFrameSize = 0;
};

} // namespace streamscope::replay
