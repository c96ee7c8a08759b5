#include "WorkerThread.h"

#include "EngineWorker.h"

#include <QtCore/QAbstractEventDispatcher>
#include <QtCore/QCoreApplication>

namespace streamscope {

void WorkerThread::run()
{
    QAbstractEventDispatcher *dispatcher = eventDispatcher();
    while (!m_quit.load(std::memory_order_relaxed)) {
        dispatcher->processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
        // Objects deleted later from slots (transports, sockets) go now, as exec() would do.
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        if (m_worker.wantsCoalescing())
            QThread::usleep(kCoalesceUs);
    }
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
}

} // namespace streamscope
