// EpollEventDispatcher: the worker threads' event loop. Timers, socket notifiers on a
// socketpair, posted events and quit from another thread, each on a thread that runs it.

#include "core/EpollEventDispatcher.h"
#include "core/ThreadHandOff.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QSocketNotifier>
#include <QtCore/QThread>
#include <QtCore/QTimer>
#include <QtTest/QtTest>

#include <sys/socket.h>
#include <unistd.h>

#include <functional>
#include <mutex>

using streamscope::EpollEventDispatcher;
using streamscope::handOffAcquire;
using streamscope::handOffRelease;

namespace {

// Runs `body` on a fresh thread whose event loop is an EpollEventDispatcher; returns when the
// thread's loop has quit (body must make it quit) or after timeoutMs.
bool runOnEpollThread(const std::function<void(QThread *)> &body, int timeoutMs = 5000)
{
    QThread thread;
    auto *dispatcher = new EpollEventDispatcher;
    if (!dispatcher->isValid())
        return false;
    thread.setEventDispatcher(dispatcher);
    QObject::connect(&thread, &QThread::started, [&] { body(&thread); });
    // Qt's join is invisible to ThreadSanitizer (Qt is not instrumented): annotate it.
    QObject::connect(&thread, &QThread::finished, [&] { handOffRelease(&thread); });
    thread.start();
    const bool finished = thread.wait(timeoutMs);
    if (!finished) {
        thread.quit();
        thread.wait();
    }
    handOffAcquire(&thread);
    return finished;
}

} // namespace

class tst_EpollDispatcher : public QObject {
    Q_OBJECT
private slots:
    void isUsedByTheThread();
    void timersFireInDeadlineOrder();
    void repeatingTimerKeepsItsPhase();
    void zeroTimerRunsOnTheNextPass();
    void timerStoppedByAnEarlierOneDoesNotFire();
    void remainingTimeAndRegisteredTimers();
    void readNotifierFollowsTheData();
    void disabledNotifierStaysQuiet();
    void writeNotifierAndHangUp();
    void notifierDeletedByAnotherOnesSlot();
    void regularFileIsAlwaysReady();
    void postedEventsAndQuitFromAnotherThread();
};

void tst_EpollDispatcher::isUsedByTheThread()
{
    bool ours = false;
    QVERIFY(runOnEpollThread([&](QThread *t) {
        ours = qobject_cast<EpollEventDispatcher *>(QAbstractEventDispatcher::instance(t)) != nullptr;
        t->quit();
    }));
    QVERIFY(ours);
}

void tst_EpollDispatcher::timersFireInDeadlineOrder()
{
    QList<int> order;
    QVERIFY(runOnEpollThread([&](QThread *t) {
        QTimer::singleShot(30, [&] { order << 30; });
        QTimer::singleShot(10, [&] { order << 10; });
        QTimer::singleShot(20, [&] { order << 20; });
        QTimer::singleShot(40, [t] { t->quit(); });
    }));
    QCOMPARE(order, (QList<int>{10, 20, 30}));
}

void tst_EpollDispatcher::repeatingTimerKeepsItsPhase()
{
    int ticks = 0;
    qint64 elapsedMs = 0;
    QVERIFY(runOnEpollThread([&](QThread *t) {
        auto *timer = new QTimer;
        timer->setTimerType(Qt::PreciseTimer);
        auto *clock = new QElapsedTimer;
        clock->start();
        QObject::connect(timer, &QTimer::timeout, [=, &ticks, &elapsedMs] {
            if (++ticks == 20) {
                elapsedMs = clock->elapsed();
                timer->stop();
                delete clock;
                timer->deleteLater();
                t->quit();
            }
        });
        timer->start(5);
    }));
    QCOMPARE(ticks, 20);
    // 20 ticks of 5 ms: never early, and not drifting by a rounding per tick.
    QVERIFY2(elapsedMs >= 100 && elapsedMs < 100 + 60, qPrintable(QString::number(elapsedMs)));
}

void tst_EpollDispatcher::zeroTimerRunsOnTheNextPass()
{
    int runs = 0;
    QVERIFY(runOnEpollThread([&](QThread *t) {
        auto *timer = new QTimer;
        QObject::connect(timer, &QTimer::timeout, [=, &runs] {
            if (++runs == 1000) {
                timer->stop();
                timer->deleteLater();
                t->quit();
            }
        });
        timer->start(0);
    }, 2000));
    QCOMPARE(runs, 1000);
}

void tst_EpollDispatcher::timerStoppedByAnEarlierOneDoesNotFire()
{
    bool secondFired = false;
    QVERIFY(runOnEpollThread([&](QThread *t) {
        auto *second = new QTimer;
        second->setSingleShot(true);
        QObject::connect(second, &QTimer::timeout, [&] { secondFired = true; });
        auto *first = new QTimer;
        first->setSingleShot(true);
        QObject::connect(first, &QTimer::timeout, [=] { second->stop(); });
        first->start(10);
        second->start(12);
        // Both are due in the same pass after this sleep: the first's slot stops the second.
        QThread::msleep(30);
        QTimer::singleShot(50, [=] {
            delete first;
            delete second;
            t->quit();
        });
    }));
    QVERIFY(!secondFired);
}

void tst_EpollDispatcher::remainingTimeAndRegisteredTimers()
{
    int remaining = -2;
    int registered = 0;
    int afterStop = -2;
    QVERIFY(runOnEpollThread([&](QThread *t) {
        QTimer timer;
        timer.start(1000);
        remaining = timer.remainingTime();
        registered = int(QAbstractEventDispatcher::instance()->registeredTimers(&timer).size());
        timer.stop();
        afterStop = timer.remainingTime();
        t->quit();
    }));
    QVERIFY2(remaining > 900 && remaining <= 1000, qPrintable(QString::number(remaining)));
    QCOMPARE(registered, 1);
    QCOMPARE(afterStop, -1);
}

void tst_EpollDispatcher::readNotifierFollowsTheData()
{
    int fds[2];
    QCOMPARE(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
    QByteArray received;
    QVERIFY(runOnEpollThread([&](QThread *t) {
        auto *notifier = new QSocketNotifier(fds[0], QSocketNotifier::Read);
        QObject::connect(notifier, &QSocketNotifier::activated, [=, &received] {
            char buf[64];
            const ssize_t n = ::read(fds[0], buf, sizeof buf);
            if (n > 0)
                received.append(buf, qsizetype(n));
            if (received.size() >= 6) {
                delete notifier;
                t->quit();
            }
        });
        QTimer::singleShot(5, [=] { QVERIFY(::write(fds[1], "abc", 3) == 3); });
        QTimer::singleShot(15, [=] { QVERIFY(::write(fds[1], "def", 3) == 3); });
    }));
    QCOMPARE(received, QByteArray("abcdef"));
    ::close(fds[0]);
    ::close(fds[1]);
}

void tst_EpollDispatcher::disabledNotifierStaysQuiet()
{
    int fds[2];
    QCOMPARE(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
    int activations = 0;
    QVERIFY(runOnEpollThread([&](QThread *t) {
        auto *notifier = new QSocketNotifier(fds[0], QSocketNotifier::Read);
        QObject::connect(notifier, &QSocketNotifier::activated, [&] { ++activations; });
        notifier->setEnabled(false);
        QVERIFY(::write(fds[1], "x", 1) == 1);
        // Disabled for 30 ms with data waiting, then enabled: level-triggered, it fires then
        // (and keeps firing while the byte is unread).
        QTimer::singleShot(30, [&, notifier] {
            QCOMPARE(activations, 0);
            notifier->setEnabled(true);
        });
        QTimer::singleShot(60, [=] {
            delete notifier;
            t->quit();
        });
    }));
    QVERIFY(activations > 0);
    ::close(fds[0]);
    ::close(fds[1]);
}

void tst_EpollDispatcher::writeNotifierAndHangUp()
{
    int fds[2];
    QCOMPARE(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
    bool writable = false;
    bool readOnHangUp = false;
    QVERIFY(runOnEpollThread([&](QThread *t) {
        auto *write = new QSocketNotifier(fds[0], QSocketNotifier::Write);
        auto *read = new QSocketNotifier(fds[0], QSocketNotifier::Read);
        QObject::connect(write, &QSocketNotifier::activated, [&, write] {
            writable = true;
            write->setEnabled(false); // while it stays writable, it would fire every pass
            ::close(fds[1]);          // the peer hangs up: a read notification (EOF)
        });
        QObject::connect(read, &QSocketNotifier::activated, [=, &readOnHangUp] {
            char c;
            readOnHangUp = ::read(fds[0], &c, 1) == 0;
            delete write;
            delete read;
            t->quit();
        });
    }));
    QVERIFY(writable);
    QVERIFY(readOnHangUp);
    ::close(fds[0]);
}

void tst_EpollDispatcher::notifierDeletedByAnotherOnesSlot()
{
    // Two sockets ready in the same pass; the first slot deletes the second notifier, which
    // must then not be activated (it would be a dangling pointer).
    int a[2];
    int b[2];
    QCOMPARE(::socketpair(AF_UNIX, SOCK_STREAM, 0, a), 0);
    QCOMPARE(::socketpair(AF_UNIX, SOCK_STREAM, 0, b), 0);
    QVERIFY(::write(a[1], "x", 1) == 1);
    QVERIFY(::write(b[1], "x", 1) == 1);
    int fired = 0;
    QVERIFY(runOnEpollThread([&](QThread *t) {
        auto *na = new QSocketNotifier(a[0], QSocketNotifier::Read);
        auto *nb = new QSocketNotifier(b[0], QSocketNotifier::Read);
        QSocketNotifier *notifiers[2] = {na, nb};
        for (int i = 0; i < 2; ++i) {
            QSocketNotifier *self = notifiers[i];
            QSocketNotifier *other = notifiers[1 - i];
            QObject::connect(self, &QSocketNotifier::activated, [&fired, self, other, t] {
                ++fired;
                delete other;
                self->setEnabled(false);
                self->deleteLater();
                QTimer::singleShot(20, [t] { t->quit(); });
            });
        }
    }));
    QCOMPARE(fired, 1);
    for (int fd : {a[0], a[1], b[0], b[1]})
        ::close(fd);
}

void tst_EpollDispatcher::regularFileIsAlwaysReady()
{
    // epoll refuses regular files; poll() reports them readable: so does the dispatcher.
    QTemporaryFile file;
    QVERIFY(file.open());
    file.write("0123456789");
    file.flush();
    const int fd = int(file.handle());
    QVERIFY(::lseek(fd, 0, SEEK_SET) == 0);
    QByteArray read;
    QVERIFY(runOnEpollThread([&](QThread *t) {
        auto *notifier = new QSocketNotifier(fd, QSocketNotifier::Read);
        QObject::connect(notifier, &QSocketNotifier::activated, [=, &read] {
            char c;
            if (::read(fd, &c, 1) == 1)
                read.append(c);
            else {
                delete notifier; // end of file: read() returned 0
                t->quit();
            }
        });
    }));
    QCOMPARE(read, QByteArray("0123456789"));
}

void tst_EpollDispatcher::postedEventsAndQuitFromAnotherThread()
{
    // A thread blocked in epoll_wait with no timer: posted calls from here wake it, each runs
    // once, in order; then quit() from here ends its loop.
    QThread thread;
    auto *dispatcher = new EpollEventDispatcher;
    QVERIFY(dispatcher->isValid());
    thread.setEventDispatcher(dispatcher);
    auto *context = new QObject;
    context->moveToThread(&thread);
    QObject::connect(&thread, &QThread::finished, context, &QObject::deleteLater);
    thread.start();
    QList<int> seen;
    std::mutex mutex; // std:: so that ThreadSanitizer sees it; Qt is not instrumented
    const char token = 0;
    for (int i = 0; i < 200; ++i) {
        handOffRelease(&token); // the posted call is handed over through Qt's queue
        QMetaObject::invokeMethod(context, [&, i] {
            handOffAcquire(&token);
            std::lock_guard lock(mutex);
            seen << i;
        });
        if (i % 50 == 0)
            QThread::msleep(5); // let it go back to sleep in between
    }
    QTRY_COMPARE_WITH_TIMEOUT([&] { std::lock_guard lock(mutex); return seen.size(); }(), 200, 5000);
    QObject::connect(&thread, &QThread::finished, [&] { handOffRelease(&thread); });
    thread.quit();
    QVERIFY(thread.wait(2000));
    handOffAcquire(&thread);
    QList<int> expected;
    for (int i = 0; i < 200; ++i)
        expected << i;
    QCOMPARE(seen, expected);
}

QTEST_GUILESS_MAIN(tst_EpollDispatcher)
#include "tst_epolldispatcher.moc"
