#pragma once

// The event loop of a thread that owns thousands of sockets: on Linux EpollEventDispatcher
// (whose header says why), elsewhere, or with STREAMSCOPE_EVENT_LOOP=qt, Qt's own. The
// engine's worker threads and the replay server (its process's main thread, or its thread in
// the tests and the demo) run it, so that 10,000 streams cost a pass what their ready sockets
// cost, on both ends of the connections.
//
// A process that opens a socket per stream needs as many descriptors: the soft limit on open
// files (1,024 by default on many Linux systems) is raised to the hard one at start, by the
// application, the replay server and the benchmark's processes.
//
// Thread contract: installEventLoop() before `thread` runs its event loop: before start(), or
// for the main thread before the QCoreApplication is made; raiseOpenFileLimit() first thing in
// main(), before any other thread starts.

class QThread;

namespace streamscope {

// Gives `thread` the epoll event loop; returns whether it did (false: Qt's stays).
bool installEventLoop(QThread *thread);

// Raises the soft limit on open files to the hard one (Unix; elsewhere nothing: Windows has no
// such limit on sockets); returns the soft limit now (-1 unknown or unlimited).
long long raiseOpenFileLimit();

} // namespace streamscope
