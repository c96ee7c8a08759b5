#include "CaptureServer.h"

#include "BuiltinCertificate.h"
#include "CaptureConnection.h"

#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslKey>
#include <QSslServer>
#include <QSslSocket>
#include <QTcpServer>
#include <QTcpSocket>

#include <algorithm>
#include <utility>

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
