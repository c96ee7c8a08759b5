// Both websocket transports against real peers on 127.0.0.1: WebSocketTransport (QtWebSockets)
// and NativeWebSocketTransport (our own framing). Every test runs once for each ("qt" and
// "native" rows), with the outcome each must give where they differ. A QWebSocketServer plays
// what a correct server sends; a raw TCP peer that answers the handshake itself (or wrongly,
// when the test says) writes frame bytes for what QWebSocketServer cannot send (a frame cut
// across reads, invalid UTF-8, masked frames, control frames between fragments, close codes:
// the RFC's cases a loopback server can play) and reads back what the client sends (pongs,
// close frames, text, each unmasked by the replay server's parser). A sink records what the
// transport hands it: the message's views (head, whole, padded), where they lie, and nothing
// after an abort.

#include "../common/TestRegistry.h"
#include "../common/TimeFactor.h"
#include "WebSocketFrameParser.h"
#include "model/StreamConfig.h"
#include "protocol/ReceiveBuffer.h"
#include "transport/NativeWebSocketTransport.h"
#include "transport/WebSocketTransport.h"

#include <QtCore/QCryptographicHash>
#include <QtCore/QtEndian>
#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>
#include <QtTest/QtTest>
#include <QtWebSockets/QWebSocket>
#include <QtWebSockets/QWebSocketServer>

#include <functional>
#include <memory>

using namespace streamscope;
using streamscope::replay::WebSocketFrameParser;
using streamscope::testing::scaledMs;

namespace {

// Which transport a row runs.
enum class Client { Unknown = 0, Qt, Native };

std::unique_ptr<Transport> makeTransport(Client client, const StreamConfig &config, ReceiveBuffer &buffer,
                                         MessageSink &sink)
{
    if (client == Client::Native)
        return std::make_unique<NativeWebSocketTransport>(config, buffer, sink);
    return std::make_unique<WebSocketTransport>(config, buffer, sink);
}

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

// A frame as a server writes it (RFC 6455 §5.2), correct or not.
QByteArray peerFrame(quint8 opcode, const QByteArray &payload, bool fin = true, quint32 maskKey = 0)
{
    QByteArray f;
    f.append(char((fin ? 0x80 : 0) | opcode));
    const char mask = maskKey ? char(0x80) : char(0);
    if (payload.size() < 126) {
        f.append(char(mask | char(payload.size())));
    } else {
        f.append(char(mask | 126));
        const quint16 be = qToBigEndian(quint16(payload.size()));
        f.append(reinterpret_cast<const char *>(&be), 2);
    }
    QByteArray body = payload;
    if (maskKey) {
        const quint32 be = qToBigEndian(maskKey);
        const auto *key = reinterpret_cast<const char *>(&be);
        f.append(key, 4);
        for (qsizetype i = 0; i < body.size(); ++i)
            body[i] = char(body[i] ^ key[i & 3]);
    }
    return f + body;
}
constexpr quint8 kOpContinuation = 0x0;
constexpr quint8 kOpText = 0x1;
constexpr quint8 kOpClose = 0x8;
constexpr quint8 kOpPing = 0x9;
constexpr quint8 kOpPong = 0xa;

QByteArray peerCloseFrame(quint16 code, const QByteArray &reason = {})
{
    QByteArray p(2, Qt::Uninitialized);
    qToBigEndian(code, p.data());
    return peerFrame(kOpClose, p + reason);
}

// A websocket server that answers the handshake (RFC 6455 §4.2.2), or with `answer` when the
// test sets one ("%A" in it stands for the right Sec-WebSocket-Accept), and then writes only
// what the test hands it. It reads the client's frames (masked) into `received`; after the
// client's close frame it closes the TCP connection.
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

    QTcpSocket *socket = nullptr;
    bool open = false;
    QByteArray answer;                             // instead of the right one
    QByteArray withAnswer;                         // written in the same write as the answer
    bool silent = false;                           // never answers the handshake
    bool closeAfterClientClose = true;             // the TCP connection, after the client's close frame
    QList<WebSocketFrameParser::Message> received; // the client's frames, unmasked
    QByteArray request;

private:
    void onReadyRead()
    {
        if (open) {
            m_parser.append(socket->readAll());
            WebSocketFrameParser::Message m;
            while (m_parser.next(m) == WebSocketFrameParser::Status::Message) {
                received << m;
                if (m.kind == WebSocketFrameParser::Kind::Close && closeAfterClientClose)
                    socket->disconnectFromHost();
                m = {};
            }
            return;
        }
        request += socket->readAll();
        if (!request.contains("\r\n\r\n") || silent)
            return;
        QByteArray key;
        for (const QByteArray &line : request.split('\n'))
            if (line.toLower().startsWith("sec-websocket-key:"))
                key = line.mid(qsizetype(sizeof("sec-websocket-key:")) - 1).trimmed();
        const QByteArray accept =
            QCryptographicHash::hash(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11", QCryptographicHash::Sha1).toBase64();
        QByteArray out = answer.isEmpty() ? "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                                            "Connection: Upgrade\r\nSec-WebSocket-Accept: %A\r\n\r\n"
                                          : answer;
        out.replace("%A", accept);
        socket->write(out + withAnswer);
        open = true;
    }

    QTcpServer m_server;
    WebSocketFrameParser m_parser;
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

// One transport connected to a peer, with its sink and spies.
struct Rig {
    Rig(Client client, const StreamConfig &c)
        : config(c)
        , sink(buffer)
        , transport(makeTransport(client, config, buffer, sink))
        , connected(transport.get(), &Transport::connected)
        , disconnected(transport.get(), &Transport::disconnected)
        , pongs(transport.get(), &Transport::pongReceived)
    {
    }
    StreamConfig config;
    ReceiveBuffer buffer;
    RecordingSink sink;
    std::unique_ptr<Transport> transport;
    QSignalSpy connected;
    QSignalSpy disconnected;
    QSignalSpy pongs;
};

} // namespace

class TestWebSocketTransport : public QObject {
    Q_OBJECT
private slots:
    void deliversTextAsUtf8InTheReceiveBuffer_data();
    void deliversTextAsUtf8InTheReceiveBuffer();
    void headOfLongTextIsConvertedAlone_data();
    void headOfLongTextIsConvertedAlone();
    void fragmentedMessageArrivesOnce_data() { clientRows(); }
    void fragmentedMessageArrivesOnce();
    void binaryMessageIsViewedWhereItLies_data() { clientRows(); }
    void binaryMessageIsViewedWhereItLies();
    void frameCutAcrossReadsWaitsWhole_data() { clientRows(); }
    void frameCutAcrossReadsWaitsWhole();
    void invalidUtf8Closes1007_data() { clientRows(); }
    void invalidUtf8Closes1007();
    void oversizedMessageCloses1009_data() { clientRows(); }
    void oversizedMessageCloses1009();
    void peerCloseGivesCodeAndReason_data() { clientRows(); }
    void peerCloseGivesCodeAndReason();
    void peerDropWithoutCloseIs1006_data() { clientRows(); }
    void peerDropWithoutCloseIs1006();
    void abortFromTheSinkEndsEverything_data() { clientRows(); }
    void abortFromTheSinkEndsEverything();
    void sentTextArrivesMasked_data() { clientRows(); }
    void sentTextArrivesMasked();

    // RFC 6455 cases a loopback server can play.
    void rfcCases_data();
    void rfcCases();
    void pingIsAnsweredWithItsPayload_data() { clientRows(); }
    void pingIsAnsweredWithItsPayload();
    void firstFrameWithTheHandshakeAnswer_data() { clientRows(); }
    void firstFrameWithTheHandshakeAnswer();

    // The native transport's handshake and close, which Qt does its own way.
    void handshakeRefusals_data();
    void handshakeRefusals();
    void handshakeWithoutAnswerTimesOut();
    void closeHandshakeWaitsForTheServer();

private:
    static void clientRows()
    {
        QTest::addColumn<Client>("client");
        QTest::newRow("qt") << Client::Qt;
        QTest::newRow("native") << Client::Native;
    }
};

void TestWebSocketTransport::deliversTextAsUtf8InTheReceiveBuffer_data()
{
    QTest::addColumn<Client>("client");
    QTest::addColumn<QString>("text");
    for (const auto &[name, client] : {std::pair{"qt", Client::Qt}, std::pair{"native", Client::Native}}) {
        const QString n = QLatin1String(name);
        QTest::newRow(qPrintable(n + QStringLiteral(": json")))
            << client << QStringLiteral("{\"e\":\"trade\",\"E\":1700000000000}");
        QTest::newRow(qPrintable(n + QStringLiteral(": two- to four-byte UTF-8")))
            << client << QStringLiteral("{\"s\":\"\u00e9\u20ac\U0001D11E\"}");
        QTest::newRow(qPrintable(n + QStringLiteral(": empty"))) << client << QString();
        QTest::newRow(qPrintable(n + QStringLiteral(": 200 KiB"))) << client << QString(200 * 1024, QLatin1Char('x'));
    }
}

// The sink gets text as UTF-8 in the worker's receive buffer with its padding, so the decoder
// reads it in place: Qt's UTF-16 converted once into it, the native transport's bytes where
// they were read. length() is UTF-16 units from Qt, bytes from the native transport.
void TestWebSocketTransport::deliversTextAsUtf8InTheReceiveBuffer()
{
    QFETCH(Client, client);
    QFETCH(QString, text);
    Server s;
    QVERIFY(s.server.listen(QHostAddress::LocalHost, 0));
    Rig rig(client, wsConfig(s.server.serverPort()));
    rig.transport->open();
    QVERIFY(rig.connected.wait(scaledMs(5000)));
    QTRY_VERIFY_WITH_TIMEOUT(s.peer, scaledMs(5000));
    s.peer->sendTextMessage(text);
    QTRY_COMPARE_WITH_TIMEOUT(rig.sink.seen.size(), 1, scaledMs(5000));
    const Seen &m = rig.sink.seen.first();
    QCOMPARE(m.whole, text.toUtf8());
    QCOMPARE(m.length, client == Client::Qt ? text.size() : text.toUtf8().size());
    QVERIFY(!m.binary);
    QVERIFY(m.wholePadded);
    QVERIFY(m.paddedInBuffer);
    QCOMPARE(m.padded, m.whole);
}

void TestWebSocketTransport::headOfLongTextIsConvertedAlone_data()
{
    QTest::addColumn<Client>("client");
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("headAlone"); // false: the head view is the whole message
    const QString ascii =
        QStringLiteral("{\"e\":\"depthUpdate\",\"b\":[") + QString(10000, QLatin1Char('1')) + QStringLiteral("]}");
    QString lateAccent = ascii;
    lateAccent[5000] = QChar(0x00e9);
    QString earlyAccent = ascii;
    earlyAccent[10] = QChar(0x00e9);
    // The native transport has every byte in the buffer already: the head view is the whole.
    for (const auto &[name, client] : {std::pair{"qt", Client::Qt}, std::pair{"native", Client::Native}}) {
        const QString n = QLatin1String(name);
        const bool qt = client == Client::Qt;
        QTest::newRow(qPrintable(n + QStringLiteral(": ASCII: the head alone"))) << client << ascii << qt;
        QTest::newRow(qPrintable(n + QStringLiteral(": ASCII shorter than the head: whole")))
            << client << ascii.left(200) << false;
        QTest::newRow(qPrintable(n + QStringLiteral(": not ASCII past the head: whole, its size in bytes")))
            << client << lateAccent << false;
        QTest::newRow(qPrintable(n + QStringLiteral(": not ASCII in the head: whole")))
            << client << earlyAccent << false;
    }
}

// Of a long ASCII message from Qt only the head the sink asks for is converted (its size is
// still exact); asking for the whole message afterwards converts the rest. Text that is not
// ASCII is converted whole at once.
void TestWebSocketTransport::headOfLongTextIsConvertedAlone()
{
    QFETCH(Client, client);
    QFETCH(QString, text);
    QFETCH(bool, headAlone);
    constexpr int kHead = 256;
    Server s;
    QVERIFY(s.server.listen(QHostAddress::LocalHost, 0));
    Rig rig(client, wsConfig(s.server.serverPort()));
    rig.sink.headBytes = kHead;
    rig.transport->open();
    QVERIFY(rig.connected.wait(scaledMs(5000)));
    QTRY_VERIFY_WITH_TIMEOUT(s.peer, scaledMs(5000));
    s.peer->sendTextMessage(text);
    QTRY_COMPARE_WITH_TIMEOUT(rig.sink.seen.size(), 1, scaledMs(5000));
    const Seen &m = rig.sink.seen.first();
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
    QFETCH(Client, client);
    Server s;
    QVERIFY(s.server.listen(QHostAddress::LocalHost, 0));
    Rig rig(client, wsConfig(s.server.serverPort()));
    rig.transport->open();
    QVERIFY(rig.connected.wait(scaledMs(5000)));
    QTRY_VERIFY_WITH_TIMEOUT(s.peer, scaledMs(5000));
    s.peer->setOutgoingFrameSize(7);
    const QString text =
        QStringLiteral("{\"e\":\"trade\",\"p\":\"") + QString(100, QLatin1Char('9')) + QStringLiteral("\"}");
    s.peer->sendTextMessage(text);
    s.peer->sendTextMessage(QStringLiteral("{}"));
    QTRY_COMPARE_WITH_TIMEOUT(rig.sink.seen.size(), 2, scaledMs(5000));
    QCOMPARE(rig.sink.seen.at(0).whole, text.toUtf8());
    QCOMPARE(rig.sink.seen.at(1).whole, QByteArray("{}"));
}

// A binary message is viewed where it lies: where Qt holds it (padded() copies it into the
// receive buffer), or in the receive buffer already (native).
void TestWebSocketTransport::binaryMessageIsViewedWhereItLies()
{
    QFETCH(Client, client);
    Server s;
    QVERIFY(s.server.listen(QHostAddress::LocalHost, 0));
    Rig rig(client, wsConfig(s.server.serverPort()));
    rig.transport->open();
    QVERIFY(rig.connected.wait(scaledMs(5000)));
    QTRY_VERIFY_WITH_TIMEOUT(s.peer, scaledMs(5000));
    const QByteArray bytes("\x00\x01\xff{\"e\":1}\r\n", 12);
    s.peer->sendBinaryMessage(bytes);
    QTRY_COMPARE_WITH_TIMEOUT(rig.sink.seen.size(), 1, scaledMs(5000));
    const Seen &m = rig.sink.seen.first();
    QVERIFY(m.binary);
    QCOMPARE(m.length, bytes.size());
    QCOMPARE(m.whole, bytes);
    QCOMPARE(m.wholePadded, client == Client::Native);
    QCOMPARE(m.padded, bytes);
    QVERIFY(m.paddedInBuffer);
}

// Half a frame is counted as unread (Qt leaves it in the socket, the native reader keeps it)
// and nothing is delivered; the rest completes it.
void TestWebSocketTransport::frameCutAcrossReadsWaitsWhole()
{
    QFETCH(Client, client);
    RawPeer peer;
    QVERIFY(peer.listen());
    Rig rig(client, wsConfig(peer.port()));
    QCOMPARE(rig.transport->unreadBytes(), qint64(-1)); // no socket yet
    rig.transport->open();
    QVERIFY(rig.connected.wait(scaledMs(5000)));
    const QByteArray payload = "{\"e\":\"trade\",\"E\":1700000000000,\"p\":\"" + QByteArray(300, '5') + "\"}";
    const QByteArray f = peerFrame(kOpText, payload);
    const qsizetype cut = f.size() / 2;
    peer.socket->write(f.left(cut));
    QTRY_VERIFY_WITH_TIMEOUT(rig.transport->unreadBytes() > 0, scaledMs(5000));
    QVERIFY(rig.transport->unreadBytes() <= cut);
    QVERIFY(rig.sink.seen.isEmpty());
    peer.socket->write(f.mid(cut));
    QTRY_COMPARE_WITH_TIMEOUT(rig.sink.seen.size(), 1, scaledMs(5000));
    QCOMPARE(rig.sink.seen.first().whole, payload);
    QTRY_COMPARE_WITH_TIMEOUT(rig.transport->unreadBytes(), qint64(0), scaledMs(5000));
}

// Text that is not UTF-8 is refused with 1007; nothing of it reaches the sink.
void TestWebSocketTransport::invalidUtf8Closes1007()
{
    QFETCH(Client, client);
    RawPeer peer;
    QVERIFY(peer.listen());
    Rig rig(client, wsConfig(peer.port()));
    rig.transport->open();
    QVERIFY(rig.connected.wait(scaledMs(5000)));
    peer.socket->write(peerFrame(kOpText, "{\"ok\":1}"));
    peer.socket->write(peerFrame(kOpText, "{\"s\":\"\xff\xfe\"}"));
    QTRY_COMPARE_WITH_TIMEOUT(rig.disconnected.size(), 1, scaledMs(10000));
    QCOMPARE(rig.disconnected.first().at(0).toInt(), int(QWebSocketProtocol::CloseCodeWrongDatatype)); // 1007
    QVERIFY(!rig.disconnected.first().at(1).toString().isEmpty());
    QCOMPARE(rig.sink.seen.size(), 1);
    QCOMPARE(rig.sink.seen.first().whole, QByteArray("{\"ok\":1}"));
}

// A message over the stream's maximum size is refused with 1009 before it is read.
void TestWebSocketTransport::oversizedMessageCloses1009()
{
    QFETCH(Client, client);
    Server s;
    QVERIFY(s.server.listen(QHostAddress::LocalHost, 0));
    Rig rig(client, wsConfig(s.server.serverPort(), 1000));
    rig.transport->open();
    QVERIFY(rig.connected.wait(scaledMs(5000)));
    QTRY_VERIFY_WITH_TIMEOUT(s.peer, scaledMs(5000));
    s.peer->sendTextMessage(QString(1000, QLatin1Char('a'))); // the limit itself passes
    s.peer->sendTextMessage(QString(2000, QLatin1Char('b')));
    QTRY_COMPARE_WITH_TIMEOUT(rig.disconnected.size(), 1, scaledMs(10000));
    QCOMPARE(rig.disconnected.first().at(0).toInt(), int(QWebSocketProtocol::CloseCodeTooMuchData)); // 1009
    QCOMPARE(rig.sink.seen.size(), 1);
    QCOMPARE(rig.sink.seen.first().whole.size(), 1000);
}

void TestWebSocketTransport::peerCloseGivesCodeAndReason()
{
    QFETCH(Client, client);
    Server s;
    QVERIFY(s.server.listen(QHostAddress::LocalHost, 0));
    Rig rig(client, wsConfig(s.server.serverPort()));
    rig.transport->open();
    QVERIFY(rig.connected.wait(scaledMs(5000)));
    QTRY_VERIFY_WITH_TIMEOUT(s.peer, scaledMs(5000));
    QSignalSpy peerGone(s.peer, &QWebSocket::disconnected);
    s.peer->close(QWebSocketProtocol::CloseCode(4001), QStringLiteral("going \x1b[31maway"));
    QTRY_COMPARE_WITH_TIMEOUT(rig.disconnected.size(), 1, scaledMs(10000));
    QCOMPARE(rig.disconnected.first().at(0).toInt(), 4001);
    QCOMPARE(rig.disconnected.first().at(1).toString(), QStringLiteral("going \\x1b[31maway")); // escaped
    QCOMPARE(rig.transport->unreadBytes(), qint64(-1));                                         // the socket is gone
    // The closing handshake completes on the server's side too (it got our close frame).
    QTRY_COMPARE_WITH_TIMEOUT(peerGone.size(), 1, scaledMs(10000));
}

// A connection lost without a close frame is 1006, whatever Qt says.
void TestWebSocketTransport::peerDropWithoutCloseIs1006()
{
    QFETCH(Client, client);
    RawPeer peer;
    QVERIFY(peer.listen());
    Rig rig(client, wsConfig(peer.port()));
    rig.transport->open();
    QVERIFY(rig.connected.wait(scaledMs(5000)));
    peer.socket->abort();
    QTRY_COMPARE_WITH_TIMEOUT(rig.disconnected.size(), 1, scaledMs(10000));
    QCOMPARE(rig.disconnected.first().at(0).toInt(), int(QWebSocketProtocol::CloseCodeAbnormalDisconnection));
}

// A sink may abort the transport from inside a message (a stop): the messages behind it in
// the same read are not delivered, and no signal follows, not even for the peer's close.
void TestWebSocketTransport::abortFromTheSinkEndsEverything()
{
    QFETCH(Client, client);
    Server s;
    QVERIFY(s.server.listen(QHostAddress::LocalHost, 0));
    Rig rig(client, wsConfig(s.server.serverPort()));
    Transport *transport = rig.transport.get();
    rig.sink.onEach = [transport](int) { transport->abort(); };
    transport->open();
    QVERIFY(rig.connected.wait(scaledMs(5000)));
    QTRY_VERIFY_WITH_TIMEOUT(s.peer, scaledMs(5000));
    QSignalSpy peerGone(s.peer, &QWebSocket::disconnected);
    for (int i = 0; i < 100; ++i)
        s.peer->sendTextMessage(QStringLiteral("{\"n\":%1}").arg(i));
    s.peer->close(QWebSocketProtocol::CloseCodeGoingAway);
    QTRY_COMPARE_WITH_TIMEOUT(peerGone.size(), 1, scaledMs(10000)); // the abort reached the peer
    QCoreApplication::processEvents();
    QCOMPARE(rig.sink.seen.size(), 1);
    QCOMPARE(rig.sink.seen.first().whole, QByteArray("{\"n\":0}"));
    QCOMPARE(rig.disconnected.size(), 0);
    QCOMPARE(rig.pongs.size(), 0);
    QCOMPARE(transport->unreadBytes(), qint64(-1));
    QVERIFY(!transport->sendText(QStringLiteral("{}")));
    QVERIFY(!transport->ping());
}

// What the client sends is one masked text frame per message (the peer's parser unmasks).
void TestWebSocketTransport::sentTextArrivesMasked()
{
    QFETCH(Client, client);
    RawPeer peer;
    QVERIFY(peer.listen());
    Rig rig(client, wsConfig(peer.port()));
    rig.transport->open();
    QVERIFY(rig.connected.wait(scaledMs(5000)));
    const QString text = QStringLiteral("{\"method\":\"SUBSCRIBE\",\"params\":[\"\u00e9\"],\"id\":1}");
    QVERIFY(rig.transport->sendText(text));
    QTRY_COMPARE_WITH_TIMEOUT(peer.received.size(), 1, scaledMs(5000));
    QCOMPARE(peer.received.first().kind, WebSocketFrameParser::Kind::Text);
    QCOMPARE(peer.received.first().payload, text.toUtf8());
}

void TestWebSocketTransport::rfcCases_data()
{
    QTest::addColumn<Client>("client");
    QTest::addColumn<QByteArray>("wire");            // after the handshake
    QTest::addColumn<QList<QByteArray>>("messages"); // what reaches the sink
    QTest::addColumn<int>("closeCode");              // the code disconnected() reports; 0: stays open
    QTest::addColumn<int>("sentCloseCode");          // the code of the close frame the peer gets; 0: none
    // Qt rows where Qt 6.4 differs: a newer Qt may do as the native transport does instead.
    QTest::addColumn<bool>("orAsNative");
    QTest::addColumn<QList<QByteArray>>("nativeMessages");
    QTest::addColumn<int>("nativeCloseCode");

    struct Case {
        const char *name;
        QByteArray wire;
        QList<QByteArray> messages;
        int closeCode;
        int sentCloseCode;
        bool qtDiffers = false;
        QList<QByteArray> qtMessages;
        int qtCloseCode = 0;
        int qtSentCloseCode = 0;
    };
    const QByteArray agg = R"({"e":"aggTrade","a":1})";
    const QList<Case> cases = {
        {"fragments",
         peerFrame(kOpText, "{\"a\":", false) + peerFrame(kOpContinuation, "1", false)
             + peerFrame(kOpContinuation, "}"),
         {"{\"a\":1}"},
         0,
         0,
         false,
         {},
         0,
         0},
        {"ping and pong between fragments",
         peerFrame(kOpText, "[1,", false) + peerFrame(kOpPing, "p") + peerFrame(kOpContinuation, "2,", false)
             + peerFrame(kOpPong, "") + peerFrame(kOpContinuation, "3]") + peerFrame(kOpText, "{}"),
         {"[1,2,3]", "{}"},
         0,
         0,
         false,
         {},
         0,
         0},
        // Qt 6.4 checks each fragment alone and refuses a character split between two (1007).
        {"character split between fragments",
         peerFrame(kOpText, "\"\xe2\x82", false) + peerFrame(kOpContinuation, "\xac\""),
         {"\"\xe2\x82\xac\""},
         0,
         0,
         true,
         {},
         1007,
         1007},
        {"bad UTF-8 across a fragment boundary",
         peerFrame(kOpText, "\"\xe2\x82", false) + peerFrame(kOpContinuation, "(\""),
         {},
         1007,
         1007,
         false,
         {},
         0,
         0},
        {"close 1000 with a reason",
         peerFrame(kOpText, "{}") + peerCloseFrame(1000, "bye"),
         {"{}"},
         1000,
         1000,
         false,
         {},
         0,
         0},
        // RFC 6455 §7.1.5: no code in the frame is 1005; Qt 6.4 reports 1000.
        {"close without a code", peerFrame(kOpClose, ""), {}, 1005, 1000, true, {}, 1000, 1000},
        // Registered with IANA after RFC 6455; Qt 6.4 refuses them (1002).
        {"close code 1012 (service restart)", peerCloseFrame(1012), {}, 1012, 1012, true, {}, 1002, 1002},
        {"close code 1004", peerCloseFrame(1004), {}, 1002, 1002, false, {}, 0, 0},
        {"close code 2999", peerCloseFrame(2999), {}, 1002, 1002, false, {}, 0, 0},
        // QWebSocket neither checks nor shows the mask bit: Qt unmasks and delivers (security.md).
        {"masked server frame",
         peerFrame(kOpText, agg, true, 0x12345678u) + peerFrame(kOpText, "{}"),
         {},
         1002,
         1002,
         true,
         {agg, "{}"},
         0,
         0},
        {"RSV1 without an extension", QByteArray("\xc1\x02{}", 4), {}, 1002, 1002, false, {}, 0, 0},
        {"continuation without a message", peerFrame(kOpContinuation, "x"), {}, 1002, 1002, false, {}, 0, 0},
    };
    for (const Case &c : cases) {
        QTest::newRow(qPrintable(QStringLiteral("native: ") + QLatin1String(c.name)))
            << Client::Native << c.wire << c.messages << c.closeCode << c.sentCloseCode << false << c.messages
            << c.closeCode;
        QTest::newRow(qPrintable(QStringLiteral("qt: ") + QLatin1String(c.name)))
            << Client::Qt << c.wire << (c.qtDiffers ? c.qtMessages : c.messages)
            << (c.qtDiffers ? c.qtCloseCode : c.closeCode) << (c.qtDiffers ? c.qtSentCloseCode : c.sentCloseCode)
            << c.qtDiffers << c.messages << c.closeCode;
    }
}

// The RFC's cases as a server plays them on loopback: fragments with control frames between
// them, close codes (answered, refused), bad UTF-8 across a fragment boundary, masked frames.
void TestWebSocketTransport::rfcCases()
{
    QFETCH(Client, client);
    QFETCH(QByteArray, wire);
    QFETCH(QList<QByteArray>, messages);
    QFETCH(int, closeCode);
    QFETCH(int, sentCloseCode);
    QFETCH(bool, orAsNative);
    QFETCH(QList<QByteArray>, nativeMessages);
    QFETCH(int, nativeCloseCode);
    RawPeer peer;
    QVERIFY(peer.listen());
    Rig rig(client, wsConfig(peer.port()));
    rig.transport->open();
    QVERIFY(rig.connected.wait(scaledMs(5000)));
    peer.socket->write(wire + peerFrame(kOpText, "\"end\""));
    const auto ended = [&] {
        return !rig.disconnected.isEmpty()
            || (!rig.sink.seen.isEmpty() && rig.sink.seen.last().whole == QByteArray("\"end\""));
    };
    QTRY_VERIFY_WITH_TIMEOUT(ended(), scaledMs(10000));
    const int code = rig.disconnected.isEmpty() ? 0 : rig.disconnected.first().at(0).toInt();
    if (orAsNative && code != closeCode) {
        qInfo("Qt %s does as the native transport here", qVersion());
        messages = nativeMessages;
        closeCode = nativeCloseCode;
        sentCloseCode = nativeCloseCode == 0 ? 0 : sentCloseCode;
    }
    QCOMPARE(code, closeCode);
    QCOMPARE(rig.sink.seen.size(), messages.size() + (closeCode == 0 ? 1 : 0));
    for (qsizetype i = 0; i < messages.size(); ++i)
        QCOMPARE(rig.sink.seen.at(i).whole, messages.at(i));
    if (sentCloseCode != 0) {
        QTRY_VERIFY_WITH_TIMEOUT(!peer.received.isEmpty(), scaledMs(5000));
        QCOMPARE(peer.received.last().kind, WebSocketFrameParser::Kind::Close);
        QCOMPARE(int(peer.received.last().closeCode), sentCloseCode);
    }
}

// A server's ping is answered with a pong that carries its payload.
void TestWebSocketTransport::pingIsAnsweredWithItsPayload()
{
    QFETCH(Client, client);
    RawPeer peer;
    QVERIFY(peer.listen());
    Rig rig(client, wsConfig(peer.port()));
    rig.transport->open();
    QVERIFY(rig.connected.wait(scaledMs(5000)));
    peer.socket->write(peerFrame(kOpPing, "are you there"));
    QTRY_COMPARE_WITH_TIMEOUT(peer.received.size(), 1, scaledMs(5000));
    QCOMPARE(peer.received.first().kind, WebSocketFrameParser::Kind::Pong);
    QCOMPARE(peer.received.first().payload, QByteArray("are you there"));
    // Our ping reaches the server; its pong is reported.
    QVERIFY(rig.transport->ping());
    QTRY_COMPARE_WITH_TIMEOUT(peer.received.size(), 2, scaledMs(5000));
    QCOMPARE(peer.received.last().kind, WebSocketFrameParser::Kind::Ping);
    peer.socket->write(peerFrame(kOpPong, peer.received.last().payload));
    QVERIFY(rig.pongs.wait(scaledMs(5000)));
}

// Frames the server writes with its handshake answer, in the same segment, are not lost.
void TestWebSocketTransport::firstFrameWithTheHandshakeAnswer()
{
    QFETCH(Client, client);
    RawPeer peer;
    peer.withAnswer = peerFrame(kOpText, "{\"first\":1}") + peerFrame(kOpText, "{\"second\":2}");
    QVERIFY(peer.listen());
    Rig rig(client, wsConfig(peer.port()));
    rig.transport->open();
    QVERIFY(rig.connected.wait(scaledMs(5000)));
    QTRY_COMPARE_WITH_TIMEOUT(rig.sink.seen.size(), 2, scaledMs(5000));
    QCOMPARE(rig.sink.seen.at(0).whole, QByteArray("{\"first\":1}"));
    QCOMPARE(rig.sink.seen.at(1).whole, QByteArray("{\"second\":2}"));
}

void TestWebSocketTransport::handshakeRefusals_data()
{
    QTest::addColumn<QByteArray>("answer");
    QTest::addColumn<QString>("reason");
    QTest::newRow("redirect") << QByteArray("HTTP/1.1 302 Found\r\nLocation: ws://127.0.0.1:1/elsewhere\r\n\r\n")
                              << QStringLiteral("websocket handshake: the server redirects (HTTP 302) to "
                                                "ws://127.0.0.1:1/elsewhere; redirects are not followed, put the "
                                                "new URL in the stream");
    QTest::newRow("wrong accept") << QByteArray("HTTP/1.1 101 OK\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                                                "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n")
                                  << QStringLiteral("websocket handshake: the server's Sec-WebSocket-Accept does not "
                                                    "match the key sent");
    QTest::newRow("extension not asked")
        << QByteArray("HTTP/1.1 101 OK\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: %A\r\n"
                      "Sec-WebSocket-Extensions: permessage-deflate\r\n\r\n")
        << QStringLiteral("websocket handshake: the server chose the extension \"permessage-deflate\", which was not "
                          "asked for");
    QTest::newRow("not a websocket server") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
                                            << QStringLiteral("websocket handshake: the server answered HTTP 200 "
                                                              "instead of switching to websocket (\"OK\")");
}

// The native transport refuses a handshake answer it must not accept, with the reason, and
// never reports the connection open.
void TestWebSocketTransport::handshakeRefusals()
{
    QFETCH(QByteArray, answer);
    QFETCH(QString, reason);
    RawPeer peer;
    peer.answer = answer;
    QVERIFY(peer.listen());
    StreamConfig config = wsConfig(peer.port());
    config.headers = {{QStringLiteral("X-Token"), QStringLiteral("t")}};
    Rig rig(Client::Native, config);
    rig.transport->open();
    QTRY_COMPARE_WITH_TIMEOUT(rig.disconnected.size(), 1, scaledMs(10000));
    QCOMPARE(rig.connected.size(), 0);
    QCOMPARE(rig.disconnected.first().at(0).toInt(), 1006);
    QCOMPARE(rig.disconnected.first().at(1).toString(), reason);
    QVERIFY(peer.request.contains("\r\nX-Token: t\r\n"));
}

// A server that accepts the connection and never answers the upgrade is left after the
// stream's connect timeout and a grace (the session's watchdog comes first in a stream).
void TestWebSocketTransport::handshakeWithoutAnswerTimesOut()
{
    RawPeer peer;
    peer.silent = true;
    QVERIFY(peer.listen());
    StreamConfig config = wsConfig(peer.port());
    config.connectTimeoutMs = 300;
    Rig rig(Client::Native, config);
    rig.transport->open();
    QTRY_COMPARE_WITH_TIMEOUT(rig.disconnected.size(), 1, scaledMs(10000));
    QCOMPARE(rig.connected.size(), 0);
    QCOMPARE(rig.disconnected.first().at(1).toString(),
             QStringLiteral("websocket handshake: no answer within %1 ms")
                 .arg(300 + NativeWebSocketTransport::kSetUpGraceMs));
}

// The server's close is answered with its code, reported at once, and the TCP connection is
// left to the server to close (or dropped after NativeWebSocketTransport::kCloseWaitMs).
void TestWebSocketTransport::closeHandshakeWaitsForTheServer()
{
    RawPeer peer;
    peer.closeAfterClientClose = false;
    QVERIFY(peer.listen());
    Rig rig(Client::Native, wsConfig(peer.port()));
    rig.transport->open();
    QVERIFY(rig.connected.wait(scaledMs(5000)));
    QSignalSpy peerGone(peer.socket, &QTcpSocket::disconnected);
    peer.socket->write(peerCloseFrame(1001, "restart"));
    QTRY_COMPARE_WITH_TIMEOUT(rig.disconnected.size(), 1, scaledMs(10000));
    QCOMPARE(rig.disconnected.first().at(0).toInt(), 1001);
    QCOMPARE(rig.disconnected.first().at(1).toString(), QStringLiteral("restart"));
    QTRY_COMPARE_WITH_TIMEOUT(peer.received.size(), 1, scaledMs(5000));
    QCOMPARE(peer.received.first().kind, WebSocketFrameParser::Kind::Close);
    QCOMPARE(int(peer.received.first().closeCode), 1001);
    // The server does not close: the client drops the connection after its wait.
    QVERIFY(peerGone.wait(scaledMs(10000)));
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestWebSocketTransport)
#include "tst_websockettransport.moc"
