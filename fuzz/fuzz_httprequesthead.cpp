// The metrics endpoint's request handling (app/HttpRequestHead.*, driven as app/HttpConnection
// drives it): any client that reaches the port sends these bytes.
//
// Input: two bytes for the limits (0: the product's 8 KB request line and 16 KB headers, else
// small limits, so that 414 and 431 are reached with short inputs), one byte that seeds the
// splits, then what the client sends, possibly several pipelined requests. The bytes arrive
// whole, in random splits and a byte at a time; each time, as HttpConnection does, at most one
// head's worth is taken into the buffer and parsed, a complete head is removed and the next
// one parsed, and an error ends the connection. Checked:
// - the three arrivals give the same answers (a byte at a time answers as whole);
// - an answer, once given, is final: more bytes after it never change it;
// - a full buffer (one head's worth and a byte) is always answered, never left waiting;
// - a complete head is well formed (token method, path from '/', no query, HTTP/1.0 or 1.1)
//   and an error maps to 400, 414, 431 or 505.

#include "FuzzSupport.h"
#include "HttpRequestHead.h"

#include <QtCore/QList>

#include <algorithm>

using namespace streamscope::app;
using streamscope::fuzz::InputReader;
using streamscope::fuzz::SplitRng;

namespace {

bool sameResult(const HeadParseResult &a, const HeadParseResult &b)
{
    return a.status == b.status && a.consumed == b.consumed && a.head.method == b.head.method
        && a.head.path == b.head.path && a.head.versionMinor == b.head.versionMinor
        && a.head.connection == b.head.connection && a.head.hasBody == b.head.hasBody;
}

void checkAnswer(const HeadParseResult &r, qsizetype buffered)
{
    if (r.status == HeadParseStatus::Complete) {
        FUZZ_CHECK(r.consumed > 0 && r.consumed <= buffered, "a head is consumed from the buffer");
        FUZZ_CHECK(!r.head.method.isEmpty() && r.head.path.startsWith('/') && !r.head.path.contains('?'),
                   "a complete head has a method and a path");
        FUZZ_CHECK(r.head.versionMinor == 0 || r.head.versionMinor == 1, "a complete head is HTTP/1.0 or 1.1");
        return;
    }
    FUZZ_CHECK(r.status != HeadParseStatus::Unknown, "every answer has a status");
    const int code = statusCode(r.status);
    FUZZ_CHECK(code == 400 || code == 414 || code == 431 || code == 505, "an error has its status code");
    FUZZ_CHECK(code != 400 || r.status == HeadParseStatus::BadRequest, "only a bad request is 400");
}

// One connection: the client's bytes arrive in reads of nextSize() bytes.
template<typename NextSize>
QList<HeadParseResult> serve(const QByteArray &sent, const HttpServerLimits &limits, NextSize &&nextSize)
{
    const qsizetype maxHeadBytes = limits.maxRequestLineBytes + limits.maxHeaderBytes + 4;
    QList<HeadParseResult> answers;
    QByteArray buffer;
    qsizetype arrived = 0; // bytes the client has sent so far
    qsizetype taken = 0;   // of those, the bytes read into the buffer
    for (;;) {
        if (arrived < sent.size())
            arrived += std::min(nextSize(), sent.size() - arrived);
        else if (taken == arrived)
            return answers; // the client has sent everything and waits
        // HttpConnection::readAndParse: at most one head's worth and a byte in the buffer.
        bool parseAgain = true;
        while (parseAgain) {
            parseAgain = false;
            if (buffer.size() <= maxHeadBytes && arrived > taken) {
                const qsizetype n = std::min(arrived - taken, maxHeadBytes + 1 - buffer.size());
                buffer += sent.mid(taken, n);
                taken += n;
            }
            const HeadParseResult r = parseRequestHead(buffer, limits);
            if (r.status == HeadParseStatus::NeedMore) {
                FUZZ_CHECK(buffer.size() <= maxHeadBytes, "a full buffer is always answered");
                break;
            }
            checkAnswer(r, buffer.size());
            // Final: the buffer with everything the client sends after it answers the same.
            const QByteArray more = buffer + sent.mid(taken);
            FUZZ_CHECK(sameResult(parseRequestHead(more, limits), r), "an answer does not change with more bytes");
            answers.append(r);
            if (r.status != HeadParseStatus::Complete)
                return answers; // answered with an error, then closed
            buffer.remove(0, r.consumed);
            parseAgain = true; // a pipelined request, answered after this one
        }
    }
}

bool sameAnswers(const QList<HeadParseResult> &a, const QList<HeadParseResult> &b)
{
    if (a.size() != b.size())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i)
        if (!sameResult(a[i], b[i]))
            return false;
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    InputReader in(data, size);
    HttpServerLimits limits;
    if (const std::uint8_t b = in.byte())
        limits.maxRequestLineBytes = qsizetype(b) * 2;
    if (const std::uint8_t b = in.byte())
        limits.maxHeaderBytes = qsizetype(b) * 4;
    SplitRng rng(in.byte() * 0x100000001ULL + size);
    const QByteArray sent(in.rest(), qsizetype(in.restSize()));

    const auto whole = serve(sent, limits, [&] { return sent.size(); });
    const auto split = serve(sent, limits, [&] {
        const std::size_t r = rng.below(16);
        return qsizetype(r < 12 ? r : rng.below(std::size_t(sent.size()) + 1));
    });
    FUZZ_CHECK(sameAnswers(split, whole), "random splits are answered as the whole");
    if (sent.size() <= 2048)
        FUZZ_CHECK(sameAnswers(serve(sent, limits, [] { return qsizetype(1); }), whole),
                   "a byte at a time is answered as the whole");
    return 0;
}
