#pragma once

// Reads the frames a websocket server sends (RFC 6455 §5) as bytes arrive, in any split, and
// hands each complete data message to its handler as a view in the worker's ReceiveBuffer,
// with its padding, so that the decoder parses it where it lies and text is never converted.
//
// The socket's bytes are read into the receive buffer (prepare(), then parse()). A message that
// lies whole in one read is handed where it is: a fragmented one is joined in place (each
// continuation's payload moved down over the frame header before it), so no byte is copied.
// A message cut by the end of a read is kept in the reader's own buffer until it is complete,
// and is then copied once into the receive buffer behind the read. Several messages of one
// read stay valid side by side until the next read (each view has its own pointer and size;
// the decoder puts back what it writes past a message), which lets a later change hand them
// as a batch.
//
// Everything a client must refuse is refused, with the close code to send back (§7.4.1):
//   1002: a masked frame (§5.1), RSV bits without an extension, a reserved opcode, a
//         continuation without a message or a new message inside one, a fragmented or
//         over-125-byte control frame, a length with its top bit set or not in its shortest
//         form, a one-byte close payload, a close code no peer may send;
//   1007: text (a message, or a close reason) that is not UTF-8, checked with simdjson's
//         validator fragment by fragment (a character cut between fragments is joined first);
//   1009: a message longer than the stream's maximum, refused at the header that announces it.
// Pings and pongs are reported between the fragments of a message as they come; a close
// frame ends the reading.
//
// Thread contract: one per connection, used on its worker thread with that worker's buffer.

#include "protocol/ReceiveBuffer.h"

#include <QtCore/QByteArray>
#include <QtCore/QString>

#include <string>

namespace streamscope {

class WebSocketFrameReader {
public:
    class Handler {
    public:
        // A complete text or binary message, padded in the receive buffer, valid during the
        // call. Returns false when the reading must stop (the connection was dropped).
        virtual bool onMessage(const MessageView &message, bool binary) = 0;
        // A ping's payload (at most 125 bytes), valid during the call.
        virtual void onPing(const char *payload, qsizetype len) = 0;
        virtual void onPong() = 0;

    protected:
        ~Handler() = default;
    };

    enum class Status : quint8 {
        Unknown = 0,
        Ok,      // everything read was handled; more may come
        Stopped, // a handler returned false
        Closed,  // the server's close frame came: closeCode(), closeReason()
        Failed,  // the server broke the protocol: errorCode(), errorText()
    };

    WebSocketFrameReader(ReceiveBuffer &buffer, qsizetype maxMessageBytes);

    // Room for `bytes` more bytes from the socket in the receive buffer, behind what the reader
    // carried over from the last read (part of a frame header or of a control frame); write
    // them there, then call parse().
    char *prepare(qsizetype bytes);
    // Reads the `bytes` written at prepare()'s pointer. After Closed or Failed nothing more is
    // read (the same status again).
    Status parse(qsizetype bytes, Handler &handler);

    // After Closed: the server's code (1005 when its frame had none) and reason (UTF-8).
    quint16 closeCode() const { return m_closeCode; }
    const QByteArray &closeReason() const { return m_closeReason; }
    // After Failed: the code to close with (1002, 1007, 1009) and what the server did.
    quint16 errorCode() const { return m_errorCode; }
    const QString &errorText() const { return m_errorText; }

    // Bytes received that are not handed on yet: a frame cut by a read, a message not complete.
    qsizetype pendingBytes() const { return m_carryBytes + qsizetype(m_partial.size()); }
    // For a new connection: forgets everything (keeps the memory of a small partial buffer).
    void reset();

private:
    // Where the message in progress is being joined.
    enum class Joined : quint8 { Nowhere = 0, InRead, InPartial };

    Status fail(quint16 code, const QString &text);
    // Checks the first two bytes of a header against the state; returns false on failure.
    bool checkStart(quint8 b0, quint8 b1);
    // The message's payload bytes that arrived with this frame (at `at` in the read).
    void appendPayload(char *base, qsizetype at, qsizetype len);
    // The current data frame is complete: validates text, hands a final message.
    Status endDataFrame(char *&base, qsizetype readEnd, Handler &handler);
    Status controlFrame(quint8 opcode, const char *payload, qsizetype len, Handler &handler);
    bool validateText(const char *message, qsizetype len, bool final);
    void clearMessage();

    ReceiveBuffer &m_buffer;
    const qsizetype m_maxMessageBytes;

    // The start of a frame cut by the last read: a header, or a control frame (at most 2 + 125
    // bytes; a masked frame, whose header is longer, is refused at its first two bytes).
    static constexpr qsizetype kMaxCarry = 2 + 125;
    char m_carry[kMaxCarry];
    qsizetype m_carryBytes = 0;
    std::string m_partial;        // a message cut by a read, joined here
    quint64 m_frameRemaining = 0; // payload bytes of the current data frame still to come
    bool m_frameFin = false;
    quint8 m_messageOpcode = 0; // text or binary while a message is in progress, else 0
    Joined m_joined = Joined::Nowhere;
    qsizetype m_messageStart = 0;   // InRead: the message's offset in the read
    qsizetype m_messageBytes = 0;   // payload bytes joined so far
    qsizetype m_validatedBytes = 0; // of a text message: bytes known to be UTF-8
    Status m_end = Status::Ok;      // Closed or Failed once the reading ended

    quint16 m_closeCode = 0;
    QByteArray m_closeReason;
    quint16 m_errorCode = 0;
    QString m_errorText;
};

} // namespace streamscope
