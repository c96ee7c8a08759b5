#pragma once

// The event loop of the engine's worker threads on Linux: epoll instead of poll().
//
// Qt's own dispatchers hand the kernel every socket of the thread on every pass (poll()), so
// a pass costs in proportion to the sockets the thread owns, not to those that are ready.
// With hundreds of streams per worker each carrying a message at a time (1,000 streams × 100
// msgs/s), that was 13 % of the client's CPU. Here sockets are registered with epoll once
// and a pass costs what its ready sockets cost.
//
// It keeps the semantics of QEventDispatcherUNIX: level-triggered socket notifiers (read,
// write, exception; a hang-up or an error activates all three; a regular file, which epoll
// refuses, is ready on every pass as poll() reports it), timers fired in deadline
// order at most once per pass and re-armed on their phase, posted events sent at the start
// of each pass, wakeUp() from any thread through an eventfd, interrupt().
//
// Thread contract: everything but wakeUp() and interrupt() runs on the thread that owns it.

#include <QtCore/QAbstractEventDispatcher>
#include <QtCore/QHash>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

class QSocketNotifier;
struct epoll_event;

namespace streamscope {

class EpollEventDispatcher final : public QAbstractEventDispatcher {
    Q_OBJECT
public:
    explicit EpollEventDispatcher(QObject *parent = nullptr);
    ~EpollEventDispatcher() override;

    // False when epoll or the eventfd could not be created: use Qt's dispatcher then.
    bool isValid() const { return m_epoll >= 0 && m_wake >= 0; }

    bool processEvents(QEventLoop::ProcessEventsFlags flags) override;

    void registerSocketNotifier(QSocketNotifier *notifier) override;
    void unregisterSocketNotifier(QSocketNotifier *notifier) override;

    void registerTimer(int timerId, qint64 interval, Qt::TimerType timerType, QObject *object) override;
    bool unregisterTimer(int timerId) override;
    bool unregisterTimers(QObject *object) override;
    QList<TimerInfo> registeredTimers(QObject *object) const override;
    int remainingTime(int timerId) override;

    void wakeUp() override;
    void interrupt() override;

private:
    struct Watch {
        QSocketNotifier *notifiers[3] = {nullptr, nullptr, nullptr}; // QSocketNotifier::Type
        quint32 events = 0;                                          // registered with epoll
        bool alwaysReady = false; // a file epoll refuses (EPERM): ready on every pass, as poll() says
    };
    struct Timer {
        int id = 0;
        qint64 intervalMs = 0;
        Qt::TimerType type = Qt::CoarseTimer;
        QObject *object = nullptr;
        std::multimap<qint64, int>::iterator due; // in m_deadlines
    };

    void updateWatch(int fd, Watch &watch);
    int waitTimeoutMs() const;
    void addPending(const Watch &watch, quint32 events);
    int activateSocketNotifiers(int ready);
    int activateTimers();
    void wakeUpLocked(); // m_wakeLock held

    int m_epoll = -1;
    int m_wake = -1; // eventfd
    // Held by a wake (wakeUp, interrupt: any thread) and by the destructor. QThread::exit()
    // wakes the loop from another thread while the ending thread deletes its dispatcher;
    // Qt orders the two with its own mutex, which a thread sanitizer cannot see. Taken once
    // per posted event (as Qt's own post takes its queue's), never per message.
    std::mutex m_wakeLock;
    std::atomic<bool> m_wakePending{false};
    std::atomic<bool> m_interrupted{false};
    QHash<int, Watch> m_watches;              // by file descriptor
    std::vector<int> m_alwaysReady;           // descriptors of watches with alwaysReady
    std::vector<QSocketNotifier *> m_pending; // activations of this pass; nulled when unregistered
    QHash<int, Timer> m_timers;               // by timer id
    std::multimap<qint64, int> m_deadlines;   // monotonic ns → timer id
    std::vector<int> m_dueIds;                // reused by activateTimers()
    std::unique_ptr<epoll_event[]> m_events;  // kMaxEventsPerPass, reused
};

} // namespace streamscope
