#include "ReplayServerThread.h"

#include "ReplayServer.h"

#include <QThread>

#include <utility>

namespace streamscope::replay {

ReplayServerThread::~ReplayServerThread()
{
    stop();
}

quint16 ReplayServerThread::start(const ReplayOptions &options, const QHostAddress &address, quint16 port)
{
    stop();
    m_thread = new QThread;
    m_thread->setObjectName(QStringLiteral("replay-server"));
    m_thread->start();
    m_server = new ReplayServer(options);
    m_server->moveToThread(m_thread);
    // listen() creates the listening socket, so it runs on the server's own thread.
    bool listening = false;
    QMetaObject::invokeMethod(
        m_server, [&] { listening = m_server->listen(address, port); }, Qt::BlockingQueuedConnection);
    if (!listening) {
        m_errorString = m_server->errorString();
        stop();
        return 0;
    }
    m_errorString.clear();
    m_port = m_server->port();
    return m_port;
}

void ReplayServerThread::stop()
{
    if (m_server) {
        ReplayServer *server = std::exchange(m_server, nullptr);
        QMetaObject::invokeMethod(
            server, [server] { delete server; }, Qt::BlockingQueuedConnection);
    }
    if (m_thread) {
        m_thread->quit();
        m_thread->wait();
        delete m_thread;
        m_thread = nullptr;
    }
    m_port = 0;
}

} // namespace streamscope::replay
