#include "EpollEventDispatcher.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QSocketNotifier>

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <ctime>
#include <limits>

namespace streamscope {

namespace {

constexpr int kMaxEventsPerPass = 256;

qint64 monotonicNs()
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return qint64(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

} // namespace

EpollEventDispatcher::EpollEventDispatcher(QObject *parent)
    : QAbstractEventDispatcher(parent)
    , m_events(std::make_unique<epoll_event[]>(kMaxEventsPerPass))
{
    m_epoll = epoll_create1(EPOLL_CLOEXEC);
    m_wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (m_epoll >= 0 && m_wake >= 0) {
        epoll_event ev{};
        ev.events = EPOLLIN;
        ev.data.fd = m_wake;
        if (epoll_ctl(m_epoll, EPOLL_CTL_ADD, m_wake, &ev) != 0) {
            ::close(m_wake);
            m_wake = -1;
        }
    }
}

EpollEventDispatcher::~EpollEventDispatcher()
{
    // After the last wake another thread made (wakeUp, interrupt).
    const std::lock_guard<std::mutex> lock(m_wakeLock);
    if (m_wake >= 0)
        ::close(m_wake);
    if (m_epoll >= 0)
        ::close(m_epoll);
}

// ---- socket notifiers -------------------------------------------------------------------

void EpollEventDispatcher::registerSocketNotifier(QSocketNotifier *notifier)
{
    const int fd = int(notifier->socket());
    Watch &watch = m_watches[fd];
    watch.notifiers[notifier->type()] = notifier;
    updateWatch(fd, watch);
}

void EpollEventDispatcher::unregisterSocketNotifier(QSocketNotifier *notifier)
{
    for (QSocketNotifier *&pending : m_pending)
        if (pending == notifier)
            pending = nullptr;
    const int fd = int(notifier->socket());
    const auto it = m_watches.find(fd);
    if (it == m_watches.end() || it->notifiers[notifier->type()] != notifier)
        return;
    it->notifiers[notifier->type()] = nullptr;
    updateWatch(fd, *it);
    if (!it->notifiers[0] && !it->notifiers[1] && !it->notifiers[2])
        m_watches.erase(it);
}

void EpollEventDispatcher::updateWatch(int fd, Watch &watch)
{
    quint32 wanted = 0;
    if (watch.notifiers[QSocketNotifier::Read])
        wanted |= EPOLLIN;
    if (watch.notifiers[QSocketNotifier::Write])
        wanted |= EPOLLOUT;
    if (watch.notifiers[QSocketNotifier::Exception])
        wanted |= EPOLLPRI;
    if (wanted == watch.events)
        return;
    if (watch.alwaysReady) {
        watch.events = wanted;
        if (wanted == 0) {
            watch.alwaysReady = false;
            m_alwaysReady.erase(std::remove(m_alwaysReady.begin(), m_alwaysReady.end(), fd), m_alwaysReady.end());
        }
        return;
    }
    epoll_event ev{};
    ev.events = wanted;
    ev.data.fd = fd;
    if (wanted == 0) {
        // ENOENT/EBADF: the descriptor was closed first, which removed it already.
        epoll_ctl(m_epoll, EPOLL_CTL_DEL, fd, &ev);
    } else if (watch.events == 0) {
        if (epoll_ctl(m_epoll, EPOLL_CTL_ADD, fd, &ev) != 0) {
            if (errno == EEXIST) {
                epoll_ctl(m_epoll, EPOLL_CTL_MOD, fd, &ev);
            } else if (errno == EPERM) { // a regular file or a directory
                watch.alwaysReady = true;
                m_alwaysReady.push_back(fd);
            }
        }
    } else if (epoll_ctl(m_epoll, EPOLL_CTL_MOD, fd, &ev) != 0 && errno == ENOENT) {
        epoll_ctl(m_epoll, EPOLL_CTL_ADD, fd, &ev);
    }
    watch.events = wanted;
}

void EpollEventDispatcher::addPending(const Watch &watch, quint32 e)
{
    const bool broken = e & (EPOLLHUP | EPOLLERR);
    if ((e & EPOLLIN || broken) && watch.notifiers[QSocketNotifier::Read])
        m_pending.push_back(watch.notifiers[QSocketNotifier::Read]);
    if ((e & EPOLLOUT || broken) && watch.notifiers[QSocketNotifier::Write])
        m_pending.push_back(watch.notifiers[QSocketNotifier::Write]);
    if ((e & EPOLLPRI || broken) && watch.notifiers[QSocketNotifier::Exception])
        m_pending.push_back(watch.notifiers[QSocketNotifier::Exception]);
}

int EpollEventDispatcher::activateSocketNotifiers(int ready)
{
    // Collect first, then send: a notifier's slot may unregister (or delete) another one,
    // which takes it out of m_pending.
    m_pending.clear();
    const epoll_event *ev = m_events.get();
    for (int i = 0; i < ready; ++i) {
        const auto it = m_watches.constFind(ev[i].data.fd);
        if (it != m_watches.constEnd())
            addPending(*it, ev[i].events);
    }
    for (const int fd : m_alwaysReady) {
        const auto it = m_watches.constFind(fd);
        if (it != m_watches.constEnd())
            addPending(*it, EPOLLIN | EPOLLOUT);
    }
    int activated = 0;
    for (std::size_t i = 0; i < m_pending.size(); ++i) {
        if (QSocketNotifier *notifier = m_pending[i]) {
            m_pending[i] = nullptr;
            QEvent event(QEvent::SockAct);
            QCoreApplication::sendEvent(notifier, &event);
            ++activated;
        }
    }
    m_pending.clear();
    return activated;
}

// ---- timers ---------------------------------------------------------------------------

void EpollEventDispatcher::registerTimer(int timerId, qint64 interval, Qt::TimerType timerType, QObject *object)
{
    unregisterTimer(timerId);
    Timer t;
    t.id = timerId;
    t.intervalMs = std::max<qint64>(0, interval);
    t.type = timerType;
    t.object = object;
    t.due = m_deadlines.emplace(monotonicNs() + t.intervalMs * 1000000, timerId);
    m_timers.insert(timerId, t);
}

bool EpollEventDispatcher::unregisterTimer(int timerId)
{
    const auto it = m_timers.find(timerId);
    if (it == m_timers.end())
        return false;
    m_deadlines.erase(it->due);
    m_timers.erase(it);
    return true;
}

bool EpollEventDispatcher::unregisterTimers(QObject *object)
{
    bool any = false;
    for (auto it = m_timers.begin(); it != m_timers.end();) {
        if (it->object == object) {
            m_deadlines.erase(it->due);
            it = m_timers.erase(it);
            any = true;
        } else {
            ++it;
        }
    }
    return any;
}

QList<QAbstractEventDispatcher::TimerInfo> EpollEventDispatcher::registeredTimers(QObject *object) const
{
    QList<TimerInfo> out;
    for (const Timer &t : m_timers)
        if (t.object == object)
            out.append(TimerInfo(t.id, int(std::min<qint64>(t.intervalMs, std::numeric_limits<int>::max())), t.type));
    return out;
}

int EpollEventDispatcher::remainingTime(int timerId)
{
    const auto it = m_timers.constFind(timerId);
    if (it == m_timers.constEnd())
        return -1;
    const qint64 left = it->due->first - monotonicNs();
    return left <= 0 ? 0 : int(std::min<qint64>((left + 999999) / 1000000, std::numeric_limits<int>::max()));
}

int EpollEventDispatcher::waitTimeoutMs() const
{
    if (m_deadlines.empty())
        return -1;
    const qint64 left = m_deadlines.begin()->first - monotonicNs();
    if (left <= 0)
        return 0;
    return int(std::min<qint64>((left + 999999) / 1000000, std::numeric_limits<int>::max())); // never early
}

int EpollEventDispatcher::activateTimers()
{
    const qint64 now = monotonicNs();
    m_dueIds.clear();
    for (auto it = m_deadlines.begin(); it != m_deadlines.end() && it->first <= now; ++it)
        m_dueIds.push_back(it->second);
    int activated = 0;
    for (const int id : m_dueIds) {
        // An earlier timer's slot may have stopped this one, or restarted it (same id, later
        // deadline): only a timer still due fires.
        const auto it = m_timers.find(id);
        if (it == m_timers.end() || it->due->first > now)
            continue;
        // Re-armed on its phase; after a long stall, from now.
        qint64 next = it->due->first + it->intervalMs * 1000000;
        if (next <= now)
            next = now + it->intervalMs * 1000000;
        m_deadlines.erase(it->due);
        it->due = m_deadlines.emplace(next, id);
        QObject *object = it->object;
        QTimerEvent event(id);
        QCoreApplication::sendEvent(object, &event);
        ++activated;
    }
    return activated;
}

// ---- the loop ---------------------------------------------------------------------------

bool EpollEventDispatcher::processEvents(QEventLoop::ProcessEventsFlags flags)
{
    m_interrupted.store(false, std::memory_order_relaxed);
    emit awake();
    QCoreApplication::sendPostedEvents();

    int timeout = 0;
    if ((flags & QEventLoop::WaitForMoreEvents) && !m_interrupted.load(std::memory_order_relaxed)) {
        emit aboutToBlock();
        timeout = (flags & QEventLoop::X11ExcludeTimers) ? -1 : waitTimeoutMs();
        if (!m_alwaysReady.empty() && !(flags & QEventLoop::ExcludeSocketNotifiers))
            timeout = 0;
    }
    if (m_interrupted.load(std::memory_order_relaxed))
        return false;
    int ready = epoll_wait(m_epoll, m_events.get(), kMaxEventsPerPass, timeout);
    if (ready < 0)
        ready = 0; // EINTR: a signal; the caller loops
    bool woken = false;
    const epoll_event *ev = m_events.get();
    for (int i = 0; i < ready; ++i) {
        if (ev[i].data.fd == m_wake) {
            quint64 count = 0;
            while (::read(m_wake, &count, sizeof count) == sizeof count) {
            }
            m_wakePending.store(false, std::memory_order_release);
            woken = true;
        }
    }
    int activated = 0;
    if (!(flags & QEventLoop::ExcludeSocketNotifiers))
        activated += activateSocketNotifiers(ready);
    if (!(flags & QEventLoop::X11ExcludeTimers))
        activated += activateTimers();
    return activated > 0 || woken;
}

void EpollEventDispatcher::wakeUp()
{
    const std::lock_guard<std::mutex> lock(m_wakeLock);
    wakeUpLocked();
}

void EpollEventDispatcher::wakeUpLocked()
{
    // One write per batch of posted events: the flag is cleared when the loop reads the fd,
    // before it sends posted events again.
    if (m_wakePending.exchange(true, std::memory_order_acq_rel))
        return;
    const quint64 one = 1;
    while (::write(m_wake, &one, sizeof one) < 0 && errno == EINTR) {
    }
}

void EpollEventDispatcher::interrupt()
{
    const std::lock_guard<std::mutex> lock(m_wakeLock);
    m_interrupted.store(true, std::memory_order_relaxed);
    wakeUpLocked();
}

} // namespace streamscope
