#pragma once

// The built-in demo: two in-process replay servers on 127.0.0.1 (websocket and Betfair-style
// TLS lines, each on its own thread) and a workspace of streams of different kinds pointed
// at them. One stream drops its connection now and then, one goes silent for a while and one
// has sequence gaps, so that a newcomer sees a reconnect, a stall and an alert within the
// first minute. No network beyond loopback is used.
//
// Thread contract: created and destroyed on the main thread; the servers stop with it.

#include "Workspace.h"

#include <QtCore/QTemporaryDir>

#include <memory>

namespace streamscope::replay {
class ReplayServerThread;
}

namespace streamscope::app {

class DemoWorkspace {
public:
    DemoWorkspace();
    ~DemoWorkspace();

    // Starts the servers; false (with `error`) if they cannot listen.
    bool start(QString *error);
    const Workspace &workspace() const { return m_workspace; }

private:
    std::unique_ptr<replay::ReplayServerThread> m_websocket;
    std::unique_ptr<replay::ReplayServerThread> m_lines;
    QTemporaryDir m_dir; // the demo server's certificate, trusted by the Betfair stream
    Workspace m_workspace;
};

} // namespace streamscope::app
