// WebSocketFrameReader (engine/transport/WebSocketFrameReader.*): the native websocket
// transport's reader of what a server sends, straight into the worker's receive buffer.
//
// Input: one byte for the message limit (0: 1 MiB, else 1..255 × 16 bytes, so that 1009 is
// reached with short inputs), one byte that seeds the splits, then the server's bytes. They
// are read whole, in random splits (each read written into the buffer as the socket's bytes
// are) and a byte at a time (up to 1 KiB); all three must hand the same messages, pings and
// pongs and end the same way. Also checked: every message is padded in the receive buffer,
// data within the limit, text valid UTF-8 by Qt's own decoder, pings within 125 bytes; the
// reader never keeps more than the limit plus a control frame; an end is a close with a code
// a peer may send (or 1005), or an error with 1002, 1007 or 1009, and stays.

#include "FuzzSupport.h"
#include "protocol/ReceiveBuffer.h"
#include "transport/WebSocketClientWire.h"
#include "transport/WebSocketFrameReader.h"

#include <QtCore/QByteArray>
#include <QtCore/QList>
#include <QtCore/QStringDecoder>

#include <algorithm>
#include <cstring>

using streamscope::MessageView;
using streamscope::ReceiveBuffer;
using streamscope::WebSocketFrameReader;
using streamscope::fuzz::InputReader;
using streamscope::fuzz::SplitRng;
using Status = WebSocketFrameReader::Status;

namespace {

bool isUtf8(const char *data, qsizetype len)
{
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    const QString text = decoder(QByteArrayView(data, len));
    return !decoder.hasError();
}

struct Read {
    QList<QByteArray> events;
    Status end = Status::Ok;
    quint16 code = 0;

    bool operator==(const Read &o) const { return events == o.events && end == o.end && code == o.code; }
};

class Recorder final : public WebSocketFrameReader::Handler {
public:
    Recorder(ReceiveBuffer &buffer, qsizetype limit, Read &out)
        : m_buffer(buffer)
        , m_limit(limit)
        , m_out(out)
    {
    }
    bool onMessage(const MessageView &m, bool binary) override
    {
        const char *begin = m_buffer.data();
        FUZZ_CHECK(m.padded && m.isWhole(), "a message is whole and padded");
        FUZZ_CHECK(m.data >= begin
                       && m.data + m.size + qsizetype(ReceiveBuffer::kPadding) <= begin + m_buffer.allocated(),
                   "a message lies in the receive buffer with its padding");
        FUZZ_CHECK(m.size <= m_limit, "a message is within the limit");
        if (!binary)
            FUZZ_CHECK(isUtf8(m.data, m.size), "text is UTF-8");
        m_out.events.append((binary ? QByteArray("b:") : QByteArray("t:")) + QByteArray(m.data, m.size));
        return true;
    }
    void onPing(const char *payload, qsizetype len) override
    {
        FUZZ_CHECK(len <= streamscope::ws::kMaxControlPayload, "a ping is within 125 bytes");
        m_out.events.append("ping:" + QByteArray(payload, len));
    }
    void onPong() override { m_out.events.append("pong"); }

private:
    ReceiveBuffer &m_buffer;
    qsizetype m_limit;
    Read &m_out;
};

template<typename NextSize>
Read read(const QByteArray &bytes, qsizetype limit, NextSize &&nextSize)
{
    Read out;
    ReceiveBuffer buffer;
    WebSocketFrameReader reader(buffer, limit);
    Recorder recorder(buffer, limit, out);
    qsizetype pos = 0;
    while (pos < bytes.size()) {
        const qsizetype n = std::min(nextSize(), bytes.size() - pos);
        char *at = reader.prepare(n);
        std::memcpy(at, bytes.constData() + pos, std::size_t(n));
        pos += n;
        const Status s = reader.parse(n, recorder);
        FUZZ_CHECK(reader.pendingBytes() <= limit + 2 + streamscope::ws::kMaxControlPayload,
                   "the reader keeps at most the limit and a control frame");
        if (s == Status::Closed) {
            FUZZ_CHECK(streamscope::ws::isValidWireCloseCode(reader.closeCode())
                           || reader.closeCode() == streamscope::ws::kCloseNoStatus,
                       "a close has a code a peer may send, or none");
            FUZZ_CHECK(isUtf8(reader.closeReason().constData(), reader.closeReason().size()),
                       "a close reason is UTF-8");
            out.end = s;
            out.code = reader.closeCode();
            FUZZ_CHECK(reader.parse(0, recorder) == Status::Closed, "a close stays a close");
            return out;
        }
        if (s == Status::Failed) {
            const quint16 code = reader.errorCode();
            FUZZ_CHECK(code == 1002 || code == 1007 || code == 1009, "an error answers 1002, 1007 or 1009");
            FUZZ_CHECK(!reader.errorText().isEmpty(), "an error says what was wrong");
            FUZZ_CHECK(reader.parse(0, recorder) == Status::Failed, "an error stays an error");
            out.end = s;
            out.code = code;
            return out;
        }
        FUZZ_CHECK(s == Status::Ok, "a read ends Ok, Closed or Failed");
    }
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    InputReader in(data, size);
    const std::uint8_t limitByte = in.byte();
    const qsizetype limit = limitByte == 0 ? 1024 * 1024 : qsizetype(limitByte) * 16;
    SplitRng rng(in.byte() * 0x100000001ULL + size);
    const QByteArray bytes(in.rest(), qsizetype(in.restSize()));

    const Read whole = read(bytes, limit, [&] { return bytes.size(); });
    const Read split = read(bytes, limit, [&] {
        const std::size_t r = rng.below(16);
        return qsizetype(r < 12 ? r + 1 : rng.below(std::size_t(bytes.size()) + 1) + 1);
    });
    FUZZ_CHECK(split == whole, "random splits read as the whole");
    if (bytes.size() <= 1024)
        FUZZ_CHECK(read(bytes, limit, [] { return qsizetype(1); }) == whole, "a byte at a time reads as the whole");
    return 0;
}
