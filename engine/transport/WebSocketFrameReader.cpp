#include "WebSocketFrameReader.h"

#include "WebSocketClientWire.h"
#include "protocol/Utf8Validator.h"

#include <QtCore/QtEndian>

#include <algorithm>
#include <cstring>

namespace streamscope {

namespace {
// A joined message's buffer keeps its memory for the next one up to this size, and gives back
// what a rare larger message took.
constexpr std::size_t kKeptPartialBytes = 1024 * 1024;
} // namespace

WebSocketFrameReader::WebSocketFrameReader(ReceiveBuffer &buffer, qsizetype maxMessageBytes)
    : m_buffer(buffer)
    , m_maxMessageBytes(maxMessageBytes)
{
}

void WebSocketFrameReader::reset()
{
    m_carryBytes = 0;
    clearMessage();
    m_frameRemaining = 0;
    m_frameFin = false;
    m_end = Status::Ok;
    m_closeCode = 0;
    m_closeReason.clear();
    m_errorCode = 0;
    m_errorText.clear();
}

void WebSocketFrameReader::clearMessage()
{
    m_messageOpcode = 0;
    m_joined = Joined::Nowhere;
    m_messageStart = 0;
    m_messageBytes = 0;
    m_validatedBytes = 0;
    if (m_partial.capacity() > kKeptPartialBytes)
        std::string().swap(m_partial);
    else
        m_partial.clear();
}

char *WebSocketFrameReader::prepare(qsizetype bytes)
{
    char *base = m_buffer.reserve(std::size_t(m_carryBytes + bytes));
    if (m_carryBytes > 0)
        std::memcpy(base, m_carry, std::size_t(m_carryBytes));
    return base + m_carryBytes;
}

WebSocketFrameReader::Status WebSocketFrameReader::fail(quint16 code, const QString &text)
{
    m_end = Status::Failed;
    m_errorCode = code;
    m_errorText = text;
    clearMessage();
    m_carryBytes = 0;
    m_frameRemaining = 0;
    return m_end;
}

bool WebSocketFrameReader::checkStart(quint8 b0, quint8 b1)
{
    if (b1 & ws::kMaskBit) {
        fail(ws::kCloseProtocolError, QStringLiteral("the server sent a masked frame (a server must not mask)"));
        return false;
    }
    if (b0 & ws::kRsvBits) {
        fail(ws::kCloseProtocolError,
             QStringLiteral("the server set RSV bits (0x%1) without a negotiated extension")
                 .arg(b0 & ws::kRsvBits, 2, 16, QLatin1Char('0')));
        return false;
    }
    const quint8 opcode = b0 & ws::kOpcodeBits;
    switch (opcode) {
    case ws::kOpContinuation:
        if (m_messageOpcode == 0) {
            fail(ws::kCloseProtocolError, QStringLiteral("the server sent a continuation frame without a message"));
            return false;
        }
        return true;
    case ws::kOpText:
    case ws::kOpBinary:
        if (m_messageOpcode != 0) {
            fail(ws::kCloseProtocolError, QStringLiteral("the server started a new message inside a fragmented one"));
            return false;
        }
        return true;
    case ws::kOpClose:
    case ws::kOpPing:
    case ws::kOpPong:
        if (!(b0 & ws::kFin)) {
            fail(ws::kCloseProtocolError, QStringLiteral("the server sent a fragmented control frame"));
            return false;
        }
        if ((b1 & ws::kLengthBits) > ws::kMaxControlPayload) {
            fail(ws::kCloseProtocolError, QStringLiteral("the server sent a control frame over 125 bytes"));
            return false;
        }
        return true;
    default:
        fail(ws::kCloseProtocolError,
             QStringLiteral("the server sent a frame with the reserved opcode 0x%1").arg(opcode, 1, 16));
        return false;
    }
}

void WebSocketFrameReader::appendPayload(char *base, qsizetype at, qsizetype len)
{
    if (len <= 0)
        return;
    if (m_joined == Joined::InRead) {
        // Moved down over the headers between the fragments; the first frame's is in place.
        char *to = base + m_messageStart + m_messageBytes;
        if (to != base + at)
            std::memmove(to, base + at, std::size_t(len));
    } else {
        m_partial.append(base + at, std::size_t(len));
    }
    m_messageBytes += len;
}

bool WebSocketFrameReader::validateText(const char *message, qsizetype len, bool final)
{
    const qsizetype upTo = final ? len : completeUtf8Prefix(message, m_validatedBytes, len);
    if (upTo > m_validatedBytes && !isValidUtf8(message + m_validatedBytes, upTo - m_validatedBytes))
        return false;
    m_validatedBytes = upTo;
    return true;
}

WebSocketFrameReader::Status WebSocketFrameReader::endDataFrame(char *&base, qsizetype readEnd, Handler &handler)
{
    const bool inRead = m_joined == Joined::InRead;
    if (m_messageOpcode == ws::kOpText
        && !validateText(inRead ? base + m_messageStart : m_partial.data(), m_messageBytes, m_frameFin))
        return fail(ws::kCloseInvalidData, QStringLiteral("the server sent text that is not UTF-8"));
    if (!m_frameFin)
        return Status::Ok;
    MessageView view;
    if (inRead) {
        view = MessageView{base + m_messageStart, m_messageBytes, m_messageBytes, true};
    } else {
        // Behind everything this read holds, which stays where it is (reserve() keeps it).
        base = m_buffer.reserve(std::size_t(readEnd) + m_partial.size());
        char *at = base + readEnd;
        std::memcpy(at, m_partial.data(), m_partial.size());
        view = MessageView{at, m_messageBytes, m_messageBytes, true};
    }
    const bool binary = m_messageOpcode == ws::kOpBinary;
    clearMessage();
    return handler.onMessage(view, binary) ? Status::Ok : Status::Stopped;
}

WebSocketFrameReader::Status WebSocketFrameReader::controlFrame(quint8 opcode, const char *payload, qsizetype len,
                                                                Handler &handler)
{
    switch (opcode) {
    case ws::kOpPing: handler.onPing(payload, len); return Status::Ok;
    case ws::kOpPong: handler.onPong(); return Status::Ok;
    default: // close
        break;
    }
    if (len == 1)
        return fail(ws::kCloseProtocolError, QStringLiteral("the server sent a close frame with a one-byte payload"));
    if (len == 0) {
        m_closeCode = ws::kCloseNoStatus;
    } else {
        const quint16 code = qFromBigEndian<quint16>(payload);
        if (!ws::isValidWireCloseCode(code))
            return fail(ws::kCloseProtocolError,
                        QStringLiteral("the server sent close code %1, which no peer may send").arg(code));
        if (!isValidUtf8(payload + 2, len - 2))
            return fail(ws::kCloseInvalidData, QStringLiteral("the server sent a close reason that is not UTF-8"));
        m_closeCode = code;
        m_closeReason = QByteArray(payload + 2, len - 2);
    }
    m_carryBytes = 0;
    m_end = Status::Closed;
    return m_end;
}

WebSocketFrameReader::Status WebSocketFrameReader::parse(qsizetype bytes, Handler &handler)
{
    if (m_end != Status::Ok)
        return m_end;
    char *base = m_buffer.data();
    const qsizetype end = m_carryBytes + bytes;
    m_carryBytes = 0;
    qsizetype pos = 0;
    for (;;) {
        if (m_frameRemaining > 0) { // a data frame's payload that the last read cut
            const qsizetype take = qsizetype(std::min<quint64>(m_frameRemaining, quint64(end - pos)));
            appendPayload(base, pos, take);
            pos += take;
            m_frameRemaining -= quint64(take);
            if (m_frameRemaining > 0)
                break;
            if (const Status s = endDataFrame(base, end, handler); s != Status::Ok)
                return s;
            continue;
        }
        if (end - pos < 2)
            break;
        const auto b0 = quint8(base[pos]);
        const auto b1 = quint8(base[pos + 1]);
        if (!checkStart(b0, b1))
            return m_end;
        const quint8 opcode = b0 & ws::kOpcodeBits;
        qsizetype headerBytes = 2;
        quint64 length = b1 & ws::kLengthBits;
        if (length == ws::kLength16) {
            headerBytes = 4;
            if (end - pos < headerBytes)
                break;
            length = qFromBigEndian<quint16>(base + pos + 2);
            if (length < ws::kLength16)
                return fail(ws::kCloseProtocolError,
                            QStringLiteral("the server sent a frame length not in its shortest form"));
        } else if (length == ws::kLength64) {
            headerBytes = 10;
            if (end - pos < headerBytes)
                break;
            length = qFromBigEndian<quint64>(base + pos + 2);
            if (length >> 63)
                return fail(ws::kCloseProtocolError,
                            QStringLiteral("the server sent a frame length with its top bit set"));
            if (length <= 0xffff)
                return fail(ws::kCloseProtocolError,
                            QStringLiteral("the server sent a frame length not in its shortest form"));
        }
        if (ws::isControl(opcode)) {
            if (end - pos < headerBytes + qsizetype(length))
                break; // carried over whole: at most 127 bytes
            const Status s = controlFrame(opcode, base + pos + headerBytes, qsizetype(length), handler);
            pos += headerBytes + qsizetype(length);
            if (s != Status::Ok)
                return s;
            continue;
        }
        // Neither sum overflows: the length has its top bit clear, the bytes so far are bounded.
        if (quint64(m_messageBytes) + length > quint64(m_maxMessageBytes))
            return fail(ws::kCloseTooBig,
                        QStringLiteral("the server sent a message over %1 bytes (this stream's "
                                       "max_message_bytes)")
                            .arg(m_maxMessageBytes));
        pos += headerBytes;
        if (opcode != ws::kOpContinuation) {
            m_messageOpcode = opcode;
            m_joined = Joined::InRead;
            m_messageStart = pos;
        }
        m_frameFin = b0 & ws::kFin;
        const qsizetype take = qsizetype(std::min<quint64>(length, quint64(end - pos)));
        appendPayload(base, pos, take);
        pos += take;
        m_frameRemaining = length - quint64(take);
        if (m_frameRemaining > 0)
            break;
        if (const Status s = endDataFrame(base, end, handler); s != Status::Ok)
            return s;
    }
    // The read ends inside a message: what it holds of it moves to the reader's own buffer.
    if (m_joined == Joined::InRead) {
        m_partial.assign(base + m_messageStart, std::size_t(m_messageBytes));
        m_joined = Joined::InPartial;
    }
    m_carryBytes = end - pos;
    Q_ASSERT(m_carryBytes <= kMaxCarry);
    if (m_carryBytes > 0)
        std::memmove(m_carry, base + pos, std::size_t(m_carryBytes));
    return Status::Ok;
}

} // namespace streamscope
