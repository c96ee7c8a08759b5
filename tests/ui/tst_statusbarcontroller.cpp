// The status bar from the table's rows: streams counted by state (captures apart), the total
// rates, the active alerts and what records; the host clock and the CPU only on slow ticks.

#include "../common/LayoutRequests.h"
#include "../common/TestRegistry.h"

#include "AlertMonitor.h"
#include "Format.h"
#include "HostClock.h"
#include "StatusBarController.h"
#include "StreamTableModel.h"

#include <QtTest/QTest>
#include <QtWidgets/QLabel>
#include <QtWidgets/QMainWindow>
#include <QtWidgets/QStatusBar>

#include <utility>

using namespace streamscope;
using namespace streamscope::ui;

namespace {

StreamSnapshot snapshot(StreamId id, StreamState state, bool recording = false)
{
    StreamSnapshot s;
    s.id = id;
    s.name = QStringLiteral("s%1").arg(id);
    s.state = state;
    s.takenAtNs = 1;
    s.record.on = recording;
    s.record.bytesWritten = recording ? 3 * 1024 * 1024 : 0;
    return s;
}

// Stream s1 silent for 5 s under a 1-second rule: one active alert.
void raiseSilentAlert(alerts::AlertMonitor &alerts)
{
    alerts::AlertRule rule;
    rule.silentS = 1;
    alerts.setRule(QStringLiteral("s1"), rule);
    alerts::AlertMonitor::Sample sample;
    sample.state = StreamState::Live;
    sample.silentMs = 5000;
    alerts.evaluate(1, QStringLiteral("s1"), sample, 1000);
}

} // namespace

class tst_StatusBarController : public QObject {
    Q_OBJECT
private slots:
    void countsAndSlowReadings();
    void clockErrorInHumanUnits();
    void aTickOfNewFiguresLaysNothingOut();
};

void tst_StatusBarController::countsAndSlowReadings()
{
    QMainWindow window;
    StreamTableModel model;
    alerts::AlertMonitor alerts;
    StatusBarController status(window.statusBar(), &model, &alerts);
    const auto label = [&window](const char *name) { return window.findChild<QLabel *>(QLatin1String(name)); };
    QVERIFY(label("statusStreams") && label("statusClock") && label("statusCpu") && label("statusRecord"));

    model.update({snapshot(1, StreamState::Live), snapshot(2, StreamState::Live, true),
                  snapshot(3, StreamState::Stopped), snapshot(4, StreamState::Live)},
                 1000);
    model.setOfflineFigures(4, 10.0, 100.0, 1.0, 2.0); // an open capture's row
    status.refresh({SnapshotHub::TickKind::Fast, 1000, 0});
    QCOMPARE(label("statusStreams")->text(), QStringLiteral("3 streams · 2 live · 1 stopped · 1 capture"));
    QVERIFY2(label("statusRate")->text().startsWith(QLatin1String("0 msgs/s")),
             qPrintable(label("statusRate")->text()));
    QVERIFY(label("statusAlerts")->isHidden());
    QVERIFY(!label("statusRecord")->isHidden());
    QCOMPARE(label("statusRecord")->text(), QStringLiteral("● recording 1 stream · 3.0 MB"));
    // A fast tick reads neither the host clock nor the CPU.
    QVERIFY(label("statusClock")->text().isEmpty());
    QVERIFY(label("statusCpu")->text().isEmpty());

    // An alert raised: counted.
    raiseSilentAlert(alerts);
    QCOMPARE(alerts.activeCount(), 1);

    // A slow tick: the clock as the kernel sees it, the CPU since the last reading.
    status.refresh({SnapshotHub::TickKind::Slow, 2000, 1000});
    QVERIFY2(label("statusClock")->text().startsWith(QLatin1String("clock ")),
             qPrintable(label("statusClock")->text()));
    QVERIFY2(label("statusCpu")->text().startsWith(QLatin1String("CPU ")), qPrintable(label("statusCpu")->text()));
    QVERIFY(!label("statusAlerts")->isHidden());
    QCOMPARE(label("statusAlerts")->text(), QStringLiteral("⚠ 1 alert"));
}

// The kernel's estimate of the clock's error, as the status bar says it: "±16 s", never
// "±1.6e+04 ms".
void tst_StatusBarController::clockErrorInHumanUnits()
{
    HostClockState state;
    state.synchronised = true;
    for (const auto &[ms, text] :
         {std::pair{0.3, "clock synced ±0.30 ms"}, std::pair{12.0, "clock synced ±12 ms"},
          std::pair{16000.0, "clock synced ±16 s"}, std::pair{150000.0, "clock synced ±2.5 min"}}) {
        state.estimatedErrorMs = ms;
        QCOMPARE(hostClockText(state), QString::fromUtf8(text));
    }
}

// Ten ticks a second of new rates (same width), an active alert, a recording stream and a slow
// tick's clock and CPU: the labels repaint, and neither the status bar nor the window is laid
// out again (a label's width that followed its text, or a style sheet set again every tick,
// laid out the whole window ten times a second).
void tst_StatusBarController::aTickOfNewFiguresLaysNothingOut()
{
    QMainWindow window;
    window.setCentralWidget(new QLabel(QStringLiteral("streams")));
    StreamTableModel model;
    alerts::AlertMonitor alerts;
    StatusBarController status(window.statusBar(), &model, &alerts);
    raiseSilentAlert(alerts);
    QCOMPARE(alerts.activeCount(), 1);
    window.resize(1280, 200);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    quint64 messages = 0;
    int n = 0;
    const auto tick = [&](SnapshotHub::TickKind kind) {
        ++n;
        StreamSnapshot live = snapshot(1, StreamState::Live, true);
        StreamSnapshot other = snapshot(2, StreamState::Live);
        messages += 100 + quint64(n % 3) * 7; // 1,000 to 1,140 msgs/s: a new text each tick
        live.messages = messages;
        live.bytes = messages * 90;
        live.takenAtNs = qint64(n) * 100'000'000;
        other.takenAtNs = live.takenAtNs;
        model.update({live, other}, n * 100);
        status.refresh({kind, qint64(n) * 100, 0});
        QCoreApplication::processEvents();
    };
    // The first second sizes the labels.
    for (int i = 0; i < 10; ++i)
        tick(i == 9 ? SnapshotHub::TickKind::Slow : SnapshotHub::TickKind::Fast);
    QCoreApplication::processEvents();
    const QString before = window.findChild<QLabel *>(QStringLiteral("statusRate"))->text();

    int requests = 0;
    {
        testing::LayoutRequests spy(&window);
        for (int i = 0; i < 10; ++i)
            tick(i == 9 ? SnapshotHub::TickKind::Slow : SnapshotHub::TickKind::Fast);
        requests = spy.count();
    }
    QVERIFY(window.findChild<QLabel *>(QStringLiteral("statusRate"))->text() != before); // the figures moved
    QVERIFY(!window.findChild<QLabel *>(QStringLiteral("statusAlerts"))->isHidden());
    QVERIFY(!window.findChild<QLabel *>(QStringLiteral("statusRecord"))->isHidden());
    QCOMPARE(requests, 0);
}

STREAMSCOPE_TEST_MAIN(tst_StatusBarController)
#include "tst_statusbarcontroller.moc"
