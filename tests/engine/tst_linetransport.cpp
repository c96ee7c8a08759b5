// LineTransport against a real TCP peer on 127.0.0.1 (a QTcpServer the test writes through): a
// sink records the lines it is handed, as views of where they lie, through lines cut across
// reads, an oversized line, the peer's close, a refused connection and an abort from the sink.

#include "../common/TestRegistry.h"
#include "../common/TimeFactor.h"
#include "model/StreamConfig.h"
#include "protocol/ReceiveBuffer.h"
#include "transport/LineTransport.h"

#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>
#include <QtTest/QtTest>

#include <functional>

using namespace streamscope;
using streamscope::testing::scaledMs;

namespace {

class LineRecordingSink final : public MessageSink {
public:
    explicit LineRecordingSink(ReceiveBuffer &buffer)
        : m_buffer(buffer)
    {
    }

    void onMessage(ReceivedMessage &message) override
    {
        const MessageView w = message.whole();
        lines << QByteArray(w.data, w.size);
        // A line is viewed where it lies, outside the receive buffer; padded() copies it there.
        inReceiveBuffer << (w.data >= m_buffer.data() && w.data < m_buffer.data() + m_buffer.allocated());
        const MessageView p = message.padded();
        paddedCopies << (p.padded && QByteArray(p.data, p.size) == lines.last() && p.data == m_buffer.data());
        binary << message.binary();
        if (onEach)
            onEach(int(lines.size()));
    }

    QByteArrayList lines;
    QList<bool> inReceiveBuffer;
    QList<bool> paddedCopies;
    QList<bool> binary;
    std::function<void(int)> onEach;

private:
    ReceiveBuffer &m_buffer;
};

StreamConfig tcpConfig(quint16 port, qsizetype maxMessageBytes = 16 * 1024 * 1024)
{
    StreamConfig c;
    c.name = QStringLiteral("lines");
    c.url = QUrl(QStringLiteral("tcp://127.0.0.1:%1").arg(port));
    c.maxMessageBytes = maxMessageBytes;
    return c;
}

// A line server: its first connection is `socket`.
struct Peer {
    Peer()
    {
        QObject::connect(&server, &QTcpServer::newConnection, [this] { socket = server.nextPendingConnection(); });
    }
    bool listen() { return server.listen(QHostAddress::LocalHost, 0); }
    QTcpServer server;
    QTcpSocket *socket = nullptr;
};

// One transport connected to a peer.
struct LineRig {
    explicit LineRig(qsizetype maxMessageBytes = 16 * 1024 * 1024)
    {
        if (!peer.listen())
            return;
        config = tcpConfig(peer.server.serverPort(), maxMessageBytes);
        transport = std::make_unique<LineTransport>(config, buffer, sink);
    }
    // Opens and waits for both ends.
    bool connect()
    {
        QSignalSpy connected(transport.get(), &Transport::connected);
        transport->open();
        return connected.wait(scaledMs(5000))
            && QTest::qWaitFor([this] { return peer.socket != nullptr; }, scaledMs(5000));
    }

    Peer peer;
    StreamConfig config;
    ReceiveBuffer buffer;
    LineRecordingSink sink{buffer};
    std::unique_ptr<LineTransport> transport;
};

} // namespace

class TestLineTransport : public QObject {
    Q_OBJECT
private slots:
    void deliversEveryLine_data();
    void deliversEveryLine();
    void lineCutAcrossReads_data();
    void lineCutAcrossReads();
    void sendsTextAsOneLine();
    void oversizedLineClosesTheConnection();
    void peerCloseIsReported();
    void refusedConnectionIsReported();
    void abortFromTheSinkEndsEverything();
};

void TestLineTransport::deliversEveryLine_data()
{
    QTest::addColumn<QByteArray>("written");
    QTest::addColumn<QByteArrayList>("lines");
    QTest::newRow("one line") << QByteArray("{\"op\":\"mcm\"}\r\n") << QByteArrayList{"{\"op\":\"mcm\"}"};
    QTest::newRow("three in one write") << QByteArray("{\"a\":1}\r\n{\"b\":2}\r\n{\"c\":3}\r\n")
                                        << QByteArrayList{"{\"a\":1}", "{\"b\":2}", "{\"c\":3}"};
    QTest::newRow("bare LF ends a line too")
        << QByteArray("{\"a\":1}\n{\"b\":2}\r\n") << QByteArrayList{"{\"a\":1}", "{\"b\":2}"};
    QTest::newRow("empty lines skipped") << QByteArray("\r\n\r\n{\"a\":1}\r\n\n") << QByteArrayList{"{\"a\":1}"};
    QTest::newRow("a CR inside a line stays") << QByteArray("a\rb\r\n") << QByteArrayList{"a\rb"};
    const QByteArray big = "{\"p\":\"" + QByteArray(1024 * 1024, 'x') + "\"}";
    QTest::newRow("1 MiB, more than one read") << big + "\r\n" << QByteArrayList{big};
}

// Each line is handed once, exactly, as a view of where it lies; the decoder's copy into the
// receive buffer happens only when asked for (padded()).
void TestLineTransport::deliversEveryLine()
{
    QFETCH(QByteArray, written);
    QFETCH(QByteArrayList, lines);
    LineRig rig;
    QVERIFY(rig.connect());
    rig.peer.socket->write(written);
    QTRY_COMPARE_WITH_TIMEOUT(rig.sink.lines.size(), lines.size(), scaledMs(10000));
    QCOMPARE(rig.sink.lines, lines);
    for (int i = 0; i < lines.size(); ++i) {
        QVERIFY(!rig.sink.inReceiveBuffer.at(i));
        QVERIFY(rig.sink.paddedCopies.at(i));
        QVERIFY(!rig.sink.binary.at(i));
    }
    QTRY_COMPARE_WITH_TIMEOUT(rig.transport->unreadBytes(), qint64(0), scaledMs(5000));
}

void TestLineTransport::lineCutAcrossReads_data()
{
    QTest::addColumn<QByteArray>("first");  // written first; holds one complete line
    QTest::addColumn<QByteArray>("second"); // written once that line arrived
    QTest::addColumn<QByteArrayList>("lines");
    QTest::newRow("in the middle of a line")
        << QByteArray("a\r\n{\"x\":") << QByteArray("1}\r\nb\r\n") << QByteArrayList{"a", "{\"x\":1}", "b"};
    QTest::newRow("between CR and LF") << QByteArray("a\r\n{\"x\":1}\r") << QByteArray("\n")
                                       << QByteArrayList{"a", "{\"x\":1}"};
    QTest::newRow("right after a line") << QByteArray("a\r\n") << QByteArray("{\"x\":1}\r\n")
                                        << QByteArrayList{"a", "{\"x\":1}"};
}

// A line cut across reads is assembled whole (in the framer's buffer) and handed once.
void TestLineTransport::lineCutAcrossReads()
{
    QFETCH(QByteArray, first);
    QFETCH(QByteArray, second);
    QFETCH(QByteArrayList, lines);
    LineRig rig;
    QVERIFY(rig.connect());
    rig.peer.socket->write(first);
    QTRY_COMPARE_WITH_TIMEOUT(rig.sink.lines.size(), 1, scaledMs(5000)); // the first read is in
    rig.peer.socket->write(second);
    QTRY_COMPARE_WITH_TIMEOUT(rig.sink.lines.size(), lines.size(), scaledMs(5000));
    QCOMPARE(rig.sink.lines, lines);
    QVERIFY(rig.sink.paddedCopies.last());
}

void TestLineTransport::sendsTextAsOneLine()
{
    LineRig rig;
    QVERIFY(rig.transport);
    QVERIFY(!rig.transport->sendText(QStringLiteral("{}"))); // not connected yet
    QVERIFY(rig.connect());
    QVERIFY(!rig.transport->hasPing());
    QVERIFY(!rig.transport->ping());
    QVERIFY(rig.transport->sendText(QStringLiteral("{\"op\":\"heartbeat\",\"s\":\"\u00e9\"}")));
    QByteArray received;
    QTRY_VERIFY_WITH_TIMEOUT((received += rig.peer.socket->readAll()).endsWith("\r\n"), scaledMs(5000));
    QCOMPARE(received, QByteArray("{\"op\":\"heartbeat\",\"s\":\"\xc3\xa9\"}\r\n"));
}

// A line that grows past the stream's maximum closes the connection with that reason, before
// its end has arrived; the lines before it were delivered.
void TestLineTransport::oversizedLineClosesTheConnection()
{
    LineRig rig(100);
    QVERIFY(rig.connect());
    QSignalSpy disconnected(rig.transport.get(), &Transport::disconnected);
    rig.peer.socket->write(QByteArray(100, 'a') + "\r\n" + QByteArray(150, 'b'));
    QTRY_COMPARE_WITH_TIMEOUT(disconnected.size(), 1, scaledMs(5000));
    QCOMPARE(disconnected.first().at(0).toInt(), 0);
    QCOMPARE(disconnected.first().at(1).toString(), QStringLiteral("message larger than 100 bytes"));
    QCOMPARE(rig.sink.lines, QByteArrayList{QByteArray(100, 'a')});
    QCOMPARE(rig.transport->unreadBytes(), qint64(-1));
}

void TestLineTransport::peerCloseIsReported()
{
    LineRig rig;
    QVERIFY(rig.connect());
    QSignalSpy disconnected(rig.transport.get(), &Transport::disconnected);
    rig.peer.socket->write("{\"a\":1}\r\n");
    rig.peer.socket->disconnectFromHost();
    QTRY_COMPARE_WITH_TIMEOUT(disconnected.size(), 1, scaledMs(5000));
    QCOMPARE(disconnected.first().at(0).toInt(), 0);
    QCOMPARE(disconnected.first().at(1).toString(), QStringLiteral("The remote host closed the connection"));
    QCOMPARE(rig.sink.lines, QByteArrayList{"{\"a\":1}"}); // what came before the close was delivered
}

void TestLineTransport::refusedConnectionIsReported()
{
    quint16 port = 0;
    {
        QTcpServer closed;
        QVERIFY(closed.listen(QHostAddress::LocalHost, 0));
        port = closed.serverPort();
    } // nothing listens there now
    const StreamConfig config = tcpConfig(port);
    ReceiveBuffer buffer;
    LineRecordingSink sink(buffer);
    LineTransport transport(config, buffer, sink);
    QSignalSpy connected(&transport, &Transport::connected);
    QSignalSpy disconnected(&transport, &Transport::disconnected);
    transport.open();
    QTRY_COMPARE_WITH_TIMEOUT(disconnected.size(), 1, scaledMs(5000));
    QCOMPARE(disconnected.first().at(0).toInt(), 0);
    QVERIFY2(disconnected.first().at(1).toString().contains(QLatin1String("refused"), Qt::CaseInsensitive),
             qPrintable(disconnected.first().at(1).toString()));
    QCOMPARE(connected.size(), 0);
}

// A sink may abort the transport from inside a line (a stop): the lines behind it in the same
// read are not delivered, and no signal follows, not even for the peer's close.
void TestLineTransport::abortFromTheSinkEndsEverything()
{
    LineRig rig;
    QVERIFY(rig.connect());
    LineTransport *transport = rig.transport.get();
    rig.sink.onEach = [transport](int) { transport->abort(); };
    QSignalSpy disconnected(transport, &Transport::disconnected);
    QSignalSpy peerGone(rig.peer.socket, &QTcpSocket::disconnected);
    rig.peer.socket->write("{\"n\":0}\r\n{\"n\":1}\r\n{\"n\":2}\r\n");
    QTRY_COMPARE_WITH_TIMEOUT(peerGone.size(), 1, scaledMs(5000)); // the abort reached the peer
    QCoreApplication::processEvents();
    QCOMPARE(rig.sink.lines, QByteArrayList{"{\"n\":0}"});
    QCOMPARE(disconnected.size(), 0);
    QCOMPARE(transport->unreadBytes(), qint64(-1));
    QVERIFY(!transport->sendText(QStringLiteral("{}")));
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestLineTransport)
#include "tst_linetransport.moc"
