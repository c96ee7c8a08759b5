#pragma once

// One complete message as a transport hands it to its sink, in one call: bytes that are in
// memory already (a line from LineFramer, a binary websocket message), bytes our own websocket
// framing wrote into the worker's ReceiveBuffer (NativeWebSocketTransport), or QWebSocket's UTF-16
// text, which is converted into the worker's ReceiveBuffer only as far as the reader asks.
// The reader decides what it needs and asks once: head(n) for a message of which the first n
// bytes may be enough (a raw stream's head scan, a parsed stream's prefix), whole() when it
// needs every byte (a recording, a response it keeps), padded() when the decoder needs them in
// the buffer. A long ASCII text of which only the head is asked for is converted that far and
// only checked to be ASCII beyond, so its size in bytes is still exact; asking for the whole
// message afterwards converts only the rest.
//
// Thread contract: made on the transport's worker thread, on the stack, for the duration of
// one MessageSink::onMessage() call; neither it nor its views outlive the call.

#include "Utf8Encode.h"
#include "protocol/ReceiveBuffer.h"

#include <QtCore/QStringView>

namespace streamscope {

class ReceivedMessage {
public:
    // Bytes already in memory (not in `buffer`): padded() copies them there.
    ReceivedMessage(const char *data, qsizetype len, bool binary, ReceiveBuffer &buffer)
        : m_buffer(buffer)
        , m_view{data, len, len, false}
        , m_length(len)
        , m_binary(binary)
        , m_state(State::Whole)
    {
    }
    // Bytes a transport wrote into `buffer` itself, with their padding (our own websocket
    // framing's): every view is this one, nothing is converted or copied.
    ReceivedMessage(const MessageView &view, bool binary, ReceiveBuffer &buffer)
        : m_buffer(buffer)
        , m_view(view)
        , m_length(view.size)
        , m_binary(binary)
        , m_state(State::Whole)
    {
        Q_ASSERT(view.padded && view.isWhole());
    }
    // UTF-16 text, encoded into `buffer` as UTF-8 when asked for.
    ReceivedMessage(QStringView text, ReceiveBuffer &buffer, QStringEncoder &encoder)
        : m_buffer(buffer)
        , m_encoder(&encoder)
        , m_units(reinterpret_cast<const char16_t *>(text.utf16()))
        , m_length(text.size())
    {
    }
    ReceivedMessage(const ReceivedMessage &) = delete;
    ReceivedMessage &operator=(const ReceivedMessage &) = delete;

    bool binary() const { return m_binary; }
    // The message's length as it came: bytes, or the UTF-16 code units of text (its UTF-8 is
    // at least as long, and as long when it is ASCII).
    qsizetype length() const { return m_length; }

    // At least the first `bytes` bytes of the message: its head, in the buffer, when it is text
    // longer than that and ASCII (the view's messageBytes is then its exact size); otherwise the
    // whole message.
    // The view returned by each of these is the message's one view: valid until the next call.
    const MessageView &head(qsizetype bytes)
    {
        if (m_state == State::Nothing && bytes > 0 && bytes < m_length)
            convertHead(bytes);
        else if (m_state != State::Head || bytes > m_view.size)
            return whole();
        return m_view;
    }
    // Every byte of the message (text converted into the buffer; other bytes where they are).
    // Inlined with its conversion into the reader, as padded() is: a call here cost ~27
    // instructions a message (callgrind).
    Q_ALWAYS_INLINE const MessageView &whole()
    {
        if (m_state != State::Whole)
            convertRest();
        return m_view;
    }
    // Every byte, in the buffer with its padding (bytes from elsewhere copied there once).
    Q_ALWAYS_INLINE const MessageView &padded()
    {
        if (m_state != State::Whole)
            convertRest();
        if (!m_view.padded)
            m_view = m_buffer.copy(m_view.data, m_view.size);
        return m_view;
    }

private:
    void convertHead(qsizetype bytes); // ReceivedMessage.cpp: the rare path
    // The text from where it is converted up to on, as UTF-8 after what is there (all of it,
    // for most messages): inlined, for it runs for every text message.
    Q_ALWAYS_INLINE void convertRest()
    {
        char *start = m_buffer.reserve(std::size_t(m_length) * 3);
        // What is converted already is ASCII (narrowAscii stops at the first other unit), so
        // the rest starts at the same offset in bytes as in units.
        char *end =
            encodeUtf8(*m_encoder, QStringView(m_units + m_converted, m_length - m_converted), start + m_converted);
        m_converted = m_length;
        const qsizetype size = end - start;
        m_view = MessageView{start, size, size, true};
        m_state = State::Whole;
    }

    // How much of the message m_view holds.
    enum class State : quint8 { Nothing = 0, Head, Whole };

    ReceiveBuffer &m_buffer;
    QStringEncoder *m_encoder = nullptr;
    const char16_t *m_units = nullptr; // the text; null for bytes
    MessageView m_view;                // what is converted (or the bytes themselves)
    qsizetype m_length = 0;
    bool m_binary = false;
    State m_state = State::Nothing;
    qsizetype m_converted = 0; // code units of the text converted so far
};

} // namespace streamscope
