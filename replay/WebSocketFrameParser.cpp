#include "WebSocketFrameParser.h"

#include "WebSocketWire.h"

namespace streamscope::replay {

WebSocketFrameParser::Status WebSocketFrameParser::fail(quint16 code)
{
    m_errorCode = code;
    m_buffer.clear();
    return Status::Error;
}

WebSocketFrameParser::Status WebSocketFrameParser::next(Message &message)
{
    while (m_errorCode == 0) {
        if (m_buffer.size() < 2)
            return Status::NeedMore;
        const auto *p = reinterpret_cast<const quint8 *>(m_buffer.constData());
        const bool fin = p[0] & kFin;
        const quint8 rsv = p[0] & kRsvBits;
        const quint8 opcode = p[0] & kOpcodeBits;
        const bool masked = p[1] & kMask;
        quint64 length = p[1] & kLengthBits;
        qsizetype headerSize = 2;
        if (length == kLength16Marker) {
            if (m_buffer.size() < 4)
                return Status::NeedMore;
            length = (quint64(p[2]) << 8) | p[3];
            headerSize = 4;
        } else if (length == kLength64Marker) {
            if (m_buffer.size() < 10)
                return Status::NeedMore;
            length = 0;
            for (int k = 0; k < 8; ++k)
                length = (length << 8) | p[2 + k];
            headerSize = 10;
        }
        // No extension is negotiated, so a reserved bit is an error; so is an unmasked
        // client frame.
        if (rsv != 0 || !masked)
            return fail(kCloseProtocolError);
        const bool control = opcode & kOpControlBit;
        if (control && (!fin || length > kMaxInlineLength))
            return fail(kCloseProtocolError);
        if (length > quint64(m_maxMessageSize))
            return fail(kCloseTooBig);
        const qsizetype frameSize = headerSize + kMaskKeySize + qsizetype(length);
        if (m_buffer.size() < frameSize)
            return Status::NeedMore;

        const quint8 *mask = p + headerSize;
        QByteArray payload(qsizetype(length), Qt::Uninitialized);
        for (qsizetype k = 0; k < qsizetype(length); ++k)
            payload[k] = char(p[headerSize + kMaskKeySize + k] ^ mask[k % kMaskKeySize]);
        m_buffer.remove(0, frameSize);

        switch (opcode) {
        case kOpContinuation:
            if (m_fragmentKind == Kind::None)
                return fail(kCloseProtocolError);
            m_fragments.append(payload);
            if (m_fragments.size() > m_maxMessageSize)
                return fail(kCloseTooBig);
            if (fin) {
                message.kind = m_fragmentKind;
                message.payload = m_fragments;
                m_fragments.clear();
                m_fragmentKind = Kind::None;
                return Status::Message;
            }
            continue;
        case kOpText:
        case kOpBinary:
            if (m_fragmentKind != Kind::None)
                return fail(kCloseProtocolError);
            if (!fin) {
                m_fragmentKind = opcode == kOpText ? Kind::Text : Kind::Binary;
                m_fragments = payload;
                continue;
            }
            message.kind = opcode == kOpText ? Kind::Text : Kind::Binary;
            message.payload = payload;
            return Status::Message;
        case kOpClose:
            // A close payload is empty or starts with a two-byte code (RFC 6455 §5.5.1).
            if (payload.size() == 1)
                return fail(kCloseProtocolError);
            message.kind = Kind::Close;
            message.closeCode =
                payload.size() >= 2 ? quint16((quint8(payload[0]) << 8) | quint8(payload[1])) : kCloseNoStatus;
            message.payload = payload.mid(2);
            return Status::Message;
        case kOpPing:
            message.kind = Kind::Ping;
            message.payload = payload;
            return Status::Message;
        case kOpPong:
            message.kind = Kind::Pong;
            message.payload = payload;
            return Status::Message;
        default: return fail(kCloseProtocolError);
        }
    }
    return Status::Error;
}

} // namespace streamscope::replay
