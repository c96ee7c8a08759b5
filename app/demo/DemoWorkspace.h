#pragma once

// The built-in demo: two in-process replay servers on 127.0.0.1 (websocket and Betfair-style
// TLS lines, each on its own thread) and a workspace of streams of different kinds pointed
// at them. One stream drops its connection now and then, one goes silent for a while and one
// has sequence gaps, so that a newcomer sees a reconnect, a stall and an alert within the
// first minute. No network beyond loopback is used.
//
// What the demo saves can be opened again: its Betfair credentials are references
// (env:STREAMSCOPE_DEMO_APP_KEY, env:STREAMSCOPE_DEMO_SESSION, set in this process) and its
// certificate lives in the app's data folder, not in a temporary one. Its servers' ports are
// this run's: saveNote() says what a saved copy cannot do.
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
    // Shown before the demo's workspace is first saved: what will not work in the copy.
    QString saveNote() const;

private:
    std::unique_ptr<replay::ReplayServerThread> m_websocket;
    std::unique_ptr<replay::ReplayServerThread> m_lines;
    QTemporaryDir m_dir; // the certificate, where the app's data folder cannot be written
    QString m_caPath;
    quint16 m_wsPort = 0;
    quint16 m_linePort = 0;
    Workspace m_workspace;
};

} // namespace streamscope::app
