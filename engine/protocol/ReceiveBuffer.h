#pragma once

// The seam between the transports and the decoder: one worker's receive buffer, and the view
// of a message that a transport hands on.
//
// ReceiveBuffer is a padded byte area owned by the worker (EngineWorker) and shared by all its
// streams: a transport writes a message into it once (QWebSocket's UTF-16 text is encoded
// straight into it), or a message that arrived elsewhere (a line in the line transport's read
// buffer) is copied into it when the decoder needs it. simdjson then parses it in place. It
// grows to the largest message seen and never shrinks, so the steady state allocates nothing.
//
// MessageView is one message's bytes wherever they are: a pointer, how many bytes are there,
// how long the whole message is (more, when only its head was converted), and whether the
// bytes lie in a receive buffer with kPadding bytes after them that a reader may use. A view
// never assumes that it starts the buffer, so a transport that writes several messages into
// it at once (our own websocket framing, which may hand a batch) can hand a view of each.
//
// Thread contract: one ReceiveBuffer per worker thread, used by that thread only. A view is
// valid until the buffer is written again (the next message).

#include <QtCore/QtGlobal>

#include <algorithm>
#include <cstring>
#include <string>

namespace streamscope {

struct MessageView {
    const char *data = nullptr;
    qsizetype size = 0;         // bytes at `data`
    qsizetype messageBytes = 0; // the whole message's size: more than `size` when only its head is here
    // In a ReceiveBuffer, with ReceiveBuffer::kPadding bytes after `size` that a reader may
    // read and write for a moment (MessageDecoder does, and puts them back): simdjson parses
    // such a view in place. Otherwise the bytes belong to someone else and are only read.
    bool padded = false;

    bool isWhole() const { return size == messageBytes; }
    // The bytes of a padded view, which its reader may write (they are the buffer's).
    char *writable() const
    {
        Q_ASSERT(padded);
        return const_cast<char *>(data);
    }
};

class ReceiveBuffer {
public:
    // At least simdjson::SIMDJSON_PADDING (MessageDecoder.cpp checks).
    static constexpr std::size_t kPadding = 64;

    // Room for `len` bytes and the padding after them at data(); what was written before is
    // kept when it grows.
    Q_ALWAYS_INLINE char *reserve(std::size_t len)
    {
        const std::size_t need = len + kPadding;
        if (need > m_data.size())
            m_data.resize(std::max(need, m_data.size() * 2));
        return m_data.data();
    }
    char *data() { return m_data.data(); }
    std::size_t allocated() const { return m_data.size(); }

    // A padded view of `len` bytes copied from `data` (which must not lie in this buffer).
    MessageView copy(const char *data, qsizetype len)
    {
        char *at = reserve(std::size_t(len));
        std::memcpy(at, data, std::size_t(len));
        return MessageView{at, len, len, true};
    }

private:
    std::string m_data = std::string(64 * 1024, '\0');
};

} // namespace streamscope
