#include "ReplayServer.h"

#include "InputFile.h"
#include "PaceTicker.h"
#include "ReplayConnection.h"
#include "ScenarioPool.h"

#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslKey>
#include <QSslServer>
#include <QSslSocket>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>

#include <utility>

namespace streamscope::replay {

namespace {

// A certificate or key given on the command line: a regular file of at most kMaxPemBytes.
QByteArray readPem(const QString &path, QString *error)
{
    InputFile::Limits limits;
    limits.maxBytes = InputFile::kMaxPemBytes;
    limits.timeout = InputFile::kSmallFileTimeout;
    return InputFile::readAll(path, limits, error).value_or(QByteArray());
}

} // namespace

ReplayServer::ReplayServer(const ReplayOptions &options, QObject *parent)
    : QObject(parent)
    , m_options(options)
    , m_paceTicker(new PaceTicker(this))
{
}

ReplayServer::~ReplayServer()
{
    close();
}

bool ReplayServer::listen(const QHostAddress &address, quint16 port)
{
    close();
    m_errorString = m_options.validate();
    if (!m_errorString.isEmpty())
        return false;
    // Build the default pool now rather than on the first client's clock.
    ScenarioPool::get(m_options.scenario);

    if (m_options.tls) {
        QByteArray certPem = builtinCertificatePem();
        QByteArray keyPem = builtinPrivateKeyPem();
        if (!m_options.certFile.isEmpty() || !m_options.keyFile.isEmpty()) {
            certPem = readPem(m_options.certFile, &m_errorString);
            if (m_errorString.isEmpty())
                keyPem = readPem(m_options.keyFile, &m_errorString);
            if (!m_errorString.isEmpty())
                return false;
        }
        const QSslCertificate certificate(certPem, QSsl::Pem);
        QSslKey key(keyPem, QSsl::Rsa, QSsl::Pem);
        if (key.isNull())
            key = QSslKey(keyPem, QSsl::Ec, QSsl::Pem);
        if (certificate.isNull() || key.isNull()) {
            m_errorString = QStringLiteral("the TLS certificate or key is not valid PEM");
            return false;
        }
        QSslConfiguration config = QSslConfiguration::defaultConfiguration();
        config.setLocalCertificate(certificate);
        config.setPrivateKey(key);
        config.setPeerVerifyMode(QSslSocket::VerifyNone);
        auto *server = new QSslServer(this);
        server->setSslConfiguration(config);
        m_tcpServer = server;
    } else {
        m_tcpServer = new QTcpServer(this);
    }
    connect(m_tcpServer, &QTcpServer::pendingConnectionAvailable, this, &ReplayServer::onPendingConnection);
    // The benchmark's scale run connects thousands of streams at once; Qt's default backlog (50)
    // would drop most of their first SYNs and stretch the ramp by the kernel's retry delays.
    m_tcpServer->setListenBacklogSize(1024);
    if (!m_tcpServer->listen(address, port)) {
        m_errorString = m_tcpServer->errorString();
        delete m_tcpServer;
        m_tcpServer = nullptr;
        return false;
    }
    return true;
}

void ReplayServer::close()
{
    if (m_tcpServer) {
        m_tcpServer->close();
        delete m_tcpServer;
        m_tcpServer = nullptr;
    }
    const QSet<ReplayConnection *> connections = std::exchange(m_connections, {});
    for (ReplayConnection *connection : connections)
        connection->abortNow();
    qDeleteAll(connections);
}

void ReplayServer::stopListening()
{
    if (m_tcpServer)
        m_tcpServer->close();
}

bool ReplayServer::isListening() const
{
    return m_tcpServer && m_tcpServer->isListening();
}

quint16 ReplayServer::port() const
{
    return m_tcpServer ? m_tcpServer->serverPort() : 0;
}

void ReplayServer::onPendingConnection()
{
    while (m_tcpServer && m_tcpServer->hasPendingConnections()) {
        QTcpSocket *socket = m_tcpServer->nextPendingConnection();
        auto *connection = new ReplayConnection(socket, m_options, ++m_serial, this);
        m_connections.insert(connection);
        connect(connection, &ReplayConnection::opened, this, &ReplayServer::onConnectionOpened);
        connect(connection, &ReplayConnection::closed, this, &ReplayServer::onConnectionClosed);
        connect(connection, &ReplayConnection::controlReceived, this, &ReplayServer::controlReceived);
        connect(connection, &QObject::destroyed, this, [this, connection] { m_connections.remove(connection); });
        connection->start();
    }
}

void ReplayServer::onConnectionOpened()
{
    m_connectionCount.fetch_add(1, std::memory_order_relaxed);
    emit clientConnected();
}

void ReplayServer::onConnectionClosed()
{
    m_connectionCount.fetch_sub(1, std::memory_order_relaxed);
    emit clientDisconnected();
}

void ReplayServer::dropAllConnections()
{
    if (QThread::currentThread() != thread()) {
        QMetaObject::invokeMethod(this, &ReplayServer::dropAllConnections, Qt::QueuedConnection);
        return;
    }
    const QSet<ReplayConnection *> connections = m_connections;
    for (ReplayConnection *connection : connections)
        connection->abortNow();
}

void ReplayServer::setSilent(bool silent)
{
    if (QThread::currentThread() != thread()) {
        QMetaObject::invokeMethod(
            this, [this, silent] { setSilent(silent); }, Qt::QueuedConnection);
        return;
    }
    m_silent = silent;
    const QSet<ReplayConnection *> connections = m_connections;
    for (ReplayConnection *connection : connections)
        connection->setSilent(silent);
}

ReplayServer::DepthPosition ReplayServer::depthPosition(const QString &scenario, quint64 instrument,
                                                        std::size_t poolSize) const
{
    const auto ranges = m_depthRanges.constFind(scenario);
    if (ranges == m_depthRanges.cend() || poolSize == 0)
        return {};
    for (auto it = ranges->cbegin(); it != ranges->cend() && it.key() <= instrument; ++it) {
        const quint64 j = instrument - it.key();
        if (j >= it->count || it->diffs <= j)
            continue;
        const quint64 round = (it->diffs - 1 - j) / it->count;
        return {qint64(round % poolSize),
                ScenarioPool::kFirstSeq + round * (ScenarioPool::kSeqSpan + 1) + ScenarioPool::kSeqSpan};
    }
    return {};
}

bool ReplayServer::claimDrop(const QString &key)
{
    if (m_droppedKeys.contains(key))
        return false;
    m_droppedKeys.insert(key);
    return true;
}

} // namespace streamscope::replay
