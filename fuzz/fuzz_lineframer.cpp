// LineFramer (engine/transport/LineFramer.h): the CRLF framing of a tcp/tls line stream,
// whose bytes come from the peer and whose read boundaries fall anywhere.
//
// Input: one byte for the message limit (0: the product's 16 MiB, else 1..255 bytes, so that
// the oversized paths are reached with short inputs), one byte that seeds the splits, then
// the stream. The stream is framed whole, in random splits (empty reads included, each read
// in a buffer of its own exact size so that ASan sees a read past it), and a byte at a time (up to 1 KiB);
// all three must give what a plain reference framing gives: the same messages in the same
// order, and Oversized exactly when a line is over the limit.

#include "FuzzSupport.h"
#include "transport/LineFramer.h"

#include <QtCore/QByteArray>
#include <QtCore/QList>

#include <algorithm>
#include <cstring>
#include <memory>

using streamscope::LineFramer;
using streamscope::fuzz::InputReader;
using streamscope::fuzz::SplitRng;

namespace {

struct Framed {
    QList<QByteArray> messages;
    bool oversized = false;
};

// Split on LF, drop one CR before it, skip empty lines; the first line over the limit, or an
// unterminated tail over limit + 1 (room for a CR whose LF has not come), ends the stream.
Framed reference(const QByteArray &stream, qsizetype limit)
{
    Framed out;
    qsizetype start = 0;
    for (qsizetype i = 0; i < stream.size(); ++i) {
        if (stream.at(i) != '\n')
            continue;
        QByteArray line = stream.mid(start, i - start);
        if (line.endsWith('\r'))
            line.chop(1);
        if (line.size() > limit) {
            out.oversized = true;
            return out;
        }
        if (!line.isEmpty())
            out.messages.append(line);
        start = i + 1;
    }
    out.oversized = stream.size() - start > limit + 1;
    return out;
}

// Feeds the stream in reads of the given sizes; stops at Oversized, as a connection closes.
template<typename NextSize>
Framed frame(const QByteArray &stream, qsizetype limit, NextSize &&nextSize)
{
    Framed out;
    LineFramer framer(limit);
    qsizetype pos = 0;
    const auto onMessage = [&](const char *data, qsizetype len) {
        FUZZ_CHECK(len > 0 && len <= limit, "a message is never empty nor over the limit");
        FUZZ_CHECK(std::memchr(data, '\n', std::size_t(len)) == nullptr, "a message holds no LF");
        out.messages.append(QByteArray(data, len));
    };
    while (pos < stream.size()) {
        const qsizetype len = std::min(nextSize(), stream.size() - pos);
        // A buffer of the read's own size: a framer reading past it is an ASan report.
        std::unique_ptr<char[]> read(new char[std::size_t(len)]);
        std::memcpy(read.get(), stream.constData() + pos, std::size_t(len));
        pos += len;
        if (framer.feed(read.get(), len, onMessage) == LineFramer::Status::Oversized) {
            FUZZ_CHECK(framer.bufferedBytes() == 0, "an oversized message is dropped");
            out.oversized = true;
            return out;
        }
        FUZZ_CHECK(framer.bufferedBytes() <= limit + 1, "the framer buffers at most one message and a CR");
    }
    return out;
}

void expectSame(const Framed &got, const Framed &want, const char *how)
{
    FUZZ_CHECK(got.oversized == want.oversized, how);
    FUZZ_CHECK(got.messages == want.messages, how);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    InputReader in(data, size);
    const std::uint8_t limitByte = in.byte();
    const qsizetype limit = limitByte == 0 ? 16 * 1024 * 1024 : qsizetype(limitByte);
    SplitRng rng(in.byte() * 0x100000001ULL + size);
    const QByteArray stream(in.rest(), qsizetype(in.restSize()));

    const Framed want = reference(stream, limit);
    expectSame(frame(stream, limit, [&] { return stream.size(); }), want, "fed whole");
    // Mostly short reads, some empty, now and then a long one.
    expectSame(frame(stream, limit,
                     [&] {
                         const std::size_t r = rng.below(16);
                         return qsizetype(r < 12 ? r : rng.below(std::size_t(stream.size()) + 1));
                     }),
               want, "fed in random splits");
    if (stream.size() <= 1024)
        expectSame(frame(stream, limit, [] { return qsizetype(1); }), want, "fed a byte at a time");
    return 0;
}
