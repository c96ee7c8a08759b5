// The capture format without a network: time stamps, the three kinds of line, the hand-off
// ring, and a recorder's files (compressed or plain, rotated by size and by age) read back.
#include "../common/TestRegistry.h"
#include "CaptureFile.h"
#include "capture/CaptureFormat.h"
#include "capture/CaptureRecorder.h"
#include "capture/CaptureRing.h"

#include <QtCore/QDir>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

using namespace streamscope;
using streamscope::replay::CaptureFile;

namespace {

QStringList capturesIn(const QString &dir)
{
    QStringList files = QDir(dir).entryList(QDir::Files, QDir::Name);
    for (QString &f : files)
        f = QDir(dir).filePath(f);
    return files;
}

CaptureRecorder::Identity identity()
{
    CaptureRecorder::Identity id;
    id.stream = QStringLiteral("btc trades/1");
    id.venue = QStringLiteral("binance");
    id.url = RedactedUrl::of(QUrl(QStringLiteral("wss://example.invalid/ws")));
    id.mode = QStringLiteral("parsed");
    return id;
}

constexpr qint64 kT0 = 1'764'543'000'000'000; // 2025-11-30T22:50:00Z in µs

} // namespace

class TestCaptureFormat : public QObject {
    Q_OBJECT
private slots:
    void time_data()
    {
        QTest::addColumn<qint64>("us");
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("epoch") << qint64(0) << QByteArray("1970-01-01T00:00:00.000000Z");
        QTest::newRow("microseconds") << qint64(1'000'001) << QByteArray("1970-01-01T00:00:01.000001Z");
        QTest::newRow("leap day") << qint64(951'782'400'123'456) << QByteArray("2000-02-29T00:00:00.123456Z");
        QTest::newRow("end of a year") << qint64(1'767'225'599'999'999) << QByteArray("2025-12-31T23:59:59.999999Z");
        QTest::newRow("before the epoch is the epoch") << qint64(-5) << QByteArray("1970-01-01T00:00:00.000000Z");
    }
    void time()
    {
        QFETCH(qint64, us);
        QFETCH(QByteArray, text);
        QCOMPARE(capture::formatTime(us), text);
        qint64 back = -1;
        QVERIFY(capture::parseTime(text.constData(), std::size_t(text.size()), &back));
        QCOMPARE(back, std::max<qint64>(us, 0));
    }

    void badTimes()
    {
        qint64 us = 0;
        for (const char *t : {"2025-13-01T00:00:00.000000Z", "2025-11-30 22:50:00.000000Z",
                              "2025-11-30T22:50:00.00000xZ", "2025-11-30T22:50:00.000000"})
            QVERIFY2(!capture::parseTime(t, std::strlen(t), &us), t);
    }

    void lines_data()
    {
        QTest::addColumn<QByteArray>("message");
        QTest::addColumn<bool>("binary");
        QTest::addColumn<QByteArray>("line");
        const QByteArray t = capture::formatTime(kT0);
        QTest::newRow("text as it came") << QByteArray(R"({"e":"aggTrade","p":"1.0"})") << false
                                         << t + R"( {"e":"aggTrade","p":"1.0"})" + '\n';
        QTest::newRow("text with # and = is still text") << QByteArray("#={}") << false << t + " #={}\n";
        QTest::newRow("empty message") << QByteArray() << false << t + " \n";
        QTest::newRow("LF: base64") << QByteArray("a\nb") << false << t + "=YQpi\n";
        QTest::newRow("CR: base64") << QByteArray("a\rbc") << false << t + "=YQ1iYw==\n";
        QTest::newRow("binary frame: base64") << QByteArray("\x00\x01\xff", 3) << true << t + "=AAH/\n";
    }
    void lines()
    {
        QFETCH(QByteArray, message);
        QFETCH(bool, binary);
        QFETCH(QByteArray, line);
        std::string out;
        capture::appendMessageLine(out, kT0, message.constData(), std::size_t(message.size()), binary);
        QCOMPARE(QByteArray::fromStdString(out), line);
        // and back
        CaptureFile file;
        QVERIFY2(file.parse(line), qPrintable(file.errorString()));
        QCOMPARE(file.entries().size(), 1);
        QCOMPARE(file.entries()[0].payload, message);
        QCOMPARE(file.entries()[0].timeUs, kT0);
    }

    void eventLine()
    {
        std::string out;
        capture::appendEventLine(out, kT0, QByteArray(R"({"event":"closed","code":1001})"));
        QCOMPARE(QByteArray::fromStdString(out),
                 capture::formatTime(kT0) + R"(#{"event":"closed","code":1001})" + '\n');
    }

    void fileName()
    {
        QCOMPARE(capture::fileName(QStringLiteral("btc trades/1"), kT0, 0, true),
                 QStringLiteral("btc_trades_1-20251130T225000Z.ndjson.zst"));
        QCOMPARE(capture::fileName(QStringLiteral(".hidden"), kT0, 2, false),
                 QStringLiteral("stream.hidden-20251130T225000Z_2.ndjson"));
    }

    void ringKeepsOrderAcrossTheWrap()
    {
        CaptureRing ring(CaptureRing::kMinCapacity);
        QByteArray payload(1000, 'x');
        int pushed = 0;
        int popped = 0;
        // Push and pop in steps so the records wrap around the end several times.
        for (int round = 0; round < 50; ++round) {
            while (ring.push(CaptureRing::Kind::Text, pushed, payload.constData(), std::size_t(payload.size() - round)))
                ++pushed;
            CaptureRing::Record r;
            for (int i = 0; i < 40 && ring.peek(r); ++i) {
                QCOMPARE(r.timeUs, qint64(popped));
                QCOMPARE(r.kind, CaptureRing::Kind::Text);
                QVERIFY(r.len >= 951 && r.len <= 1000);
                ring.pop();
                ++popped;
            }
        }
        QVERIFY(pushed > 200);
    }

    void ringRefusesWhatDoesNotFit()
    {
        CaptureRing ring(CaptureRing::kMinCapacity);
        const QByteArray big(int(ring.maxPayload() + 1), 'x');
        QVERIFY(!ring.push(CaptureRing::Kind::Text, 0, big.constData(), std::size_t(big.size())));
        const QByteArray fits(int(ring.maxPayload()), 'x');
        QVERIFY(ring.push(CaptureRing::Kind::Text, 0, fits.constData(), std::size_t(fits.size())));
    }

    void recorderWritesAReadableCapture_data()
    {
        QTest::addColumn<bool>("compress");
        QTest::newRow("zstd") << true;
        QTest::newRow("plain") << false;
    }
    void recorderWritesAReadableCapture()
    {
        QFETCH(bool, compress);
        QTemporaryDir dir;
        RecordConfig config;
        config.dir = dir.path();
        config.compress = compress;
        CaptureRecorder recorder(config, identity(), kT0 / 1000);
        recorder.event(kT0, QStringLiteral("connected"), QJsonObject{{QStringLiteral("shard"), 0}});
        recorder.message(kT0 + 1, "{\"a\":1}", 7, false);
        recorder.message(kT0 + 2, "line\r\n", 6, false);
        recorder.message(kT0 + 3, "\x01\x02", 2, true);
        recorder.event(kT0 + 4, QStringLiteral("closed"),
                       QJsonObject{{QStringLiteral("code"), 1001}, {QStringLiteral("reason"), QStringLiteral("bye")}});
        recorder.service(kT0 + 10, 1000);
        recorder.close(kT0 + 20, 1001);
        QVERIFY(recorder.done());

        const QStringList files = capturesIn(dir.path());
        QCOMPARE(files.size(), 1);
        QVERIFY(files[0].endsWith(compress ? QLatin1String(".ndjson.zst") : QLatin1String(".ndjson")));
        CaptureFile file;
        QVERIFY2(file.load(files[0]), qPrintable(file.errorString()));
        QVERIFY(!file.truncated());
        const auto &e = file.entries();
        QCOMPARE(e.size(), 6);
        QCOMPARE(e[0].event, QStringLiteral("capture"));
        const QJsonObject header = QJsonDocument::fromJson(e[0].payload).object();
        QCOMPARE(header.value(QStringLiteral("stream")).toString(), QStringLiteral("btc trades/1"));
        QCOMPARE(header.value(QStringLiteral("venue")).toString(), QStringLiteral("binance"));
        QCOMPARE(header.value(QStringLiteral("mode")).toString(), QStringLiteral("parsed"));
        QCOMPARE(header.value(QStringLiteral("host_clock")).toString(), QStringLiteral("unknown"));
        QCOMPARE(header.value(QStringLiteral("version")).toString(), QStringLiteral(STREAMSCOPE_VERSION));
        QVERIFY(e[0].payload.startsWith(R"({"event":"capture",)"));
        QCOMPARE(e[1].event, QStringLiteral("connected"));
        QCOMPARE(e[2].payload, QByteArray("{\"a\":1}"));
        QCOMPARE(e[2].timeUs, kT0 + 1);
        QCOMPARE(e[3].payload, QByteArray("line\r\n"));
        QVERIFY(e[3].base64);
        QCOMPARE(e[4].payload, QByteArray("\x01\x02"));
        QCOMPARE(e[5].payload, QByteArray(R"({"event":"closed","code":1001,"reason":"bye"})"));

        const RecordStatus s = recorder.status();
        QCOMPARE(s.messages, quint64(3));
        QCOMPARE(s.dropped, quint64(0));
        QCOMPARE(s.errors, quint64(0));
        QCOMPARE(s.files, quint64(1));
        QCOMPARE(s.file, files[0]);
        QCOMPARE(qint64(s.bytesWritten), QFileInfo(files[0]).size());
    }

    void rotationBySize()
    {
        QTemporaryDir dir;
        RecordConfig config;
        config.dir = dir.path();
        config.compress = false;
        config.rotateMb = 1;
        CaptureRecorder recorder(config, identity(), kT0 / 1000);
        const QByteArray message(1000, 'm');
        qint64 steady = 1000;
        for (int i = 0; i < 2600; ++i) {
            recorder.message(kT0 + i, message.constData(), message.size(), false);
            if (i % 100 == 99)
                recorder.service(kT0 + i, steady += 10);
        }
        recorder.close(kT0 + 3000, steady + 10);
        const QStringList files = capturesIn(dir.path());
        QCOMPARE(files.size(), 3);
        int messages = 0;
        for (int i = 0; i < files.size(); ++i) {
            CaptureFile file;
            QVERIFY2(file.load(files[i]), qPrintable(file.errorString()));
            const auto &e = file.entries();
            QCOMPARE(e.first().event, QStringLiteral("capture"));
            const QJsonObject header = QJsonDocument::fromJson(e.first().payload).object();
            QCOMPARE(header.value(QStringLiteral("file_index")).toInt(), i);
            if (i > 0)
                QCOMPARE(header.value(QStringLiteral("previous")).toString(), QFileInfo(files[i - 1]).fileName());
            if (i + 1 < files.size()) {
                QCOMPARE(e.last().event, QStringLiteral("rotated"));
                QCOMPARE(QJsonDocument::fromJson(e.last().payload).object().value(QStringLiteral("next")).toString(),
                         QFileInfo(files[i + 1]).fileName());
                QVERIFY(QFileInfo(files[i]).size() >= 1024 * 1024);
            }
            for (const auto &entry : e)
                if (entry.kind == CaptureFile::Kind::Text) {
                    QCOMPARE(entry.timeUs, kT0 + messages); // in order, none lost across the cut
                    ++messages;
                }
        }
        QCOMPARE(messages, 2600);
        QCOMPARE(recorder.status().messages, quint64(2600));
        QCOMPARE(recorder.status().files, quint64(3));
    }

    void rotationByAge()
    {
        QTemporaryDir dir;
        RecordConfig config;
        config.dir = dir.path();
        config.rotateS = 60;
        CaptureRecorder recorder(config, identity(), kT0 / 1000);
        recorder.message(kT0, "a", 1, false);
        recorder.service(kT0, 1000);
        recorder.message(kT0 + 1, "b", 1, false);
        recorder.service(kT0 + 1, 1000 + 59'999); // not yet
        QCOMPARE(recorder.status().files, quint64(1));
        recorder.message(kT0 + 2, "c", 1, false);
        recorder.service(kT0 + 60'000'000, 1000 + 60'000);
        recorder.close(kT0 + 60'000'001, 1000 + 60'001);
        QCOMPARE(recorder.status().files, quint64(2));
        const QStringList files = capturesIn(dir.path());
        QCOMPARE(files.size(), 2);
        CaptureFile second;
        QVERIFY(second.load(files[1]));
        QCOMPARE(second.entries().first().event, QStringLiteral("capture"));
        QCOMPARE(recorder.status().messages, quint64(3));
    }

    // Rotated files joined with cat read as one capture (zstd frames follow one another).
    void concatenatedFilesReadAsOne()
    {
        QTemporaryDir dir;
        RecordConfig config;
        config.dir = dir.path();
        config.rotateS = 1;
        CaptureRecorder recorder(config, identity(), kT0 / 1000);
        recorder.message(kT0, "one", 3, false);
        recorder.service(kT0, 1000);
        recorder.message(kT0 + 1, "two", 3, false);
        recorder.service(kT0 + 1'000'000, 2000); // rotates
        recorder.close(kT0 + 1'000'001, 2001);
        QByteArray joined;
        for (const QString &name : capturesIn(dir.path())) {
            QFile f(name);
            QVERIFY(f.open(QIODevice::ReadOnly));
            joined += f.readAll();
        }
        CaptureFile file;
        QVERIFY2(file.parse(joined), qPrintable(file.errorString()));
        QVERIFY(!file.truncated());
        QStringList kinds;
        for (const auto &e : file.entries())
            kinds << (e.kind == CaptureFile::Kind::Event ? e.event : QString::fromUtf8(e.payload));
        QCOMPARE(kinds,
                 (QStringList{QStringLiteral("capture"), QStringLiteral("one"), QStringLiteral("two"),
                              QStringLiteral("rotated"), QStringLiteral("capture")}));
    }

    void truncatedFileReadsUpToItsLastBlock()
    {
        QTemporaryDir dir;
        RecordConfig config;
        config.dir = dir.path();
        CaptureRecorder recorder(config, identity(), kT0 / 1000);
        for (int i = 0; i < 100; ++i)
            recorder.message(kT0 + i, "{\"n\":1}", 7, false);
        recorder.service(kT0 + 100, 1000);
        recorder.service(kT0 + 100, 2000); // flushed: a complete zstd block
        QFile f(recorder.status().file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray flushed = f.readAll();
        // The frame is not ended: a reader sees a cut file, all of whose lines are there.
        CaptureFile file;
        QVERIFY2(file.parse(flushed), qPrintable(file.errorString()));
        QVERIFY(file.truncated());
        QCOMPARE(file.entries().size(), 101);
        // Cut inside the block too: still no error, fewer lines.
        CaptureFile cut;
        QVERIFY2(cut.parse(flushed.left(flushed.size() - 3)), qPrintable(cut.errorString()));
        QVERIFY(cut.entries().size() <= 101);
        recorder.close(kT0 + 200, 3000);
    }
};

STREAMSCOPE_TEST_GUILESS_MAIN(TestCaptureFormat)
#include "tst_captureformat.moc"
