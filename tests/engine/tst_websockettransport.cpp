// WebSocketTransport against real peers on 127.0.0.1: a QWebSocketServer for what a correct
// server sends, and a raw TCP peer that answers the handshake itself and then writes frame
// bytes when the test says, for what QWebSocketServer cannot send (a frame cut across reads,
// invalid UTF-8). A sink records what the transport hands it: the message's views (head,
// whole, padded), where they lie, and nothing after an abort.

#include "../common/TimeFactor.h"
#include "model/StreamConfig.h"
#include "protocol/ReceiveBuffer.h"
#include "transport/WebSocketTransport.h"

#include <QtCore/QCryptographicHash>
#include <QtCore/QtEndian>
#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>
#include <QtTest/QtTest>
#include <QtWebSockets/QWebSocket>
#include <QtWebSockets/QWebSocketServer>

#include <functional>

using namespace streamscope;
using streamscope::testing::scaledMs;

namespace {

// What the sink saw of one message.
struct Seen {
    qsizetype length = 0; // ReceivedMessage::length()
    bool binary = false;
    QByteArray head; // head(headBytes), when asked for
    qsizetype headMessageBytes = 0;
    bool headPadded = false;
    QByteArray whole;
    bool wholePadded = false;
    QByteArray padded; // padded(): the same bytes, in the receive buffer
    bool paddedInBuffer = false;
};

class RecordingSink final : public MessageSink {
public:
    explicit RecordingSink(ReceiveBuffer &buffer)
        : m_buffer(buffer)
    {
    }

    void onMessage(ReceivedMessage &message) override
    {
        Seen s;
        s.length = message.length();
        s.binary = message.binary();
        if (headBytes > 0) {
            const MessageView h = message.head(headBytes);
            s.head = QByteArray(h.data, h.size);
            s.headMessageBytes = h.messageBytes;
            s.headPadded = h.padded;
        }
        const MessageView w = message.whole();
        QVERIFY(w.isWhole());
        s.whole = QByteArray(w.data, w.size);
        s.wholePadded = w.padded;
        const MessageView p = message.padded();
        s.padded = QByteArray(p.data, p.size);
        s.paddedInBuffer = p.padded && p.data >= m_buffer.data()
            && p.data + p.size + qsizetype(ReceiveBuffer::kPadding) <= m_buffer.data() + m_buffer.allocated();
        seen << s;
        if (onEach)
            onEach(int(seen.size()));
    }

    qsizetype headBytes = 0;
    QList<Seen> seen;
    std::function<void(int)> onEach; // after each message, with how many came so far

private:
    ReceiveBuffer &m_buffer;
};

StreamConfig wsConfig(quint16 port, qsizetype maxMessageBytes = 16 * 1024 * 1024)
{
    StreamConfig c;
    c.name = QStringLiteral("ws");
    c.url = QUrl(QStringLiteral("ws://127.0.0.1:%1/feed").arg(port));
    c.maxMessageBytes = maxMessageBytes;
    return c;
}

// A websocket server that answers the handshake (RFC 6455 §4.2.2) and then writes only what
// the test hands it. When the client starts a closing handshake it closes the TCP connection.
class RawPeer final : public QObject {
public:
    RawPeer()
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            socket = m_server.nextPendingConnection();
            connect(socket, &QTcpSocket::readyRead, this, [this] { onReadyRead(); });
        });
    }
    bool listen() { return m_server.listen(QHostAddress::LocalHost, 0); }
    quint16 port() const { return m_server.serverPort(); }

    // An unmasked frame, as a server writes it (RFC 6455 §5.2).
    static QByteArray frame(quint8 opcode, const QByteArray &payload)
    {
        QByteArray f;
        f.append(char(0x80 | opcode)); // FIN
        if (payload.size() < 126) {
            f.append(char(payload.size()));
        } else {
            f.append(char(126));
            const quint16 be = qToBigEndian(quint16(payload.size()));
            f.append(reinterpret_cast<const char *>(&be), 2);
        }
        return f + payload;
    }
    static constexpr quint8 kOpText = 0x1;

    QTcpSocket *socket = nullptr;
    bool open = false;

private:
    void onReadyRead()
    {
        if (open) { // the client's close frame, or anything else: the end
            socket->readAll();
            socket->disconnectFromHost();
            return;
        }
        m_request += socket->readAll();
        if (!m_request.contains("\r\n\r\n"))
            return;
        QByteArray key;
        for (const QByteArray &line : m_request.split('\n'))
            if (line.toLower().startsWith("sec-websocket-key:"))
                key = line.mid(qsizetype(sizeof("sec-websocket-key:")) - 1).trimmed();
        const QByteArray accept =
            QCryptographicHash::hash(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11", QCryptographicHash::Sha1).toBase64();
        socket->write("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                      "Sec-WebSocket-Accept: "
                      + accept + "\r\n\r\n");
        open = true;
    }

    QTcpServer m_server;
    QByteArray m_request;
};

// A QWebSocketServer whose first connection the test drives.
struct Server {
    Server()
        : server(QStringLiteral("test"), QWebSocketServer::NonSecureMode)
    {
        // A pending connection comes without a parent: the server owns it here, so that it goes
        // with the test (LeakSanitizer).
        QObject::connect(&server, &QWebSocketServer::newConnection, [this] {
            peer = server.nextPendingConnection();
            peer->setParent(&server);
        });
    }
    QWebSocketServer server;
    QWebSocket *peer = nullptr;
};

} // namespace

class TestWebSocketTransport : public QObject {
    Q_OBJECT
private slots:
    void deliversTextAsUtf8InTheReceiveBuffer_data();
    void deliversTextAsUtf8InTheReceiveBuffer();
    void headOfLongTextIsConvertedAlone_data();
    void headOfLongTextIsConvertedAlone();
    void fragmentedMessageArrivesOnce();
    void binaryMessageIsViewedWhereItLies();
    void frameCutAcrossReadsWaitsWhole();
    void invalidUtf8Closes1007();
    void oversizedMessageCloses1009();
    void peerCloseGivesCodeAndReason();
    void peerDropWithoutCloseIs1006();
    void abortFromTheSinkEndsEverything();
};

void TestWebSocketTransport::deliversTextAsUtf8InTheReceiveBuffer_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("json") << QStringLiteral("{\"e\":\"trade\",\"E\":1700000000000}");
    QTest::newRow("two- to four-byte UTF-8") << QStringLiteral("{\"s\":\"\u00e9\u20ac\U0001D11E\"}");
    QTest::newRow("empty") << QString();
    QTest::newRow("200 KiB") << QString(200 * 1024, QLatin1Char('x'));
}

// Text comes from Qt as UTF-16: the sink gets it as UTF-8, converted once into the worker's
// receive buffer with its padding, so the decoder reads it in place.
void TestWebSocketTransport::deliversTextAsUtf8InTheReceiveBuffer()
{
    QFETCH(QString, text);
    Server s;
    QVERIFY(s.server.listen(QHostAddress::LocalHost, 0));
    const StreamConfig config = wsConfig(s.server.serverPort());
    ReceiveBuffer buffer;
    RecordingSink sink(buffer);
    WebSocketTransport transport(config, buffer, sink);
    QSignalSpy connected(&transport, &Transport::connected);
    transport.open();
    QVERIFY(connected.wait(scaledMs(5000)));
    QTRY_VERIFY_WITH_TIMEOUT(s.peer, scaledMs(5000));
    s.peer->sendTextMessage(text);
    QTRY_COMPARE_WITH_TIMEOUT(sink.seen.size(), 1, scaledMs(5000));
    const Seen &m = sink.seen.first();
    QCOMPARE(m.whole, text.toUtf8());
    QCOMPARE(m.length, text.size());
    QVERIFY(!m.binary);
    QVERIFY(m.wholePadded);
    QVERIFY(m.paddedInBuffer);
    QCOMPARE(m.padded, m.whole);
}

void TestWebSocketTransport::headOfLongTextIsConvertedAlone_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("headAlone"); // false: the head view is the whole message
    const QString ascii =
        QStringLiteral("{\"e\":\"depthUpdate\",\"b\":[") + QString(10000, QLatin1Char('1')) + QStringLiteral("]}");
    QTest::newRow("ASCII: the head alone") << ascii << true;
    QTest::newRow("ASCII shorter than the head: whole") << ascii.left(200) << false;
    QString lateAccent = ascii;
    lateAccent[5000] = QChar(0x00e9);
    QTest::newRow("not ASCII past the head: whole, its size in bytes") << lateAccent << false;
    QString earlyAccent = ascii;
    earlyAccent[10] = QChar(0x00e9);
    QTest::newRow("not ASCII in the head: whole") << earlyAccent << false;
}

// Of a long ASCII message only the head the sink asks for is converted (its size is still
// exact); asking for the whole message afterwards converts the rest. Text that is not ASCII is
// converted whole at once.
void TestWebSocketTransport::headOfLongTextIsConvertedAlone()
{
    QFETCH(QString, text);
    QFETCH(bool, headAlone);
    constexpr int kHead = 256;
    Server s;
    QVERIFY(s.server.listen(QHostAddress::LocalHost, 0));
    const StreamConfig config = wsConfig(s.server.serverPort());
    ReceiveBuffer buffer;
    RecordingSink sink(buffer);
    sink.headBytes = kHead;
    WebSocketTransport transport(config, buffer, sink);
    QSignalSpy connected(&transport, &Transport::connected);
    transport.open();
    QVERIFY(connected.wait(scaledMs(5000)));
    QTRY_VERIFY_WITH_TIMEOUT(s.peer, scaledMs(5000));
    s.peer->sendTextMessage(text);
    QTRY_COMPARE_WITH_TIMEOUT(sink.seen.size(), 1, scaledMs(5000));
    const Seen &m = sink.seen.first();
    const QByteArray utf8 = text.toUtf8();
    QCOMPARE(m.head, headAlone ? utf8.left(kHead) : utf8);
    QCOMPARE(m.headMessageBytes, utf8.size());
    QVERIFY(m.headPadded);
    QCOMPARE(m.whole, utf8);
    QVERIFY(m.paddedInBuffer);
}

// A message the peer sends in many frames (continuations) reaches the sink once, whole.
void TestWebSocketTransport::fragmentedMessageArrivesOnce()
{
    Server s;
    QVERIFY(s.server.listen(QHostAddress::LocalHost, 0));
    const StreamConfig config = wsConfig(s.server.serverPort());
    ReceiveBuffer buffer;
    RecordingSink sink(buffer);
    WebSocketTransport transport(config, buffer, sink);
    QSignalSpy connected(&transport, &Transport::connected);
    transport.open();
    QVERIFY(connected.wait(scaledMs(5000)));
    QTRY_VERIFY_WITH_TIMEOUT(s.peer, scaledMs(5000));
    s.peer->setOutgoingFrameSize(7);
    const QString text =
        QStringLiteral("{\"e\":\"trade\",\"p\":\"") + QString(100, QLatin1Char('9')) + QStringLiteral("\"}");
    s.peer->sendTextMessage(text);
    s.peer->sendTextMessage(QStringLiteral("{}"));
    QTRY_COMPARE_WITH_TIMEOUT(sink.seen.size(), 2, scaledMs(5000));
    QCOMPARE(sink.seen.at(0).whole, text.toUtf8());
    QCOMPARE(sink.seen.at(1).whole, QByteArray("{}"));
}

// A binary message is viewed where Qt holds it; padded() copies it into the receive buffer.
void TestWebSocketTransport::binaryMessageIsViewedWhereItLies()
{
    Server s;
    QVERIFY(s.server.listen(QHostAddress::LocalHost, 0));
    const StreamConfig config = wsConfig(s.server.serverPort());
    ReceiveBuffer buffer;
    RecordingSink sink(buffer);
    WebSocketTransport transport(config, buffer, sink);
    QSignalSpy connected(&transport, &Transport::connected);
    transport.open();
    QVERIFY(connected.wait(scaledMs(5000)));
    QTRY_VERIFY_WITH_TIMEOUT(s.peer, scaledMs(5000));
    const QByteArray bytes("\x00\x01\xff{\"e\":1}\r\n", 12);
    s.peer->sendBinaryMessage(bytes);
    QTRY_COMPARE_WITH_TIMEOUT(sink.seen.size(), 1, scaledMs(5000));
    const Seen &m = sink.seen.first();
    QVERIFY(m.binary);
    QCOMPARE(m.length, bytes.size());
    QCOMPARE(m.whole, bytes);
    QVERIFY(!m.wholePadded);
    QCOMPARE(m.padded, bytes);
    QVERIFY(m.paddedInBuffer);
}

// Half a frame waits unread in the socket (the backpressure view counts it; Qt may have taken
// the frame's header already) and nothing is delivered; the rest completes it.
void TestWebSocketTransport::frameCutAcrossReadsWaitsWhole()
{
    RawPeer peer;
    QVERIFY(peer.listen());
    const StreamConfig config = wsConfig(peer.port());
    ReceiveBuffer buffer;
    RecordingSink sink(buffer);
    WebSocketTransport transport(config, buffer, sink);
    QCOMPARE(transport.unreadBytes(), qint64(-1)); // no socket yet
    QSignalSpy connected(&transport, &Transport::connected);
    transport.open();
    QVERIFY(connected.wait(scaledMs(5000)));
    const QByteArray payload = "{\"e\":\"trade\",\"E\":1700000000000,\"p\":\"" + QByteArray(300, '5') + "\"}";
    const QByteArray frame = RawPeer::frame(RawPeer::kOpText, payload);
    const qsizetype cut = frame.size() / 2;
    peer.socket->write(frame.left(cut));
    QTRY_VERIFY_WITH_TIMEOUT(transport.unreadBytes() > 0, scaledMs(5000));
    QVERIFY(transport.unreadBytes() <= cut);
    QVERIFY(sink.seen.isEmpty());
    peer.socket->write(frame.mid(cut));
    QTRY_COMPARE_WITH_TIMEOUT(sink.seen.size(), 1, scaledMs(5000));
    QCOMPARE(sink.seen.first().whole, payload);
    QTRY_COMPARE_WITH_TIMEOUT(transport.unreadBytes(), qint64(0), scaledMs(5000));
}

// Text that is not UTF-8 is refused by Qt with 1007; nothing of it reaches the sink.
void TestWebSocketTransport::invalidUtf8Closes1007()
{
    RawPeer peer;
    QVERIFY(peer.listen());
    const StreamConfig config = wsConfig(peer.port());
    ReceiveBuffer buffer;
    RecordingSink sink(buffer);
    WebSocketTransport transport(config, buffer, sink);
    QSignalSpy connected(&transport, &Transport::connected);
    QSignalSpy disconnected(&transport, &Transport::disconnected);
    transport.open();
    QVERIFY(connected.wait(scaledMs(5000)));
    peer.socket->write(RawPeer::frame(RawPeer::kOpText, "{\"ok\":1}"));
    peer.socket->write(RawPeer::frame(RawPeer::kOpText, "{\"s\":\"\xff\xfe\"}"));
    QTRY_COMPARE_WITH_TIMEOUT(disconnected.size(), 1, scaledMs(10000));
    QCOMPARE(disconnected.first().at(0).toInt(), int(QWebSocketProtocol::CloseCodeWrongDatatype)); // 1007
    QVERIFY(!disconnected.first().at(1).toString().isEmpty());
    QCOMPARE(sink.seen.size(), 1);
    QCOMPARE(sink.seen.first().whole, QByteArray("{\"ok\":1}"));
}

// A message over the stream's maximum size is refused with 1009 before it is read.
void TestWebSocketTransport::oversizedMessageCloses1009()
{
    Server s;
    QVERIFY(s.server.listen(QHostAddress::LocalHost, 0));
    const StreamConfig config = wsConfig(s.server.serverPort(), 1000);
    ReceiveBuffer buffer;
    RecordingSink sink(buffer);
    WebSocketTransport transport(config, buffer, sink);
    QSignalSpy connected(&transport, &Transport::connected);
    QSignalSpy disconnected(&transport, &Transport::disconnected);
    transport.open();
    QVERIFY(connected.wait(scaledMs(5000)));
    QTRY_VERIFY_WITH_TIMEOUT(s.peer, scaledMs(5000));
    s.peer->sendTextMessage(QString(1000, QLatin1Char('a'))); // the limit itself passes
    s.peer->sendTextMessage(QString(2000, QLatin1Char('b')));
    QTRY_COMPARE_WITH_TIMEOUT(disconnected.size(), 1, scaledMs(10000));
    QCOMPARE(disconnected.first().at(0).toInt(), int(QWebSocketProtocol::CloseCodeTooMuchData)); // 1009
    QCOMPARE(sink.seen.size(), 1);
    QCOMPARE(sink.seen.first().whole.size(), 1000);
}

void TestWebSocketTransport::peerCloseGivesCodeAndReason()
{
    Server s;
    QVERIFY(s.server.listen(QHostAddress::LocalHost, 0));
    const StreamConfig config = wsConfig(s.server.serverPort());
    ReceiveBuffer buffer;
    RecordingSink sink(buffer);
    WebSocketTransport transport(config, buffer, sink);
    QSignalSpy connected(&transport, &Transport::connected);
    QSignalSpy disconnected(&transport, &Transport::disconnected);
    transport.open();
    QVERIFY(connected.wait(scaledMs(5000)));
    QTRY_VERIFY_WITH_TIMEOUT(s.peer, scaledMs(5000));
    s.peer->close(QWebSocketProtocol::CloseCode(4001), QStringLiteral("going \x1b[31maway"));
    QTRY_COMPARE_WITH_TIMEOUT(disconnected.size(), 1, scaledMs(10000));
    QCOMPARE(disconnected.first().at(0).toInt(), 4001);
    QCOMPARE(disconnected.first().at(1).toString(), QStringLiteral("going \\x1b[31maway")); // escaped
    QCOMPARE(transport.unreadBytes(), qint64(-1));                                          // the socket is gone
}

// A connection lost without a close frame is 1006, whatever Qt says.
void TestWebSocketTransport::peerDropWithoutCloseIs1006()
{
    RawPeer peer;
    QVERIFY(peer.listen());
    const StreamConfig config = wsConfig(peer.port());
    ReceiveBuffer buffer;
    RecordingSink sink(buffer);
    WebSocketTransport transport(config, buffer, sink);
    QSignalSpy connected(&transport, &Transport::connected);
    QSignalSpy disconnected(&transport, &Transport::disconnected);
    transport.open();
    QVERIFY(connected.wait(scaledMs(5000)));
    peer.socket->abort();
    QTRY_COMPARE_WITH_TIMEOUT(disconnected.size(), 1, scaledMs(10000));
    QCOMPARE(disconnected.first().at(0).toInt(), int(QWebSocketProtocol::CloseCodeAbnormalDisconnection));
}

// A sink may abort the transport from inside a message (a stop): the messages behind it in
// the same read are not delivered, and no signal follows, not even for the peer's close.
void TestWebSocketTransport::abortFromTheSinkEndsEverything()
{
    Server s;
    QVERIFY(s.server.listen(QHostAddress::LocalHost, 0));
    const StreamConfig config = wsConfig(s.server.serverPort());
    ReceiveBuffer buffer;
    RecordingSink sink(buffer);
    WebSocketTransport transport(config, buffer, sink);
    sink.onEach = [&transport](int) { transport.abort(); };
    QSignalSpy connected(&transport, &Transport::connected);
    QSignalSpy disconnected(&transport, &Transport::disconnected);
    QSignalSpy pongs(&transport, &Transport::pongReceived);
    transport.open();
    QVERIFY(connected.wait(scaledMs(5000)));
    QTRY_VERIFY_WITH_TIMEOUT(s.peer, scaledMs(5000));
    QSignalSpy peerGone(s.peer, &QWebSocket::disconnected);
    for (int i = 0; i < 100; ++i)
        s.peer->sendTextMessage(QStringLiteral("{\"n\":%1}").arg(i));
    s.peer->close(QWebSocketProtocol::CloseCodeGoingAway);
    QTRY_COMPARE_WITH_TIMEOUT(peerGone.size(), 1, scaledMs(10000)); // the abort reached the peer
    QCoreApplication::processEvents();
    QCOMPARE(sink.seen.size(), 1);
    QCOMPARE(sink.seen.first().whole, QByteArray("{\"n\":0}"));
    QCOMPARE(disconnected.size(), 0);
    QCOMPARE(pongs.size(), 0);
    QCOMPARE(transport.unreadBytes(), qint64(-1));
    QVERIFY(!transport.sendText(QStringLiteral("{}")));
    QVERIFY(!transport.ping());
}

QTEST_GUILESS_MAIN(TestWebSocketTransport)
#include "tst_websockettransport.moc"
