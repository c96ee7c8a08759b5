// WebSocketFrameParser (replay/WebSocketFrameParser.*): the replay server's reader of
// what a websocket client sends (masked frames, fragments, control frames), used by the demo,
// the tests and the benchmark against clients it does not control.
//
// Input: one byte for the message limit (0: the server's 1 MiB, else 4..1020 bytes, so that
// 1009 is reached with short inputs), one byte that seeds the splits, then the client's bytes.
// They are appended whole, in random splits and a byte at a time (up to 1 KiB), reading every message after
// each append as ReplayConnection does; all three must give the same messages and end the same
// way. Also checked: messages within their limits (data up to the limit, control frames up to
// 125 bytes), an error is 1002 or 1009 and stays an error.

#include "FuzzSupport.h"
#include "WebSocketFrameParser.h"

#include <QtCore/QList>

#include <algorithm>

using streamscope::fuzz::InputReader;
using streamscope::fuzz::SplitRng;
using streamscope::replay::WebSocketFrameParser;
using Kind = WebSocketFrameParser::Kind;
using Status = WebSocketFrameParser::Status;

namespace {

struct Parsed {
    QList<WebSocketFrameParser::Message> messages;
    quint16 errorCode = 0;

    bool operator==(const Parsed &o) const
    {
        if (errorCode != o.errorCode || messages.size() != o.messages.size())
            return false;
        for (qsizetype i = 0; i < messages.size(); ++i) {
            const auto &a = messages[i];
            const auto &b = o.messages[i];
            if (a.kind != b.kind || a.payload != b.payload || a.closeCode != b.closeCode)
                return false;
        }
        return true;
    }
};

template<typename NextSize>
Parsed parse(const QByteArray &bytes, qsizetype limit, NextSize &&nextSize)
{
    Parsed out;
    WebSocketFrameParser parser(limit);
    qsizetype pos = 0;
    while (pos < bytes.size()) {
        const qsizetype len = std::min(nextSize(), bytes.size() - pos);
        parser.append(bytes.mid(pos, len));
        pos += len;
        for (;;) {
            WebSocketFrameParser::Message message;
            const Status status = parser.next(message);
            if (status == Status::NeedMore)
                break;
            if (status == Status::Error) {
                out.errorCode = parser.errorCode();
                FUZZ_CHECK(out.errorCode == 1002 || out.errorCode == 1009, "an error answers 1002 or 1009");
                FUZZ_CHECK(parser.next(message) == Status::Error, "an error stays an error");
                return out;
            }
            FUZZ_CHECK(message.kind != Kind::None, "a message has a kind");
            if (message.kind == Kind::Text || message.kind == Kind::Binary)
                FUZZ_CHECK(message.payload.size() <= limit, "a data message is within the limit");
            else
                FUZZ_CHECK(message.payload.size() <= (message.kind == Kind::Close ? 123 : 125),
                           "a control frame is within 125 bytes");
            out.messages.append(message);
        }
    }
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    InputReader in(data, size);
    const std::uint8_t limitByte = in.byte();
    const qsizetype limit = limitByte == 0 ? 1024 * 1024 : qsizetype(limitByte) * 4;
    SplitRng rng(in.byte() * 0x100000001ULL + size);
    const QByteArray bytes(in.rest(), qsizetype(in.restSize()));

    const Parsed whole = parse(bytes, limit, [&] { return bytes.size(); });
    const Parsed split = parse(bytes, limit, [&] {
        const std::size_t r = rng.below(16);
        return qsizetype(r < 12 ? r : rng.below(std::size_t(bytes.size()) + 1));
    });
    FUZZ_CHECK(split == whole, "random splits parse as the whole");
    if (bytes.size() <= 1024)
        FUZZ_CHECK(parse(bytes, limit, [] { return qsizetype(1); }) == whole, "a byte at a time parses as the whole");
    return 0;
}
