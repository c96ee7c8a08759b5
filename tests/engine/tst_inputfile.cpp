// InputFile, the one opener for files from outside: a regular file is read whole or in chunks;
// a directory, a device, a FIFO (without blocking) and a socket are refused by what they are,
// checked on the opened file (a symbolic link to a device is a device); a file over the bound
// is refused at the open, and one that grows past it while read stops there; a cancel and the
// time bound stop the next read; rewind starts over.
#include "../common/TestRegistry.h"
#include "InputFile.h"

#include <QtCore/QDir>
#include <QtCore/QElapsedTimer>
#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#ifdef Q_OS_UNIX
#include <cstring>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#endif

using streamscope::InputFile;

namespace {

InputFile::Limits limitsOf(qint64 maxBytes)
{
    InputFile::Limits limits;
    limits.maxBytes = maxBytes;
    return limits;
}

} // namespace

class TestInputFile : public QObject {
    Q_OBJECT
private slots:
    void init() { QVERIFY(m_dir.isValid()); }
    void readsARegularFile();
    void refusesWhatIsNotARegularFile_data();
    void refusesWhatIsNotARegularFile();
    void missingFileNamesIt();
    void sizeBound();
    void fileThatGrowsWhileRead();
    void cancelStopsTheNextRead();
    void timeBoundStopsTheNextRead();
    void rewindStartsOver();

private:
    QString write(const QString &name, const QByteArray &bytes)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
            return QString();
        return path;
    }
    QTemporaryDir m_dir;
};

void TestInputFile::readsARegularFile()
{
    const QByteArray bytes = QByteArray("0123456789").repeated(20000);
    const QString path = write(QStringLiteral("f.txt"), bytes);
    QString error;
    const auto all = InputFile::readAll(path, limitsOf(bytes.size()), &error);
    QVERIFY2(all, qPrintable(error));
    QCOMPARE(*all, bytes);

    InputFile file;
    QVERIFY(file.open(path, limitsOf(bytes.size())));
    QCOMPARE(file.size(), bytes.size());
    QByteArray chunks;
    for (QByteArray chunk = file.read(7000); !chunk.isEmpty(); chunk = file.read(7000))
        chunks += chunk;
    QCOMPARE(chunks, bytes);
    QVERIFY(file.atEnd());
    QCOMPARE(file.error(), InputFile::Error::None);
    QCOMPARE(file.position(), bytes.size());

    const QString empty = write(QStringLiteral("empty"), QByteArray());
    const auto none = InputFile::readAll(empty, limitsOf(0), &error);
    QVERIFY(none);
    QVERIFY(none->isEmpty());
}

void TestInputFile::refusesWhatIsNotARegularFile_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("found");
    QTest::newRow("a directory") << QStringLiteral("dir") << QStringLiteral("a directory");
#ifdef Q_OS_UNIX
    QTest::newRow("/dev/zero") << QStringLiteral("/dev/zero") << QStringLiteral("a character device");
    QTest::newRow("a link to /dev/zero") << QStringLiteral("link") << QStringLiteral("a character device");
    QTest::newRow("a FIFO without a writer") << QStringLiteral("fifo") << QStringLiteral("a FIFO");
    QTest::newRow("a socket") << QStringLiteral("socket") << QStringLiteral("a socket");
#endif
}

void TestInputFile::refusesWhatIsNotARegularFile()
{
    QFETCH(QString, kind);
    QFETCH(QString, found);
    QString path = kind;
    if (kind == QLatin1String("dir")) {
        path = m_dir.filePath(QStringLiteral("d.json"));
        QVERIFY(QDir().mkpath(path));
    }
#ifdef Q_OS_UNIX
    int listener = -1;
    if (kind == QLatin1String("link")) {
        path = m_dir.filePath(QStringLiteral("capture.zst"));
        QVERIFY(QFile::link(QStringLiteral("/dev/zero"), path));
    } else if (kind == QLatin1String("fifo")) {
        path = m_dir.filePath(QStringLiteral("fifo.json"));
        QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
    } else if (kind == QLatin1String("socket")) {
        path = m_dir.filePath(QStringLiteral("s.sock"));
        listener = ::socket(AF_UNIX, SOCK_STREAM, 0);
        QVERIFY(listener >= 0);
        sockaddr_un address = {};
        address.sun_family = AF_UNIX;
        const QByteArray name = QFile::encodeName(path);
        QVERIFY(std::size_t(name.size()) < sizeof(address.sun_path));
        std::memcpy(address.sun_path, name.constData(), std::size_t(name.size()));
        QCOMPARE(::bind(listener, reinterpret_cast<sockaddr *>(&address), sizeof(address)), 0);
    }
#endif
    // Returns at all: a FIFO without a writer blocks an open without O_NONBLOCK.
    QString error;
    QVERIFY(!InputFile::readAll(path, limitsOf(1024), &error));
    QCOMPARE(error, QStringLiteral("%1: expected a regular file, found %2").arg(path, found));
    InputFile file;
    QVERIFY(!file.open(path, limitsOf(1024)));
    QCOMPARE(file.error(), InputFile::Error::NotRegular);
    QVERIFY(!file.isOpen());
#ifdef Q_OS_UNIX
    if (listener >= 0)
        ::close(listener);
#endif
}

void TestInputFile::missingFileNamesIt()
{
    const QString path = m_dir.filePath(QStringLiteral("missing.json"));
    InputFile file;
    QVERIFY(!file.open(path, limitsOf(1024)));
    QCOMPARE(file.error(), InputFile::Error::Open);
    QVERIFY2(file.errorString().startsWith(path + QStringLiteral(": cannot read the file: ")),
             qPrintable(file.errorString()));
}

void TestInputFile::sizeBound()
{
    const QString path = write(QStringLiteral("big"), QByteArray(1024 * 1024 + 1, 'x'));
    QString error;
    QVERIFY(!InputFile::readAll(path, limitsOf(1024 * 1024), &error));
    QCOMPARE(error, path + QStringLiteral(": expected a file of at most 1 MiB, found 1048577 bytes"));
    const auto exact = InputFile::readAll(path, limitsOf(1024 * 1024 + 1), &error);
    QVERIFY(exact);
    QCOMPARE(exact->size(), 1024 * 1024 + 1);
}

// Opened within the bound, then written on: the read stops one byte past the bound.
void TestInputFile::fileThatGrowsWhileRead()
{
    const QString path = write(QStringLiteral("growing"), QByteArray(100, 'a'));
    InputFile file;
    QVERIFY(file.open(path, limitsOf(150)));
    {
        QFile more(path);
        QVERIFY(more.open(QIODevice::Append));
        QCOMPARE(more.write(QByteArray(1000, 'b')), 1000);
    }
    qint64 total = 0;
    for (QByteArray chunk = file.read(64); !chunk.isEmpty(); chunk = file.read(64))
        total += chunk.size();
    QCOMPARE(file.error(), InputFile::Error::TooLarge);
    QCOMPARE(file.errorString(),
             path + QStringLiteral(": expected a file of at most 150 bytes; it grew past that while read"));
    QVERIFY(total <= 151);
}

void TestInputFile::cancelStopsTheNextRead()
{
    const QString path = write(QStringLiteral("f"), QByteArray(4096, 'x'));
    std::atomic<bool> cancel{false};
    InputFile::Limits limits = limitsOf(4096);
    limits.cancel = &cancel;
    InputFile file;
    QVERIFY(file.open(path, limits));
    QCOMPARE(file.read(1024).size(), 1024);
    cancel.store(true);
    QVERIFY(file.read(1024).isEmpty());
    QCOMPARE(file.error(), InputFile::Error::Cancelled);
    QCOMPARE(file.errorString(), path + QStringLiteral(": cancelled"));
}

void TestInputFile::timeBoundStopsTheNextRead()
{
    const QString path = write(QStringLiteral("f"), QByteArray(4096, 'x'));
    InputFile::Limits limits = limitsOf(4096);
    limits.timeout = std::chrono::milliseconds(1);
    InputFile file;
    QElapsedTimer clock;
    clock.start();
    QVERIFY(file.open(path, limits));
    QTRY_VERIFY(clock.elapsed() > 2); // past the bound
    QVERIFY(file.read(1024).isEmpty());
    QCOMPARE(file.error(), InputFile::Error::TimedOut);
    QVERIFY2(file.errorString().startsWith(path + QStringLiteral(": not read within 0.001 s")),
             qPrintable(file.errorString()));
}

void TestInputFile::rewindStartsOver()
{
    const QString path = write(QStringLiteral("f"), QByteArray("abcdef"));
    InputFile file;
    QVERIFY(file.open(path, limitsOf(6)));
    QCOMPARE(file.read(100), QByteArray("abcdef"));
    QVERIFY(file.read(100).isEmpty());
    QVERIFY(file.atEnd());
    QVERIFY(file.rewind());
    QCOMPARE(file.position(), 0);
    QCOMPARE(file.read(3), QByteArray("abc"));
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestInputFile)
#include "tst_inputfile.moc"
