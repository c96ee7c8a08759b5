#pragma once

#include "ReplayOptions.h"

#include <QHostAddress>
#include <QString>

namespace streamscope::replay {

class ReplayServer;

// Runs a ReplayServer on a QThread of its own, so that an in-process replay source (the
// demo, integration tests) never competes with the thread that drives the client.
// Thread contract: start() and stop() are called from one owning thread (usually the GUI
// thread) and block until the server is listening or gone. server() may be used to connect
// to its signals (queued across threads) and to call its thread-safe members.
class ReplayServerThread {
public:
    ReplayServerThread() = default;
    ~ReplayServerThread();
    ReplayServerThread(const ReplayServerThread &) = delete;
    ReplayServerThread &operator=(const ReplayServerThread &) = delete;

    // Starts the thread and the server; returns the port it listens on, or 0 on failure
    // (see errorString()). Restarts it if it was running.
    quint16 start(const ReplayOptions &options, const QHostAddress &address = QHostAddress::LocalHost,
                  quint16 port = 0);
    void stop();

    bool isRunning() const { return m_server != nullptr; }
    quint16 port() const { return m_port; }
    QString errorString() const { return m_errorString; }
    ReplayServer *server() const { return m_server; }

private:
    class Worker;
    Worker *m_thread = nullptr;
    ReplayServer *m_server = nullptr;
    quint16 m_port = 0;
    QString m_errorString;
};

} // namespace streamscope::replay
