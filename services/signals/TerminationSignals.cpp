#include "TerminationSignals.h"

#include <QtCore/QSocketNotifier>
#include <QtCore/QTimer>

#ifdef Q_OS_UNIX
#include <csignal>
#include <sys/socket.h>
#include <unistd.h>
#endif
#ifdef Q_OS_WIN
#include <windows.h>
#endif

namespace streamscope::app {

namespace {
#ifdef Q_OS_UNIX
int g_pipe[2] = {-1, -1};
void onSignal(int sig)
{
    const char c = char(sig);
    [[maybe_unused]] const auto n = ::write(g_pipe[1], &c, 1); // async-signal-safe
}
#endif
#ifdef Q_OS_WIN
TerminationSignals *g_instance = nullptr;
BOOL WINAPI onConsoleEvent(DWORD)
{
    if (g_instance)
        QMetaObject::invokeMethod(
            g_instance, [] { emit g_instance->terminationRequested(2); }, Qt::QueuedConnection);
    return TRUE;
}
#endif
} // namespace

TerminationSignals::TerminationSignals(QObject *parent)
    : QObject(parent)
{
#ifdef Q_OS_UNIX
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, g_pipe) == 0) {
        m_notifier = new QSocketNotifier(g_pipe[0], QSocketNotifier::Read, this);
        connect(m_notifier, &QSocketNotifier::activated, this, [this] {
            char c = 0;
            if (::read(g_pipe[0], &c, 1) != 1)
                return;
            if (int(c) == SIGHUP)
                emit reloadRequested();
            else
                emit terminationRequested(int(c));
        });
        struct sigaction sa = {};
        sa.sa_handler = onSignal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESTART;
        sigaction(SIGINT, &sa, nullptr);
        sigaction(SIGTERM, &sa, nullptr);
    }
#endif
#ifdef Q_OS_WIN
    g_instance = this;
    SetConsoleCtrlHandler(onConsoleEvent, TRUE);
#endif
}

void TerminationSignals::enableReload()
{
#ifdef Q_OS_UNIX
    if (!m_notifier || m_reload)
        return;
    struct sigaction sa = {};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGHUP, &sa, nullptr);
    m_reload = true;
#endif
}

TerminationSignals::~TerminationSignals()
{
#ifdef Q_OS_UNIX
    if (m_reload)
        signal(SIGHUP, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    delete m_notifier; // before its descriptor is closed
    m_notifier = nullptr;
    for (int &fd : g_pipe) {
        if (fd >= 0)
            ::close(fd);
        fd = -1;
    }
#endif
#ifdef Q_OS_WIN
    SetConsoleCtrlHandler(onConsoleEvent, FALSE);
    g_instance = nullptr;
#endif
}

} // namespace streamscope::app
