// CaptureReader (engine/io/CaptureReader): a capture file, plain or zstd, that may come from
// anyone (File → Open capture, `streamscope-replay --file`).
//
// Input: a mode byte, a line-limit byte, a seed byte, then the text. The mode says how the text
// becomes a file: as it is; as zstd frames, the text cut at random points into up to eight
// frames (some of them empty); or those frames cut short by a few bytes or with one byte
// changed. The file is read through InputFile as a user's would be, three ways: without a
// budget, in slices of random budgets (as the replay server reads, a turn of its event loop
// each), and again after a rewind. All three must agree line for line and on what went wrong
// (lines skipped, the first of them, cut short, the error); for a file that is whole, they must
// also agree with a reference split of the text: every line within the limit that parses,
// in order, the others counted, a last line without its end reported as cut short.

#include "CaptureReader.h"
#include "FuzzSupport.h"

#include <QtCore/QByteArray>
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QList>

#include <zstd.h>

#include <unistd.h>

using streamscope::capture::CaptureLine;
using streamscope::capture::CaptureReader;
using streamscope::capture::LineError;
using streamscope::fuzz::InputReader;
using streamscope::fuzz::SplitRng;

namespace {

enum Mode : std::uint8_t { kPlain = 0, kFrames, kFramesCut, kFramesFlipped, kModes };

struct Read {
    QList<QByteArray> lines; // kind, time and payload of each line, flattened
    quint64 malformed = 0;
    QString firstMalformed;
    bool truncated = false;
    QString error;
};

QByteArray flatten(const CaptureLine &line)
{
    return QByteArray::number(int(line.kind)) + ' ' + QByteArray::number(line.timeUs) + ' ' + line.payload;
}

// The file, or an empty path when it cannot be written (a full disk is no finding).
QString writeFile(const QByteArray &bytes)
{
    // A file is written for every input: in memory (/dev/shm) where there is such a folder,
    // three times faster than a disk; removed when the process ends.
    struct Scratch {
        QString path;
        ~Scratch() { QFile::remove(path); }
    };
    static const Scratch scratch{
        QDir(QFileInfo(QStringLiteral("/dev/shm")).isWritable() ? QStringLiteral("/dev/shm") : QDir::tempPath())
            .filePath(QStringLiteral("fuzz_capturereader-%1.ndjson").arg(::getpid()))};
    const QString &path = scratch.path;
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(bytes) != bytes.size())
        return QString();
    return path;
}

QByteArray zstdFrames(const QByteArray &text, SplitRng &rng)
{
    // One context for the process: a new one per input would cost more than the reading.
    static ZSTD_CCtx *const c = [] {
        ZSTD_CCtx *made = ZSTD_createCCtx();
        ZSTD_CCtx_setParameter(made, ZSTD_c_compressionLevel, 1);
        return made;
    }();
    QByteArray out;
    const int frames = 1 + int(rng.below(8));
    qsizetype pos = 0;
    for (int i = 0; i < frames; ++i) {
        const qsizetype len =
            i == frames - 1 ? text.size() - pos : qsizetype(rng.below(std::size_t(text.size() - pos) + 1));
        QByteArray frame(qsizetype(ZSTD_compressBound(std::size_t(len))), Qt::Uninitialized);
        const std::size_t n =
            ZSTD_compress2(c, frame.data(), std::size_t(frame.size()), text.constData() + pos, std::size_t(len));
        FUZZ_CHECK(!ZSTD_isError(n), "zstd compresses any text");
        out.append(frame.constData(), qsizetype(n));
        pos += len;
    }
    return out;
}

Read reference(const QByteArray &text, qint64 maxLine)
{
    Read r;
    qsizetype start = 0;
    quint64 lineNumber = 0;
    for (qsizetype nl = text.indexOf('\n'); nl >= 0; start = nl + 1, nl = text.indexOf('\n', start)) {
        ++lineNumber;
        const qsizetype len = nl - start;
        QString why;
        CaptureLine line;
        if (len > maxLine) {
            why = QStringLiteral("a line longer than %1 bytes").arg(maxLine);
        } else if (const LineError e =
                       streamscope::capture::parseLine(text.constData() + start, std::size_t(len), &line);
                   e != LineError::None) {
            why = streamscope::capture::lineErrorText(e);
        } else {
            r.lines.append(flatten(line));
            continue;
        }
        if (r.malformed++ == 0)
            r.firstMalformed = QStringLiteral("line %1: %2").arg(lineNumber).arg(why);
    }
    r.truncated = start < text.size();
    return r;
}

void finish(const CaptureReader &reader, Read *r)
{
    r->malformed = reader.malformedLines();
    r->firstMalformed = reader.firstMalformed();
    r->truncated = reader.truncated();
    r->error = reader.errorString();
}

Read readAll(CaptureReader &reader)
{
    Read r;
    CaptureLine line;
    while (reader.next(&line))
        r.lines.append(flatten(line));
    finish(reader, &r);
    return r;
}

Read readInSlices(CaptureReader &reader, SplitRng &rng)
{
    Read r;
    CaptureLine line;
    for (;;) {
        const qint64 budget = 1 + qint64(rng.below(64 * 1024));
        const CaptureReader::Status status = reader.read(&line, budget);
        if (status == CaptureReader::Status::End)
            break;
        FUZZ_CHECK(status == CaptureReader::Status::Line || status == CaptureReader::Status::More, "a known status");
        if (status == CaptureReader::Status::Line)
            r.lines.append(flatten(line));
    }
    finish(reader, &r);
    return r;
}

bool same(const Read &a, const Read &b)
{
    return a.lines == b.lines && a.malformed == b.malformed && a.firstMalformed == b.firstMalformed
        && a.truncated == b.truncated && a.error == b.error;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    InputReader in(data, size);
    const auto mode = Mode(in.byte() % kModes);
    // From the format's shortest line (28 bytes) to 28 + 255 · 16: the skipping paths with
    // short inputs.
    const qint64 maxLine = 28 + qint64(in.byte()) * 16;
    SplitRng rng(in.byte());
    const QByteArray text(in.rest(), qsizetype(in.restSize()));

    QByteArray file = text;
    if (mode != kPlain) {
        file = zstdFrames(text, rng);
        if (mode == kFramesCut && !file.isEmpty())
            file.chop(1 + qsizetype(rng.below(std::size_t(std::min<qsizetype>(file.size(), 16)))));
        if (mode == kFramesFlipped && !file.isEmpty())
            file[qsizetype(rng.below(std::size_t(file.size())))] ^= char(1 + rng.below(255));
    }
    const QString path = writeFile(file);
    if (path.isEmpty())
        return 0;

    CaptureReader reader;
    FUZZ_CHECK(reader.open(path, maxLine), "a regular file opens");
    const Read a = readAll(reader);
    FUZZ_CHECK(reader.fileBytesRead() == file.size() || !a.error.isEmpty(),
               "the whole file is read, or an error says why");
    CaptureReader sliced;
    FUZZ_CHECK(sliced.open(path, maxLine), "a regular file opens");
    const Read b = readInSlices(sliced, rng);
    FUZZ_CHECK(same(a, b), "reading in slices gives what reading at once gives");
    FUZZ_CHECK(reader.rewind(), "a file read to its end goes back to its start");
    const Read c = readAll(reader);
    FUZZ_CHECK(same(a, c), "a rewound reader reads the same again");
    FUZZ_CHECK(a.error.isEmpty() || a.error.startsWith(path + QStringLiteral(": ")), "an error names the file");

    // Text given as it is may start with zstd's magic number: then it is zstd data made up by
    // the fuzzer, and only the three readings' agreement holds.
    const bool whole = mode == kFrames || (mode == kPlain && !text.startsWith("\x28\xb5\x2f\xfd"));
    if (whole) {
        const Read expected = reference(text, maxLine);
        FUZZ_CHECK(a.error.isEmpty(), "a whole file reads without an error");
        FUZZ_CHECK(same(a, expected), "the lines and counts are the reference split's");
        FUZZ_CHECK(reader.isCompressed() == (mode == kFrames), "zstd is told by its magic number");
    } else if (mode == kFramesCut && a.error.isEmpty()) {
        const Read expected = reference(text, maxLine);
        FUZZ_CHECK(a.lines == expected.lines.mid(0, a.lines.size()), "a file cut short reads a prefix of the lines");
    }
    return 0;
}
