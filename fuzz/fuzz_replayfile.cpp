// The file path of `streamscope-replay --file` (replay/CaptureWindow): the capture it serves is
// read while clients are served, in slices, never whole, and may be anyone's file.
//
// Input: an option byte (bit 0: the rest is compressed into one zstd frame first, so that the
// zstd paths see text; bit 1: --loop), a seed byte for the clients' pace, then the file. The
// window is opened as the replay opens it, then two clients take entries at random turns, as
// connections do, and the entries no one needs are released after each turn. Checked: the
// window opens exactly when the file holds a capture line (what CaptureReader reads alone), and
// an error names the file; each client gets the reader's entries in order, pass after pass with
// --loop (each pass starting with a flagged entry), and the end stays the end; the window holds
// no more than its bound; each problem it reports names the file and is said once, and a file
// cut short or holding lines that are not capture lines is reported by the end of a pass.

#include "CaptureFile.h"
#include "CaptureReader.h"
#include "CaptureWindow.h"
#include "FuzzSupport.h"

#include <QtCore/QByteArray>
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QSet>
#include <QtCore/QVector>

#include <zstd.h>

#include <unistd.h>

using streamscope::capture::CaptureLine;
using streamscope::capture::CaptureReader;
using streamscope::fuzz::InputReader;
using streamscope::fuzz::SplitRng;
using streamscope::replay::CaptureFile;
using streamscope::replay::CaptureWindow;

namespace {

constexpr int kMaxMoreInARow = 100000; // each More makes progress; a small file needs few

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
            .filePath(QStringLiteral("fuzz_replayfile-%1.ndjson.zst").arg(::getpid()))};
    const QString &path = scratch.path;
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(bytes) != bytes.size())
        return QString();
    return path;
}

bool sameEntry(const CaptureFile::Entry &a, const CaptureFile::Entry &b)
{
    return a.kind == b.kind && a.timeUs == b.timeUs && a.payload == b.payload && a.event == b.event
        && a.base64 == b.base64;
}

struct Client {
    qint64 next = 0;
    bool ended = false;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    InputReader in(data, size);
    const std::uint8_t options = in.byte();
    SplitRng rng(in.byte());
    QByteArray file(in.rest(), qsizetype(in.restSize()));
    if (options & 1) {
        QByteArray frame(qsizetype(ZSTD_compressBound(std::size_t(file.size()))), Qt::Uninitialized);
        const std::size_t n =
            ZSTD_compress(frame.data(), std::size_t(frame.size()), file.constData(), std::size_t(file.size()), 1);
        FUZZ_CHECK(!ZSTD_isError(n), "zstd compresses any text");
        file = frame.left(qsizetype(n));
    }
    const bool loop = (options & 2) != 0;
    const QString path = writeFile(file);
    if (path.isEmpty())
        return 0;

    // What the reader alone reads: the entries of one pass, and what it found wrong.
    QVector<CaptureFile::Entry> expected;
    CaptureReader reference;
    FUZZ_CHECK(reference.open(path, CaptureWindow::kMaxLineBytes), "a regular file opens");
    CaptureLine line;
    while (reference.next(&line))
        expected.append(CaptureFile::entryFrom(std::move(line)));
    bool anyMessage = false;
    for (const CaptureFile::Entry &e : expected)
        anyMessage = anyMessage || e.kind != CaptureFile::Kind::Event;

    CaptureWindow window;
    const bool opened = window.open(path, loop);
    FUZZ_CHECK(opened == !expected.isEmpty(), "the window opens exactly when the file holds a capture line");
    if (!opened) {
        FUZZ_CHECK(window.errorString().startsWith(path + QStringLiteral(": ")), "the error names the file");
        return 0;
    }

    Client clients[2];
    QSet<QString> problems;
    qint64 largest = 0;
    for (const CaptureFile::Entry &e : expected)
        largest = std::max<qint64>(largest, e.payload.size());
    const qint64 passes = loop && anyMessage ? 3 : 1;
    const qint64 last = passes * expected.size(); // the clients stop there
    int moreInARow = 0;
    while (!(clients[0].ended || clients[0].next >= last) || !(clients[1].ended || clients[1].next >= last)) {
        Client &c = clients[rng.below(2)];
        if (c.ended || c.next >= last)
            continue;
        const CaptureWindow::Item *item = nullptr;
        const qint64 asked = c.next;
        const CaptureWindow::Status status = window.at(&c.next, &item);
        FUZZ_CHECK(c.next == asked, "no client falls behind a window this small");
        if (status == CaptureWindow::Status::More) {
            FUZZ_CHECK(++moreInARow < kMaxMoreInARow, "reading in slices makes progress");
            continue;
        }
        moreInARow = 0;
        if (status == CaptureWindow::Status::End) {
            FUZZ_CHECK(!loop || !anyMessage, "with --loop a capture with a message never ends");
            FUZZ_CHECK(c.next == expected.size(), "the end is after the last entry");
            FUZZ_CHECK(window.at(&c.next, &item) == CaptureWindow::Status::End, "the end stays the end");
            c.ended = true;
        } else {
            FUZZ_CHECK(status == CaptureWindow::Status::Ready, "a known status");
            const qint64 i = c.next % expected.size();
            FUZZ_CHECK(sameEntry(item->entry, expected[i]), "each client gets the reader's entries in order");
            FUZZ_CHECK(item->passStart == (i == 0), "a pass starts with a flagged entry");
            ++c.next;
        }
        window.release(std::min(clients[0].next, clients[1].next));
        FUZZ_CHECK(window.firstIndex() <= std::min(clients[0].next, clients[1].next), "what a client needs is kept");
        FUZZ_CHECK(window.heldBytes() <= CaptureWindow::kMaxWindowBytes + largest + 1024, "the window is bounded");
        for (const QString &p : window.takeProblems()) {
            FUZZ_CHECK(p.startsWith(path + QStringLiteral(": ")), "a problem names the file");
            FUZZ_CHECK(!problems.contains(p), "a problem is said once");
            problems.insert(p);
        }
    }
    if (clients[0].ended && !loop) {
        bool skipped = false;
        bool cut = false;
        for (const QString &p : std::as_const(problems)) {
            skipped = skipped || p.contains(QStringLiteral(" skipped, the first: "));
            cut = cut || p.contains(QStringLiteral(": cut short, "));
        }
        FUZZ_CHECK(skipped == (reference.malformedLines() > 0), "lines skipped are reported");
        FUZZ_CHECK(cut == reference.truncated(), "a file cut short is reported");
    }
    return 0;
}
