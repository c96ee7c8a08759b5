// The capture server (`streamscope-replay --file`) seen by a plain websocket client: the
// recorded spacing divided by the speed, a recorded close reproduced with its code and reason
// and the next connection going on after it, binary frames, and --loop; what the reading
// finds wrong reported once; a client that stops reading left behind while another is served,
// with the capture's window bounded.
#include "../common/TestRegistry.h"
#include "../common/TimeFactor.h"
#include "CaptureFile.h"
#include "CaptureServer.h"
#include "CaptureWindow.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QTemporaryDir>
#include <QtNetwork/QTcpSocket>
#include <QtTest/QtTest>
#include <QtWebSockets/QWebSocket>

using namespace streamscope::replay;
using streamscope::testing::scaledMs;

namespace {

// A capture with three messages 300 ms apart, a close (1001 "bye"), then two more messages
// (one a binary frame, one text holding CR LF).
QByteArray captureWithAClose()
{
    return QByteArray(
        "2026-11-30T10:00:00.000000Z#{\"event\":\"capture\",\"venue\":\"generic\",\"url\":\"ws://x/\"}\n"
        "2026-11-30T10:00:00.000000Z {\"n\":1}\n"
        "2026-11-30T10:00:00.300000Z {\"n\":2}\n"
        "2026-11-30T10:00:00.600000Z {\"n\":3}\n"
        "2026-11-30T10:00:00.700000Z#{\"event\":\"closed\",\"code\":1001,\"reason\":\"bye\",\"shard\":0}\n"
        "2026-11-30T10:00:00.800000Z#{\"event\":\"reconnect\",\"delay_ms\":100}\n"
        "2026-11-30T10:00:01.000000Z=AAH/\n"
        "2026-11-30T10:00:01.000001Z=YQ0KYg==\n");
}

struct Client {
    QWebSocket socket;
    QList<QByteArray> received;
    QList<bool> binary;
    QElapsedTimer clock;
    QList<qint64> atMs;

    explicit Client(quint16 port)
    {
        QObject::connect(&socket, &QWebSocket::textMessageReceived, [this](const QString &m) {
            received << m.toUtf8();
            binary << false;
            atMs << clock.elapsed();
        });
        QObject::connect(&socket, &QWebSocket::binaryMessageReceived, [this](const QByteArray &m) {
            received << m;
            binary << true;
            atMs << clock.elapsed();
        });
        clock.start();
        socket.open(QUrl(QStringLiteral("ws://127.0.0.1:%1/").arg(port)));
    }
};

QString writeFile(const QTemporaryDir &dir, const QByteArray &bytes)
{
    const QString path = dir.filePath(QStringLiteral("capture.ndjson"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
        return QString();
    return path;
}

} // namespace

class TestCaptureServer : public QObject {
    Q_OBJECT
private slots:
    void pacedCloseAndReconnect_data()
    {
        QTest::addColumn<double>("speed");
        QTest::addColumn<int>("atLeastMs"); // the recorded 600 ms divided by the speed, less a margin
        QTest::newRow("recorded pace") << 1.0 << 550;
        QTest::newRow("ten times faster") << 10.0 << 55;
    }
    void pacedCloseAndReconnect()
    {
        QFETCH(double, speed);
        QFETCH(int, atLeastMs);
        CaptureServer::Options options;
        options.speed = speed;
        CaptureServer server(options);
        QVERIFY2(server.open(writeFile(m_dir, captureWithAClose())), qPrintable(server.errorString()));
        QVERIFY(server.listen());
        Client first(server.port());
        QSignalSpy closed(&first.socket, &QWebSocket::disconnected);
        QVERIFY(closed.wait(scaledMs(10000)));
        QCOMPARE(first.received, (QList<QByteArray>{"{\"n\":1}", "{\"n\":2}", "{\"n\":3}"}));
        QVERIFY2(first.atMs.last() - first.atMs.first() >= atLeastMs,
                 qPrintable(QString::number(first.atMs.last() - first.atMs.first())));
        QCOMPARE(int(first.socket.closeCode()), 1001);
        QCOMPARE(first.socket.closeReason(), QStringLiteral("bye"));

        // The next connection goes on after the close.
        Client second(server.port());
        QTRY_COMPARE_WITH_TIMEOUT(second.received.size(), 2, scaledMs(10000));
        QCOMPARE(second.received[0], QByteArray("\x00\x01\xff", 3));
        QCOMPARE(second.binary[0], true);
        QCOMPARE(second.received[1], QByteArray("a\r\nb"));
        QCOMPARE(second.binary[1], false); // text that held CR LF goes back as text
        QTest::qWait(100);
        QCOMPARE(second.received.size(), 2); // the end: quiet, still open
        QCOMPARE(second.socket.state(), QAbstractSocket::ConnectedState);
        QCOMPARE(server.totalSent(), quint64(5));
    }

    void loopStartsOver()
    {
        CaptureServer::Options options;
        options.speed = 0;
        options.loop = true;
        CaptureServer server(options);
        QVERIFY(server.open(
            writeFile(m_dir, "2026-11-30T10:00:00.000000Z {\"n\":1}\n2026-11-30T10:00:00.000001Z {\"n\":2}\n")));
        QVERIFY(server.listen());
        Client client(server.port());
        QTRY_VERIFY_WITH_TIMEOUT(client.received.size() >= 7, scaledMs(10000));
        for (int i = 0; i < 7; ++i)
            QCOMPARE(client.received[i], i % 2 ? QByteArray("{\"n\":2}") : QByteArray("{\"n\":1}"));
    }

    void badCaptures_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("error");
        QTest::newRow("no time") << QByteArray("hello\n")
                                 << QStringLiteral("line 1: expected a capture line starting with a UTC time");
        QTest::newRow("bad separator") << QByteArray("2026-11-30T10:00:00.000000Z!x\n")
                                       << QStringLiteral("line 1: expected ' ', '=' or '#' after the time");
        QTest::newRow("bad base64") << QByteArray("2026-11-30T10:00:00.000000Z {}\n2026-11-30T10:00:00.000000Z=*\n")
                                    << QStringLiteral("line 2: not valid base64");
    }
    void badCaptures()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, error);
        CaptureFile file;
        QVERIFY(!file.parse(bytes));
        QCOMPARE(file.errorString(), error);
    }

    // A line that is not a capture line and a last line without its end, served three times
    // with --loop: each problem is reported once, naming the file.
    void problemsAreReportedOnce()
    {
        const QString path = writeFile(m_dir,
                                       "2026-11-30T10:00:00.000000Z {\"n\":1}\n"
                                       "garbage\n"
                                       "2026-11-30T10:00:00.000001Z {\"n\":2}\n"
                                       "2026-11-30T10:00:00.000002Z {\"n\":3");
        CaptureServer::Options options;
        options.speed = 0;
        options.loop = true;
        CaptureServer server(options);
        QSignalSpy problems(&server, &CaptureServer::problem);
        QVERIFY(server.open(path));
        QVERIFY(server.listen());
        Client client(server.port());
        QTRY_VERIFY_WITH_TIMEOUT(client.received.size() >= 6, scaledMs(10000));
        QCOMPARE(client.received.mid(0, 4), (QList<QByteArray>{"{\"n\":1}", "{\"n\":2}", "{\"n\":1}", "{\"n\":2}"}));
        QCOMPARE(problems.size(), 2);
        QCOMPARE(problems[0][0].toString(),
                 path
                     + QStringLiteral(": 1 line skipped, the first: line 2: expected a capture line starting with a "
                                      "UTC time"));
        QCOMPARE(problems[1][0].toString(),
                 path + QStringLiteral(": cut short, inside its last line: served up to its last complete line"));
    }

    // A line client that stops reading holds its socket's 4 MiB and no more: another client
    // is served the rest of the capture (96 MiB) while the window holds at most its bound. When
    // the first reads again it goes on from the oldest entry kept, and that it skipped is said.
    void aClientThatStopsReadingIsLeftBehind()
    {
        const QByteArray header =
            "2026-11-30T10:00:00.000000Z#{\"event\":\"capture\",\"venue\":\"betfair\",\"url\":\"tls://h:1\"}\n";
        const QByteArray line = "2026-11-30T10:00:00.000000Z " + QByteArray(1024 - 29, 'x') + '\n';
        const QByteArray megabyte = line.repeated(1024);
        const QString path = m_dir.filePath(QStringLiteral("large.ndjson"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(header);
            for (int i = 0; i < 96; ++i)
                QCOMPARE(f.write(megabyte), megabyte.size());
            f.write("2026-11-30T10:00:00.000000Z the end\n");
        }
        CaptureServer::Options options;
        options.speed = 0;
        CaptureServer server(options);
        QSignalSpy problems(&server, &CaptureServer::problem);
        QVERIFY(server.open(path));
        QVERIFY(server.listen());
        QTcpSocket idle;
        idle.setReadBufferSize(1); // one byte, then the kernel's buffers fill and stay full
        idle.connectToHost(QHostAddress::LocalHost, server.port());
        QVERIFY(idle.waitForConnected(scaledMs(5000)));
        QTRY_VERIFY_WITH_TIMEOUT(server.totalSent() > 0, scaledMs(5000));

        QTcpSocket reader;
        QByteArray tail;
        qint64 maxHeld = 0;
        connect(&reader, &QTcpSocket::readyRead, this, [&] {
            tail = (tail + reader.readAll()).right(64);
            maxHeld = std::max(maxHeld, server.window().heldBytes());
        });
        reader.connectToHost(QHostAddress::LocalHost, server.port());
        QTRY_VERIFY_WITH_TIMEOUT(tail.endsWith("the end\r\n"), scaledMs(60000));
        QVERIFY2(maxHeld <= CaptureWindow::kMaxWindowBytes + 2 * line.size(), qPrintable(QString::number(maxHeld)));
        QVERIFY(maxHeld > CaptureWindow::kMaxWindowBytes / 2); // the idle client held it back
        // The skip is said when the idle client is next given a message: when it reads again,
        // or earlier, when the kernel takes a few more of its bytes (its send buffer grows as
        // TCP tunes it, sooner on a busy machine). Either way, once.
        QVERIFY2(problems.size() <= 1, qPrintable(QString::number(problems.size())));

        QByteArray idleTail;
        connect(&idle, &QTcpSocket::readyRead, this, [&] { idleTail = (idleTail + idle.readAll()).right(64); });
        idle.setReadBufferSize(0);
        idleTail = idle.readAll();
        QTRY_VERIFY_WITH_TIMEOUT(idleTail.endsWith("the end\r\n"), scaledMs(60000));
        QCOMPARE(problems.size(), 1);
        QCOMPARE(problems[0][0].toString(),
                 path + QStringLiteral(": a client fell more than 64 MiB behind the others: it skipped messages"));
    }

private:
    QTemporaryDir m_dir;
};

STREAMSCOPE_TEST_GUILESS_MAIN(TestCaptureServer)
#include "tst_captureserver.moc"
