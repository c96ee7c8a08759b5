// `streamscope-replay --file CAPTURE` given what a user may hand it by mistake or on purpose,
// run as a process: what is not a regular file is refused at once and by name (a FIFO without
// a writer never blocks it), a file that holds no capture line is refused, a zstd bomb and a
// large capture are served with a bounded memory (the capture is streamed, never loaded
// whole), a capture cut short is served and then reported, and SIGTERM ends it while it reads.
// Memory is the process's peak resident size (VmHWM, Linux), compared with the same binary
// serving a one-line capture.
#include "../common/TestRegistry.h"
#include "../common/TimeFactor.h"

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtNetwork/QTcpSocket>
#include <QtTest/QtTest>

#include <zstd.h>

#ifdef Q_OS_UNIX
#include <sys/stat.h>
#endif

using streamscope::testing::scaledMs;

namespace {

constexpr qint64 kMiB = 1024 * 1024;
// How much more than serving a one-line capture the process may hold at its peak: the read
// window, a zstd window, the socket's send buffer. Sanitizers add their own bookkeeping (the
// child's ASan quarantine is set small below).
#if defined(__SANITIZE_ADDRESS__)
constexpr qint64 kMaxGrowthBytes = 192 * kMiB;
#else
constexpr qint64 kMaxGrowthBytes = 128 * kMiB;
#endif

const QByteArray kTime = "2026-11-30T10:00:00.000000Z";
const QByteArray kLineHeader = kTime + "#{\"event\":\"capture\",\"venue\":\"betfair\",\"url\":\"tls://127.0.0.1:1\"}\n";

// The peak resident size of a process, in bytes; 0 when unknown.
qint64 peakRss(qint64 pid)
{
#ifndef Q_OS_LINUX
    Q_UNUSED(pid);
    return 0; // the test is skipped there
#else
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').value(0).toLongLong() * 1024;
    }
    return 0;
#endif
}

void appendLe(QByteArray *out, quint32 value, int bytes)
{
    for (int i = 0; i < bytes; ++i)
        out->append(char((value >> (8 * i)) & 0xff));
}

// A zstd frame header with the given window (no content size, no checksum).
QByteArray frameHeader(int windowLog)
{
    QByteArray f;
    appendLe(&f, 0xFD2FB528u, 4);
    f += char(0x00);                  // frame header descriptor: a window descriptor follows
    f += char((windowLog - 10) << 3); // window descriptor: 2^windowLog
    return f;
}

// `total` bytes of `byte` in run-length blocks of 128 KiB: 4 bytes each.
QByteArray rleFrame(char byte, qint64 total)
{
    constexpr quint32 kBlock = 128 * 1024;
    QByteArray f = frameHeader(17);
    for (qint64 left = total; left > 0;) {
        const auto n = quint32(std::min<qint64>(left, kBlock));
        left -= n;
        appendLe(&f, (n << 3) | (1u << 1) | (left == 0 ? 1u : 0u), 3); // an RLE block
        f += byte;
    }
    return f;
}

// One raw block holding `text`, in a frame that asks for a window of 2^windowLog bytes.
QByteArray rawFrame(const QByteArray &text, int windowLog)
{
    QByteArray f = frameHeader(windowLog);
    appendLe(&f, (quint32(text.size()) << 3) | 1u, 3); // a raw block, the last
    return f + text;
}

// `head` then `block` `times` times, streamed through one zstd frame: a small file that
// decompresses to times × block.size() bytes.
QByteArray compressRepeated(const QByteArray &head, const QByteArray &block, int times)
{
    ZSTD_CCtx *c = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, 1);
    QByteArray out;
    QByteArray buffer(qsizetype(ZSTD_CStreamOutSize()), Qt::Uninitialized);
    const auto feed = [&](const QByteArray &in, ZSTD_EndDirective mode) {
        ZSTD_inBuffer input{in.constData(), std::size_t(in.size()), 0};
        for (;;) {
            ZSTD_outBuffer output{buffer.data(), std::size_t(buffer.size()), 0};
            const std::size_t left = ZSTD_compressStream2(c, &output, &input, mode);
            out.append(buffer.constData(), qsizetype(output.pos));
            if (ZSTD_isError(left) || (mode == ZSTD_e_end ? left == 0 : input.pos == input.size))
                break;
        }
    };
    feed(head, ZSTD_e_continue);
    for (int i = 0; i < times; ++i)
        feed(block, ZSTD_e_continue);
    feed({}, ZSTD_e_end);
    ZSTD_freeCCtx(c);
    return out;
}

// 1 MiB of capture lines of 1 KiB each; what a line client receives of it: `servedBytes`.
QByteArray megabyteOfLines(qint64 *servedBytes)
{
    const QByteArray line = kTime + " {\"p\":\"" + QByteArray(1024 - kTime.size() - 7 - 3, 'x') + "\"}\n";
    Q_ASSERT(line.size() == 1024);
    *servedBytes = 1024 * (line.size() - kTime.size() - 2 + 2); // the message and CR LF
    return line.repeated(1024);
}

struct Replay {
    QProcess process;
    quint16 port = 0;
    QByteArray stderrText;

    explicit Replay(const QStringList &args)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        // The quarantine keeps freed memory resident; a small one keeps VmHWM the program's.
        const QString asan = env.value(QStringLiteral("ASAN_OPTIONS"));
        env.insert(QStringLiteral("ASAN_OPTIONS"),
                   asan + (asan.isEmpty() ? QString() : QStringLiteral(":")) + QStringLiteral("quarantine_size_mb=16"));
        process.setProcessEnvironment(env);
        process.start(QStringLiteral(REPLAY_BIN), QStringList{QStringLiteral("--port"), QStringLiteral("0")} + args);
    }
    ~Replay()
    {
        if (process.state() != QProcess::NotRunning) {
            process.kill();
            process.waitForFinished();
        }
    }
    // Waits for "port N" or the end, and fails (killing it) if its peak memory passes maxRss.
    bool waitForPortOrExit(qint64 maxRss, QString *why)
    {
        return waitUntil([this] { return readPort(); }, maxRss, why);
    }
    bool waitForExit(qint64 maxRss, QString *why)
    {
        return waitUntil([this] { return process.state() == QProcess::NotRunning; }, maxRss, why);
    }
    template<typename Done>
    bool waitUntil(Done done, qint64 maxRss, QString *why, int timeoutMs = scaledMs(10000))
    {
        QElapsedTimer clock;
        clock.start();
        while (!done()) {
            if (process.state() == QProcess::NotRunning) {
                stderrText += process.readAllStandardError();
                *why = QStringLiteral("it ended: %1").arg(QString::fromUtf8(stderrText));
                return false;
            }
            if (const qint64 rss = peakRss(process.processId()); maxRss > 0 && rss > maxRss) {
                *why = QStringLiteral("its peak memory reached %1 MiB").arg(rss / kMiB);
                process.kill();
                return false;
            }
            if (clock.elapsed() > timeoutMs) {
                *why = QStringLiteral("nothing after %1 ms").arg(timeoutMs);
                return false;
            }
            QTest::qWait(10);
        }
        stderrText += process.readAllStandardError();
        return true;
    }
    bool readPort()
    {
        if (process.state() == QProcess::NotRunning)
            return true;
        if (!process.canReadLine())
            return false;
        const QByteArray line = process.readLine().trimmed();
        if (line.startsWith("port "))
            port = line.mid(5).toUShort();
        return true;
    }
    QString stderrAll()
    {
        stderrText += process.readAllStandardError();
        return QString::fromUtf8(stderrText);
    }
};

} // namespace

class TestReplayFile : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void refusesWhatIsNotARegularFile_data();
    void refusesWhatIsNotARegularFile();
    void refusesAFileWithoutACaptureLine_data();
    void refusesAFileWithoutACaptureLine();
    void servesWithBoundedMemory_data();
    void servesWithBoundedMemory();
    void reportsACaptureCutShort();
    void sigtermEndsItWhileItReads();

private:
    QString write(const QString &name, const QByteArray &bytes);
    qint64 maxRss() const { return m_baselineRss + kMaxGrowthBytes; }

    QTemporaryDir m_dir;
    qint64 m_baselineRss = 0;
};

QString TestReplayFile::write(const QString &name, const QByteArray &bytes)
{
    const QString path = m_dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
        return QString();
    return path;
}

void TestReplayFile::initTestCase()
{
#ifndef Q_OS_LINUX
    QSKIP("reads the child's peak memory from /proc");
#endif
    QVERIFY(m_dir.isValid());
    const QString path = write(QStringLiteral("one.ndjson"), kLineHeader + kTime + " {}\n");
    Replay replay({QStringLiteral("--file"), path});
    QString why;
    QVERIFY2(replay.waitForPortOrExit(0, &why), qPrintable(why));
    QVERIFY2(replay.port, qPrintable(replay.stderrAll()));
    m_baselineRss = peakRss(replay.process.processId());
    QVERIFY(m_baselineRss > 0);
}

void TestReplayFile::refusesWhatIsNotARegularFile_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("found");
    QTest::newRow("/dev/zero") << QStringLiteral("/dev/zero") << QStringLiteral("a character device");
    QTest::newRow("a FIFO without a writer") << QStringLiteral("fifo") << QStringLiteral("a FIFO");
    QTest::newRow("a directory") << QStringLiteral("dir") << QStringLiteral("a directory");
}

// Refused at once: /dev/zero never ends, a FIFO without a writer blocks whoever opens it
// without O_NONBLOCK. Were it to hang anyway, SIGTERM must still end it.
void TestReplayFile::refusesWhatIsNotARegularFile()
{
    QFETCH(QString, kind);
    QFETCH(QString, found);
    QString path = kind;
#ifdef Q_OS_UNIX
    if (kind == QLatin1String("fifo")) {
        path = m_dir.filePath(QStringLiteral("capture.ndjson.zst"));
        QFile::remove(path);
        QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
    }
#endif
    if (kind == QLatin1String("dir")) {
        path = m_dir.filePath(QStringLiteral("folder.ndjson"));
        QVERIFY(QDir().mkpath(path));
    }
    Replay replay({QStringLiteral("--file"), path});
    QString why;
    const bool ended = replay.waitForExit(maxRss(), &why);
    if (!ended && replay.process.state() != QProcess::NotRunning) {
        replay.process.terminate();
        const bool byTerm = replay.process.waitForFinished(scaledMs(5000));
        why += byTerm ? QStringLiteral("; SIGTERM ended it") : QStringLiteral("; SIGTERM did not end it");
    }
    QVERIFY2(ended, qPrintable(why));
    QCOMPARE(replay.process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(replay.process.exitCode(), 2);
    QCOMPARE(replay.stderrAll().trimmed(),
             QStringLiteral("streamscope-replay: %1: expected a regular file, found %2").arg(path, found));
    if (kind == QLatin1String("fifo"))
        QFile::remove(path);
}

void TestReplayFile::refusesAFileWithoutACaptureLine_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("error"); // after "streamscope-replay: <path>: "
    QTest::newRow("an empty file") << QByteArray() << QStringLiteral("holds no capture line: the file is empty");
    QTest::newRow("zstd magic alone") << QByteArray("\x28\xb5\x2f\xfd", 4)
                                      << QStringLiteral("holds no capture line: cut short, inside a zstd frame");
    const QByteArray frame = compressRepeated(kLineHeader, kTime + " {\"n\":1}\n", 1);
    QTest::newRow("a frame cut before its first line")
        << frame.left(frame.size() / 2) << QStringLiteral("holds no capture line: cut short, inside a zstd frame");
    QTest::newRow("lines that are not capture lines")
        << QByteArray("hello\nworld\n")
        << QStringLiteral("holds no capture line: 2 lines skipped, the first: "
                          "line 1: expected a capture line starting with a UTC time");
    QTest::newRow("a frame header cut short")
        << QByteArray("\x28\xb5\x2f\xfd\xff\xff\xff\xff\xff\xff", 10)
        << QStringLiteral("holds no capture line: cut short, inside a zstd frame");
    QByteArray corrupt = frameHeader(17);
    appendLe(&corrupt, (8u << 3) | (3u << 1) | 1u, 3); // a block of the reserved type
    QTest::newRow("corrupt zstd data") << corrupt + QByteArray(8, 'x') << QStringLiteral("not valid zstd data (");
    // The decoder would allocate the window a frame asks for before it decodes a byte.
    QTest::newRow("a frame asking for a 128 MiB window")
        << rawFrame(kLineHeader, 27)
        << QStringLiteral("a zstd frame needs a window larger than 16 MiB (compressed with --long or --ultra?) "
                          "after 0 bytes of text");
    // 2 GiB of zeros in 64 KB: one line that never ends.
    QTest::newRow("a zstd bomb without a line end")
        << rleFrame('\0', 2048 * kMiB) << QStringLiteral("holds no capture line in its first 64 MiB of text");
}

void TestReplayFile::refusesAFileWithoutACaptureLine()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, error);
    const QString path = write(QStringLiteral("bad.ndjson.zst"), bytes);
    QVERIFY(!path.isEmpty());
    Replay replay({QStringLiteral("--file"), path});
    QString why;
    QVERIFY2(replay.waitForExit(maxRss(), &why), qPrintable(why));
    QCOMPARE(replay.process.exitCode(), 2);
    const QString text = replay.stderrAll().trimmed();
    const QString prefix = QStringLiteral("streamscope-replay: %1: ").arg(path);
    QVERIFY2(text.startsWith(prefix + error), qPrintable(text));
    QVERIFY2(!text.contains(QLatin1Char('\n')), qPrintable(text)); // one line
}

void TestReplayFile::servesWithBoundedMemory_data()
{
    QTest::addColumn<bool>("compressed");
    QTest::addColumn<int>("megabytes"); // of capture lines
    // 512 MiB of lines in a zstd frame of about 100 KB.
    QTest::newRow("a zstd bomb of lines") << true << 512;
    QTest::newRow("a large plain capture") << false << 256;
}

// Served whole to a client that reads as fast as it can, at --speed max: the peak memory
// stays far below the capture's size.
void TestReplayFile::servesWithBoundedMemory()
{
    QFETCH(bool, compressed);
    QFETCH(int, megabytes);
    qint64 servedPerMegabyte = 0;
    const QByteArray block = megabyteOfLines(&servedPerMegabyte);
    QString path;
    if (compressed) {
        const QByteArray bomb = compressRepeated(kLineHeader, block, megabytes);
        QVERIFY2(bomb.size() < 1024 * 1024, qPrintable(QString::number(bomb.size())));
        path = write(QStringLiteral("bomb.ndjson.zst"), bomb);
    } else {
        path = m_dir.filePath(QStringLiteral("large.ndjson"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QCOMPARE(f.write(kLineHeader), kLineHeader.size());
        for (int i = 0; i < megabytes; ++i)
            QCOMPARE(f.write(block), block.size());
    }
    QVERIFY(!path.isEmpty());
    Replay replay({QStringLiteral("--file"), path, QStringLiteral("--speed"), QStringLiteral("max")});
    QString why;
    QVERIFY2(replay.waitForPortOrExit(maxRss(), &why), qPrintable(why));
    QVERIFY2(replay.port, qPrintable(replay.stderrAll()));

    QTcpSocket client;
    qint64 received = 0;
    connect(&client, &QTcpSocket::readyRead, this, [&] { received += client.readAll().size(); });
    client.connectToHost(QHostAddress::LocalHost, replay.port);
    const qint64 expected = servedPerMegabyte * megabytes;
    QVERIFY2(replay.waitUntil([&] { return received >= expected; }, maxRss(), &why, scaledMs(120000)),
             qPrintable(QStringLiteral("%1 (received %2 of %3 bytes)").arg(why).arg(received).arg(expected)));
    QCOMPARE(received, expected);
    const qint64 peak = peakRss(replay.process.processId());
    QVERIFY2(peak <= maxRss(), qPrintable(QStringLiteral("%1 MiB").arg(peak / kMiB)));
    replay.process.terminate();
    QVERIFY(replay.process.waitForFinished(scaledMs(5000)));
    QCOMPARE(replay.process.exitCode(), 0);
    QCOMPARE(replay.stderrAll(), QString()); // nothing to report
    QFile::remove(path);
}

// A recording killed mid-frame: what was written before the cut is served, then the cut is
// reported once on stderr; the server goes on (quiet, as at the end of any capture).
void TestReplayFile::reportsACaptureCutShort()
{
    QByteArray text = kLineHeader;
    int lines = 0;
    while (text.size() < 600 * 1024) {
        ++lines;
        text += kTime + " {\"n\":" + QByteArray::number(lines) + ",\"v\":" + QByteArray::number(lines * 7919 % 104729)
            + "}\n";
    }
    const QByteArray frame = compressRepeated(text, {}, 0);
    const QString path = write(QStringLiteral("cut.ndjson.zst"), frame.left(frame.size() * 3 / 5));
    Replay replay({QStringLiteral("--file"), path, QStringLiteral("--speed"), QStringLiteral("max")});
    QString why;
    QVERIFY2(replay.waitForPortOrExit(maxRss(), &why), qPrintable(why));
    QVERIFY2(replay.port, qPrintable(replay.stderrAll()));
    QTcpSocket client;
    QByteArray received;
    connect(&client, &QTcpSocket::readyRead, this, [&] { received += client.readAll(); });
    client.connectToHost(QHostAddress::LocalHost, replay.port);
    const QString report = QStringLiteral("streamscope-replay: %1: cut short, inside a zstd frame: served up to its "
                                          "last complete line\n")
                               .arg(path);
    QVERIFY2(replay.waitUntil([&] { return replay.stderrAll().contains(report); }, maxRss(), &why),
             qPrintable(why + QStringLiteral(" / ") + replay.stderrAll()));
    QTRY_VERIFY_WITH_TIMEOUT(received.endsWith("}\r\n"), scaledMs(5000));
    const qsizetype served = received.count("\r\n");
    QVERIFY2(served > 0 && served < lines, qPrintable(QString::number(served)));
    QVERIFY(received.startsWith("{\"n\":1,"));
    QVERIFY(received.contains("{\"n\":" + QByteArray::number(served) + ","));
    QCOMPARE(replay.stderrAll(), report); // once
    QCOMPARE(replay.process.state(), QProcess::Running);
    replay.process.terminate();
    QVERIFY(replay.process.waitForFinished(scaledMs(5000)));
    QCOMPARE(replay.process.exitCode(), 0);
}

// A capture line, then 2 GiB of zeros without a line end: SIGTERM while a client is being
// served (the zeros being read) ends the process at once, with bounded memory.
void TestReplayFile::sigtermEndsItWhileItReads()
{
    const QByteArray header = compressRepeated(kLineHeader, {}, 0);
    const QString path = write(QStringLiteral("endless.ndjson.zst"), header + rleFrame('\0', 2048 * kMiB));
    Replay replay({QStringLiteral("--file"), path, QStringLiteral("--speed"), QStringLiteral("max")});
    QString why;
    QVERIFY2(replay.waitForPortOrExit(maxRss(), &why), qPrintable(why));
    QVERIFY2(replay.port, qPrintable(replay.stderrAll()));
    QTcpSocket client;
    client.connectToHost(QHostAddress::LocalHost, replay.port);
    QVERIFY(client.waitForConnected(scaledMs(5000)));
    replay.process.terminate();
    QVERIFY2(replay.waitForExit(maxRss(), &why), qPrintable(why));
    QCOMPARE(replay.process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(replay.process.exitCode(), 0);
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestReplayFile)
#include "tst_replayfile.moc"
