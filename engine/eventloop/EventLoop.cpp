#include "EventLoop.h"

#include <QtCore/QThread>
#include <QtCore/QtGlobal>

#ifdef Q_OS_LINUX
#include "EpollEventDispatcher.h"
#endif
#ifdef Q_OS_UNIX
#include <sys/resource.h>
#endif

namespace streamscope {

bool installEventLoop(QThread *thread)
{
#ifdef Q_OS_LINUX
    if (!thread || qEnvironmentVariable("STREAMSCOPE_EVENT_LOOP") == QLatin1String("qt"))
        return false;
    auto *dispatcher = new EpollEventDispatcher;
    if (!dispatcher->isValid()) {
        delete dispatcher;
        return false;
    }
    thread->setEventDispatcher(dispatcher);
    return true;
#else
    Q_UNUSED(thread);
    return false;
#endif
}

long long raiseOpenFileLimit()
{
#ifdef Q_OS_UNIX
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0)
        return -1;
    if (limit.rlim_cur != limit.rlim_max) {
        rlimit raised = limit;
        raised.rlim_cur = limit.rlim_max;
        // macOS refuses more than OPEN_MAX with an unlimited hard limit: keep the soft one then.
        if (setrlimit(RLIMIT_NOFILE, &raised) == 0)
            limit = raised;
    }
    return limit.rlim_cur == RLIM_INFINITY ? -1 : static_cast<long long>(limit.rlim_cur);
#else
    return -1;
#endif
}

} // namespace streamscope
