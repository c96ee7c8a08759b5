#include "ReplayServerThread.h"

#include "ReplayServer.h"

#include <QThread>

#include <future>
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
    // listen() creates the listening socket, so it runs on the server's own thread. Its answer
    // comes back through a promise rather than a blocking queued call writing to this stack:
    // ThreadSanitizer sees the promise's synchronisation, not the one inside uninstrumented Qt.
    std::promise<bool> listened;
    std::future<bool> answer = listened.get_future();
    QMetaObject::invokeMethod(
        m_server, [server = m_server, address, port, &listened] { listened.set_value(server->listen(address, port)); });
    const bool listening = answer.get();
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
        std::promise<void> deleted;
        std::future<void> done = deleted.get_future();
        QMetaObject::invokeMethod(server, [server, &deleted] {
            delete server;
            deleted.set_value();
        });
        done.wait();
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
