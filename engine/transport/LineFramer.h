#pragma once

// Splits a byte stream into CRLF-terminated messages (a bare LF also ends one). Each
// complete message is delivered as soon as its terminator has arrived, whatever the read
// boundaries: part of a message, many in one read, a message larger than any read, or "\r"
// at the end of one read and "\n" at the start of the next. Messages that lie whole inside
// one read are delivered straight from the caller's buffer, without a copy; only a message
// split across reads is assembled in the framer's own buffer. Empty lines are skipped.
//
// Thread contract: one instance per connection, used by one thread.

#include <QtCore/QByteArray>

#include <cstring>

namespace streamscope {

class LineFramer {
public:
    explicit LineFramer(qsizetype maxMessageBytes = 16 * 1024 * 1024)
        : m_maxMessageBytes(maxMessageBytes)
    {
    }

    enum class Status { Ok, Oversized };

    // Calls onMessage(const char *data, qsizetype len) for each complete message, in order.
    // Returns Oversized (and drops the partial message) when a message grows past the limit;
    // the caller should then close the connection.
    template<typename OnMessage>
    Status feed(const char *data, qsizetype len, OnMessage &&onMessage)
    {
        const char *p = data;
        const char *const end = data + len;
        if (!m_partial.isEmpty()) {
            const char *nl = static_cast<const char *>(memchr(p, '\n', std::size_t(end - p)));
            if (!nl) {
                if (m_partial.size() + (end - p) > m_maxMessageBytes + 1)
                    return dropOversized();
                m_partial.append(p, end - p);
                return Status::Ok;
            }
            if (m_partial.size() + (nl - p) > m_maxMessageBytes + 1)
                return dropOversized();
            m_partial.append(p, nl - p);
            qsizetype n = m_partial.size();
            if (n > 0 && m_partial[n - 1] == '\r')
                --n;
            if (n > m_maxMessageBytes) // the limit above allows for a '\r' that may not be there
                return dropOversized();
            if (n > 0)
                onMessage(m_partial.constData(), n);
            m_partial.resize(0);
            p = nl + 1;
        }
        while (p < end) {
            const char *nl = static_cast<const char *>(memchr(p, '\n', std::size_t(end - p)));
            if (!nl)
                break;
            qsizetype n = nl - p;
            if (n > 0 && p[n - 1] == '\r')
                --n;
            if (n > m_maxMessageBytes)
                return dropOversized();
            if (n > 0)
                onMessage(p, n);
            p = nl + 1;
        }
        if (p < end) {
            if (end - p > m_maxMessageBytes + 1)
                return dropOversized();
            m_partial.append(p, end - p);
        }
        return Status::Ok;
    }

    void reset() { m_partial.resize(0); }
    qsizetype bufferedBytes() const { return m_partial.size(); }

private:
    Status dropOversized()
    {
        m_partial.clear();
        return Status::Oversized;
    }

    QByteArray m_partial;
    qsizetype m_maxMessageBytes;
};

} // namespace streamscope
