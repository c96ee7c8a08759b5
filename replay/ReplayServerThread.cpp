#include "ReplayServerThread.h"

#include "EventLoop.h"
#include "ReplayServer.h"

#include <QThread>

#include <future>
#include <memory>
#include <utility>

namespace streamscope::replay {

// The server is created, listens, serves and is deleted on this thread alone. The owning
// thread learns the outcome of listen() and hands the server back through promises, whose
// synchronisation ThreadSanitizer sees (it cannot see the one inside uninstrumented Qt).
class ReplayServerThread::Worker final : public QThread {
public:
    struct Listening {
        ReplayServer *server = nullptr; // null when listen() failed
        quint16 port = 0;
        QString errorString;
    };

    Worker(ReplayOptions options, QHostAddress address, quint16 port)
        : m_options(std::move(options))
        , m_address(std::move(address))
        , m_port(port)
    {
        setObjectName(QStringLiteral("replay-server"));
        installEventLoop(this); // epoll on Linux: thousands of clients cost a pass what the ready ones cost
    }
    std::future<Listening> listening() { return m_listening.get_future(); }
    // Called by the owning thread when it will not touch the server any more: only then may
    // this thread delete it.
    void release() { m_released.set_value(); }

protected:
    void run() override
    {
        auto server = std::make_unique<ReplayServer>(m_options);
        if (!server->listen(m_address, m_port)) {
            m_listening.set_value({nullptr, 0, server->errorString()});
            return;
        }
        m_listening.set_value({server.get(), server->port(), {}});
        exec();
        m_released.get_future().wait();
    }

private:
    const ReplayOptions m_options;
    const QHostAddress m_address;
    const quint16 m_port;
    std::promise<Listening> m_listening;
    std::promise<void> m_released;
};

ReplayServerThread::~ReplayServerThread()
{
    stop();
}

quint16 ReplayServerThread::start(const ReplayOptions &options, const QHostAddress &address, quint16 port)
{
    stop();
    m_thread = new Worker(options, address, port);
    std::future<Worker::Listening> answer = m_thread->listening();
    m_thread->start();
    Worker::Listening result = answer.get();
    if (!result.server) {
        m_errorString = result.errorString;
        stop();
        return 0;
    }
    m_server = result.server;
    m_errorString.clear();
    m_port = result.port;
    return m_port;
}

void ReplayServerThread::stop()
{
    m_server = nullptr; // deleted by its thread when its event loop ends
    if (m_thread) {
        m_thread->release();
        m_thread->quit();
        m_thread->wait();
        delete m_thread;
        m_thread = nullptr;
    }
    m_port = 0;
}

} // namespace streamscope::replay
