#include "WebSocketFrameParser.h"

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
        const bool fin = p[0] & 0x80;
        const quint8 rsv = p[0] & 0x70;
        const quint8 opcode = p[0] & 0x0f;
        const bool masked = p[1] & 0x80;
        quint64 length = p[1] & 0x7f;
        qsizetype headerSize = 2;
        if (length == 126) {
            if (m_buffer.size() < 4)
                return Status::NeedMore;
            length = (quint64(p[2]) << 8) | p[3];
            headerSize = 4;
        } else if (length == 127) {
            if (m_buffer.size() < 10)
                return Status::NeedMore;
            length = 0;
            for (int k = 0; k < 8; ++k)
                length = (length << 8) | p[2 + k];
            headerSize = 10;
        }
        if (rsv != 0 || !masked)
            return fail(1002);
        const bool control = opcode & 0x08;
        if (control && (!fin || length > 125))
            return fail(1002);
        if (length > quint64(m_maxMessageSize))
            return fail(1009);
        const qsizetype frameSize = headerSize + 4 + qsizetype(length);
        if (m_buffer.size() < frameSize)
            return Status::NeedMore;

        const quint8 *mask = p + headerSize;
        QByteArray payload(qsizetype(length), Qt::Uninitialized);
        for (qsizetype k = 0; k < qsizetype(length); ++k)
            payload[k] = char(p[headerSize + 4 + k] ^ mask[k % 4]);
        m_buffer.remove(0, frameSize);

        switch (opcode) {
        case 0x0: // continuation
            if (m_fragmentKind == Kind::None)
                return fail(1002);
            m_fragments.append(payload);
            if (m_fragments.size() > m_maxMessageSize)
                return fail(1009);
            if (fin) {
                message.kind = m_fragmentKind;
                message.payload = m_fragments;
                m_fragments.clear();
                m_fragmentKind = Kind::None;
                return Status::Message;
            }
            continue;
        case 0x1:
        case 0x2:
            if (m_fragmentKind != Kind::None)
                return fail(1002);
            if (!fin) {
                m_fragmentKind = opcode == 0x1 ? Kind::Text : Kind::Binary;
                m_fragments = payload;
                continue;
            }
            message.kind = opcode == 0x1 ? Kind::Text : Kind::Binary;
            message.payload = payload;
            return Status::Message;
        case 0x8:
            if (payload.size() == 1)
                return fail(1002);
            message.kind = Kind::Close;
            message.closeCode = payload.size() >= 2
                ? quint16((quint8(payload[0]) << 8) | quint8(payload[1]))
                : quint16(1005);
            message.payload = payload.mid(2);
            return Status::Message;
        case 0x9:
            message.kind = Kind::Ping;
            message.payload = payload;
            return Status::Message;
        case 0xA:
            message.kind = Kind::Pong;
            message.payload = payload;
            return Status::Message;
        default:
            return fail(1002);
        }
    }
    return Status::Error;
}

} // namespace streamscope::replay
