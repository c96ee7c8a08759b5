#pragma once

#include <QByteArray>
#include <QtGlobal>

namespace streamscope::replay {

// Splits the bytes a websocket client sends (masked frames, RFC 6455 section 5) into
// messages: it unmasks, joins fragments and separates control frames. Only the low-rate
// client direction goes through it, so it favours plainness over speed.
// Not thread-safe; one per connection, used on the connection's thread.
class WebSocketFrameParser {
public:
    enum class Kind { None = 0, Text, Binary, Close, Ping, Pong };
    struct Message {
        Kind kind = Kind::None;
        QByteArray payload; // for Close: the reason, without the code
        quint16 closeCode = 0;
    };
    enum class Status { NeedMore = 0, Message, Error };

    explicit WebSocketFrameParser(qsizetype maxMessageSize = 1024 * 1024)
        : m_maxMessageSize(maxMessageSize)
    {
    }

    void append(const QByteArray &bytes) { m_buffer.append(bytes); }
    // The next complete message, if the buffer holds one. On Error, errorCode() is the
    // close code to answer with (1002 protocol error, 1009 too big) and parsing stops.
    Status next(Message &message);
    quint16 errorCode() const { return m_errorCode; }

private:
    Status fail(quint16 code);

    QByteArray m_buffer;
    QByteArray m_fragments;
    Kind m_fragmentKind = Kind::None;
    qsizetype m_maxMessageSize;
    quint16 m_errorCode = 0;
};

} // namespace streamscope::replay
