#include "CaptureServer.h"

#include "BookEvents.h"
#include "BuiltinCertificate.h"

#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslKey>
#include <QSslServer>
#include <QSslSocket>
#include <QTcpServer>
#include <QTcpSocket>

#include <algorithm>
#include <utility>

namespace {
// Binance's answer to a symbol it does not list.
constexpr char kInvalidSymbol[] = R"({"code":-1121,"msg":"Invalid symbol."})";
} // namespace

namespace streamscope::replay {

CaptureServer::CaptureServer(const Options &options, QObject *parent)
    : QObject(parent)
    , m_options(options)
{
}

bool CaptureServer::open(const QString &path)
{
    if (!m_window.open(path, m_options.loop)) {
        m_error = m_window.errorString();
        return false;
    }
    return true;
}

void CaptureServer::tidy()
{
    qint64 needed = m_position;
    for (const CaptureConnection *c : std::as_const(m_connections))
        needed = std::min(needed, c->next());
    m_window.release(needed);
    for (const QString &message : m_window.takeProblems())
        emit problem(message);
}

void CaptureServer::answer(CaptureConnection *connection, DepthBook &book)
{
    book.served = true;
    ++m_depthAnswers;
    connection->answerDepth("200 OK", book.body);
}

void CaptureServer::requestDepth(CaptureConnection *connection, const QString &symbol)
{
    auto it = m_depth.find(symbol);
    if (it != m_depth.end() && !it->body.isEmpty() && (!it->served || m_ended)) {
        answer(connection, *it);
        return;
    }
    if (m_ended || (it == m_depth.end() && m_depth.size() >= kMaxDepthBooks)) {
        connection->answerDepth("400 Bad Request", kInvalidSymbol);
        return;
    }
    if (it == m_depth.end())
        it = m_depth.insert(symbol, DepthBook());
    if (it->waiting.size() >= kMaxDepthWaiting) {
        connection->answerDepth("429 Too Many Requests", R"({"code":-1003,"msg":"Too many requests waiting."})");
        return;
    }
    it->waiting.append(connection);
}

void CaptureServer::bookSnapshotPassed(qint64 index, const QByteArray &eventJson)
{
    capture::BookSnapshotEvent e;
    if (!capture::readBookSnapshot(eventJson, &e) || e.body.isEmpty())
        return; // a failed fetch, or an answer the capture does not hold
    auto it = m_depth.find(e.instrument);
    if (it == m_depth.end()) {
        if (m_depth.size() >= kMaxDepthBooks)
            return;
        it = m_depth.insert(e.instrument, DepthBook());
    }
    DepthBook &book = *it;
    if (index <= book.index)
        return; // another client passed it first
    if (m_depthBytes - book.body.size() + e.body.size() > kMaxDepthBytes)
        return;
    m_depthBytes += e.body.size() - book.body.size();
    book.body = std::move(e.body);
    book.index = index;
    book.served = false;
    const QList<QPointer<CaptureConnection>> waiting = std::exchange(book.waiting, {});
    for (const QPointer<CaptureConnection> &c : waiting)
        if (c)
            answer(c, book);
}

void CaptureServer::captureEnded()
{
    if (m_ended)
        return;
    m_ended = true;
    for (DepthBook &book : m_depth) {
        const QList<QPointer<CaptureConnection>> waiting = std::exchange(book.waiting, {});
        for (const QPointer<CaptureConnection> &c : waiting) {
            if (!c)
                continue;
            if (book.body.isEmpty())
                c->answerDepth("400 Bad Request", kInvalidSymbol);
            else
                answer(c, book);
        }
    }
}

CaptureServer::~CaptureServer()
{
    const QList<CaptureConnection *> connections = std::exchange(m_connections, {});
    qDeleteAll(connections);
}

bool CaptureServer::listen(const QHostAddress &address, quint16 port)
{
    if (!m_window.isOpen()) {
        m_error = QStringLiteral("no capture to serve: open() one first");
        return false;
    }
    if (m_options.tls) {
        const QByteArray certPem = m_options.certPem.isEmpty() ? builtinCertificatePem() : m_options.certPem;
        const QByteArray keyPem = m_options.keyPem.isEmpty() ? builtinPrivateKeyPem() : m_options.keyPem;
        const QSslCertificate certificate(certPem, QSsl::Pem);
        QSslKey key(keyPem, QSsl::Rsa, QSsl::Pem);
        if (key.isNull())
            key = QSslKey(keyPem, QSsl::Ec, QSsl::Pem);
        if (certificate.isNull() || key.isNull()) {
            m_error = QStringLiteral("the TLS certificate or key is not valid PEM");
            return false;
        }
        QSslConfiguration config = QSslConfiguration::defaultConfiguration();
        config.setLocalCertificate(certificate);
        config.setPrivateKey(key);
        config.setPeerVerifyMode(QSslSocket::VerifyNone);
        auto *server = new QSslServer(this);
        server->setSslConfiguration(config);
        m_server = server;
    } else {
        m_server = new QTcpServer(this);
    }
    connect(m_server, &QTcpServer::pendingConnectionAvailable, this, &CaptureServer::onPendingConnection);
    if (!m_server->listen(address, port)) {
        m_error = m_server->errorString();
        return false;
    }
    return true;
}

quint16 CaptureServer::port() const
{
    return m_server ? m_server->serverPort() : 0;
}

void CaptureServer::onPendingConnection()
{
    while (m_server && m_server->hasPendingConnections()) {
        QTcpSocket *socket = m_server->nextPendingConnection();
        auto *connection = new CaptureConnection(socket, this, !m_window.isLineCapture());
        m_connections.append(connection);
        connect(connection, &CaptureConnection::opened, this, &CaptureServer::clientConnected);
        connect(connection, &CaptureConnection::closed, this, &CaptureServer::clientDisconnected);
        connect(connection, &QObject::destroyed, this, [this, connection] { m_connections.removeOne(connection); });
        connection->start();
    }
}

} // namespace streamscope::replay
