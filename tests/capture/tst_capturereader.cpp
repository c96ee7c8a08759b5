// The capture reader shared by the replay server and File → Open capture (engine/model/
// CaptureReader): line by line from zstd or plain files, with bounded memory, a file cut short
// and malformed lines; and the capture analysis built on it (engine/api/CaptureAnalysis).
#include "../common/TestRegistry.h"
#include "CaptureAnalysis.h"
#include "CaptureReader.h"

#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest/QTest>

#include <zstd.h>

using namespace streamscope;
using namespace streamscope::capture;

namespace {

const QByteArray kTime = QByteArrayLiteral("2026-11-30T22:49:13.123456Z");
constexpr qint64 kTimeUs = 1'796'078'953'123'456;

QByteArray zstd(const QByteArray &text)
{
    QByteArray out(qsizetype(ZSTD_compressBound(std::size_t(text.size()))), Qt::Uninitialized);
    const std::size_t n =
        ZSTD_compress(out.data(), std::size_t(out.size()), text.constData(), std::size_t(text.size()), 1);
    out.resize(qsizetype(n));
    return out;
}

} // namespace

class tst_CaptureReader : public QObject {
    Q_OBJECT
private slots:
    void init() { QVERIFY(m_dir.isValid()); }
    void parsesTheThreeKinds();
    void readsZstdAndPlainAlike_data();
    void readsZstdAndPlainAlike();
    void skipsMalformedAndOverlongLines();
    void plainFileCutShort();
    void analysisCountsLatencyAndEvents();
    void cancelStopsALineThatNeverEnds();
    void analysisBoundsAHostileFile();

private:
    QString write(const QString &name, const QByteArray &bytes)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
            return {};
        return path;
    }
    QTemporaryDir m_dir;
};

void tst_CaptureReader::parsesTheThreeKinds()
{
    CaptureLine line;
    const QByteArray text = kTime + " {\"a\":1}";
    QCOMPARE(parseLine(text.constData(), std::size_t(text.size()), &line), LineError::None);
    QCOMPARE(line.kind, CaptureLine::Kind::Text);
    QCOMPARE(line.timeUs, kTimeUs);
    QCOMPARE(line.payload, QByteArray("{\"a\":1}"));
    const QByteArray binary = kTime + "=AAEC";
    QCOMPARE(parseLine(binary.constData(), std::size_t(binary.size()), &line), LineError::None);
    QCOMPARE(line.kind, CaptureLine::Kind::Binary);
    QCOMPARE(line.payload, QByteArray("\x00\x01\x02", 3));
    const QByteArray event = kTime + "#{\"event\":\"gap\"}";
    QCOMPARE(parseLine(event.constData(), std::size_t(event.size()), &line), LineError::None);
    QCOMPARE(line.kind, CaptureLine::Kind::Event);
    const QByteArray noTime = "hello world, not a capture line at all";
    QCOMPARE(parseLine(noTime.constData(), std::size_t(noTime.size()), &line), LineError::Time);
    const QByteArray separator = kTime + "!x";
    QCOMPARE(parseLine(separator.constData(), std::size_t(separator.size()), &line), LineError::Separator);
    const QByteArray base64 = kTime + "=**";
    QCOMPARE(parseLine(base64.constData(), std::size_t(base64.size()), &line), LineError::Base64);
    QCOMPARE(parseLine(kTime.constData(), std::size_t(kTime.size()), &line), LineError::Time); // no separator
}

void tst_CaptureReader::readsZstdAndPlainAlike_data()
{
    QTest::addColumn<bool>("compress");
    QTest::newRow("plain") << false;
    QTest::newRow("zstd") << true;
}

void tst_CaptureReader::readsZstdAndPlainAlike()
{
    QFETCH(bool, compress);
    // Many lines, some longer than a zstd output buffer and than a read chunk.
    QByteArray text;
    QList<QByteArray> expected;
    for (int i = 0; i < 3000; ++i) {
        const QByteArray body = i % 500 == 7 ? QByteArray(3 << 20, 'x') : "{\"i\":" + QByteArray::number(i) + "}";
        expected << body;
        text += kTime + ' ' + body + '\n';
    }
    const QString path = write(QStringLiteral("many"), compress ? zstd(text) : text);
    QVERIFY(!path.isEmpty());
    CaptureReader reader;
    QVERIFY(reader.open(path));
    QCOMPARE(reader.isCompressed(), compress);
    CaptureLine line;
    int n = 0;
    while (reader.next(&line)) {
        QVERIFY(n < expected.size());
        QVERIFY2(line.payload == expected[n], qPrintable(QString::number(n)));
        ++n;
    }
    QCOMPARE(n, expected.size());
    QVERIFY(reader.errorString().isEmpty());
    QVERIFY(!reader.truncated());
    QCOMPARE(reader.malformedLines(), quint64(0));
    QCOMPARE(reader.fileBytesRead(), reader.fileSize());
}

void tst_CaptureReader::skipsMalformedAndOverlongLines()
{
    QByteArray text = kTime + " a\n" + "garbage\n" + kTime + ' ' + QByteArray(5000, 'y') + '\n' + kTime + " b\n";
    const QString path = write(QStringLiteral("bad"), text);
    CaptureReader reader;
    QVERIFY(reader.open(path, 1000)); // a line longer than 1000 bytes is skipped
    CaptureLine line;
    QStringList got;
    while (reader.next(&line))
        got << QString::fromLatin1(line.payload);
    QCOMPARE(got, QStringList({QStringLiteral("a"), QStringLiteral("b")}));
    QCOMPARE(reader.malformedLines(), quint64(2));
    QVERIFY2(reader.firstMalformed().startsWith(QLatin1String("line 2: ")), qPrintable(reader.firstMalformed()));
    QVERIFY(!reader.truncated());
}

void tst_CaptureReader::plainFileCutShort()
{
    const QString path = write(QStringLiteral("cut"), kTime + " a\n" + kTime + " {\"half");
    CaptureReader reader;
    QVERIFY(reader.open(path));
    CaptureLine line;
    QVERIFY(reader.next(&line));
    QVERIFY(!reader.next(&line));
    QVERIFY(reader.truncated());
    QVERIFY(reader.errorString().isEmpty());

    CaptureReader none;
    QVERIFY(!none.open(m_dir.filePath(QStringLiteral("missing"))));
    QVERIFY(!none.errorString().isEmpty());
}

void tst_CaptureReader::analysisCountsLatencyAndEvents()
{
    // A generic stream whose own event-time field is named in the header (µs here).
    QByteArray text = kTime
        + "#{\"event\":\"capture\",\"latency_field\":\"/t\",\"latency_unit\":\"us\",\"mode\":\"parsed\","
          "\"stream\":\"s\",\"venue\":\"generic\"}\n";
    for (int i = 0; i < 10; ++i)
        text += kTime + " {\"t\":" + QByteArray::number(kTimeUs - 2000) + "}\n"; // 2 ms late
    text += kTime + " not json\n";
    text += kTime + "#{\"event\":\"gap\",\"text\":\"x\"}\n";
    const QString path = write(QStringLiteral("generic.ndjson.zst"), zstd(text));
    const CaptureAnalysis a = analyzeCapture(path);
    QVERIFY2(a.ok, qPrintable(a.error));
    QCOMPARE(a.stream, QStringLiteral("s"));
    QCOMPARE(a.messages, quint64(11));
    QCOMPARE(a.parseErrors, quint64(1));
    QCOMPARE(a.latency.count, quint64(10));
    QVERIFY(a.latency.percentileUs(0.5) >= 2000 && a.latency.percentileUs(0.5) <= 2100);
    QCOMPARE(a.gaps, quint64(1));
    QCOMPARE(a.events.size(), 2);
    QCOMPARE(a.lastMessages.size(), 11);

    // Bounds: the kept messages and events are capped, the rest counted.
    CaptureAnalysisOptions small;
    small.maxMessages = 4;
    small.maxEvents = 1;
    const CaptureAnalysis b = analyzeCapture(path, small);
    QCOMPARE(b.lastMessages.size(), 4);
    QCOMPARE(b.messagesLeftOut, quint64(7));
    QCOMPARE(b.events.size(), 1);
    QCOMPARE(b.eventsLeftOut, quint64(1));
    QCOMPARE(b.latency.count, quint64(10)); // counted whatever is kept

    const CaptureAnalysis notCapture = analyzeCapture(write(QStringLiteral("t.txt"), "hello\n"));
    QVERIFY(!notCapture.ok);
    QVERIFY2(notCapture.error.contains(QLatin1String("not a capture")), qPrintable(notCapture.error));
}

// A file with no line end (a log picked with "All files", a zstd bomb): a cancel stops the
// reading between two chunks, and a device that never ends is refused at once.
void tst_CaptureReader::cancelStopsALineThatNeverEnds()
{
    const QString path = write(QStringLiteral("endless"), QByteArray(6 * 1024 * 1024, 'x'));
    std::atomic<bool> cancel{false};
    CaptureReader reader;
    reader.setCancel(&cancel);
    QVERIFY(reader.open(path, 1024));
    cancel.store(true);
    CaptureLine line;
    QVERIFY(!reader.next(&line));
    QCOMPARE(reader.errorString(), path + QStringLiteral(": cancelled"));
    QVERIFY(reader.fileBytesRead() < 6 * 1024 * 1024); // not read to its end

#ifdef Q_OS_UNIX
    CaptureReader device;
    QVERIFY(!device.open(QStringLiteral("/dev/zero")));
    QCOMPARE(device.errorString(), QStringLiteral("/dev/zero: expected a regular file, found a character device"));
#endif
}

// Events of 60 KB each and a message larger than all the room for kept messages: the events
// past 8 MiB are kept by name only, the large message is counted but not kept.
void tst_CaptureReader::analysisBoundsAHostileFile()
{
    QByteArray text;
    const QByteArray pad(60 * 1024, 'A');
    for (int i = 0; i < 200; ++i)
        text += kTime + "#{\"event\":\"x\",\"pad\":\"" + pad + "\"}\n";
    text += kTime + ' ' + QByteArray(3000, 'm') + '\n';
    text += kTime + " small\n";
    const QString path = write(QStringLiteral("hostile.ndjson.zst"), zstd(text));
    CaptureAnalysisOptions options;
    options.maxMessageBytes = 1000;
    const CaptureAnalysis a = analyzeCapture(path, options);
    QVERIFY2(a.ok, qPrintable(a.error));
    QCOMPARE(a.events.size(), 200);
    qint64 eventBytes = 0;
    for (const CaptureEvent &e : a.events) {
        QCOMPARE(e.name, QStringLiteral("x"));
        eventBytes += e.json.size();
    }
    QVERIFY2(eventBytes <= 8 * 1024 * 1024, qPrintable(QString::number(eventBytes)));
    QVERIFY(a.events.last().json.size() < 100); // by name only
    QCOMPARE(a.messages, quint64(2));
    QCOMPARE(a.lastMessages.size(), 1);
    QCOMPARE(a.lastMessages.first().text, QByteArray("small"));
    QCOMPARE(a.messagesLeftOut, quint64(1));
}

STREAMSCOPE_TEST_GUILESS_MAIN(tst_CaptureReader)
#include "tst_capturereader.moc"
