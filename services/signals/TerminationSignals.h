#pragma once

// Turns SIGINT and SIGTERM (Ctrl-C, `kill`) into a Qt signal on the main thread, so that a
// process stops through its event loop: `streamscope --headless` still writes its report,
// `streamscope-replay` closes its connections. A signal handler may only write to a file
// descriptor, so it writes the signal number to a socket pair (the self-pipe) that a
// QSocketNotifier watches. On Windows, Ctrl-C and console close events do the same.
// `streamscope --headless` also asks for SIGHUP (enableReload), the service manager's
// "reload": it arrives as reloadRequested through the same pipe. Without that call SIGHUP
// keeps its default action (the process ends), as `streamscope-replay` wants.
//
// Thread contract: one instance at a time per process, created and destroyed on the main
// thread. Owns the socket pair and its notifier; the destructor restores the default
// handlers.

#include <QtCore/QObject>

class QSocketNotifier;

namespace streamscope::app {

class TerminationSignals : public QObject {
    Q_OBJECT
public:
    explicit TerminationSignals(QObject *parent = nullptr);
    ~TerminationSignals() override;

    // Turns SIGHUP into reloadRequested (POSIX only; elsewhere there is no SIGHUP).
    void enableReload();

signals:
    void terminationRequested(int signalNumber);
    void reloadRequested();

private:
    QSocketNotifier *m_notifier = nullptr;
    bool m_reload = false;
};

} // namespace streamscope::app
