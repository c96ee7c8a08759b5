#pragma once

// The scale run opens up to 10,000 connections: the driver (whose servers and clients inherit
// the limit) and the client raise their soft limit on open files to the hard one. Windows has
// no such limit on sockets.
// A plain function; call it first in main().

#include <QtCore/qsystemdetection.h>

#ifdef Q_OS_UNIX
#include <sys/resource.h>
#endif

namespace streamscope::bench {

inline void raiseFileLimit()
{
#ifdef Q_OS_UNIX
    rlimit rl{};
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
#endif
}

} // namespace streamscope::bench
