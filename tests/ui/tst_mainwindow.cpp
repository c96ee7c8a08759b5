#include "../common/RefusingPort.h"
#include "../common/TestRegistry.h"
#include "../common/TimeFactor.h"
#include "AlertService.h"
#include "CaptureController.h"
#include "Engine.h"
#include "EventLogModel.h"
#include "EventLogPane.h"
#include "Format.h"
#include "InspectorModel.h"
#include "LatencyChart.h"
#include "MainActions.h"
#include "MainWindow.h"
#include "MessageInspector.h"
#include "RateChart.h"
#include "ReplayServerThread.h"
#include "Sparkline.h"
#include "StreamActionDelegate.h"
#include "StreamDetails.h"
#include "StreamDialog.h"
#include "StreamTableModel.h"

#include <QtCharts/QChartView>
#include <QtCore/QDateTime>
#include <QtCore/QFileInfo>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QSortFilterProxyModel>
#include <QtCore/QTemporaryDir>
#include <QtCore/QTimer>
#include <QtGui/QStandardItemModel>
#include <QtTest/QAbstractItemModelTester>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>
#include <QtWebSockets/QWebSocket>
#include <QtWebSockets/QWebSocketServer>
#include <QtWidgets/QAbstractButton>
#include <QtWidgets/QApplication>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDockWidget>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QMenu>
#include <QtWidgets/QMessageBox>
#include <QtWidgets/QPlainTextEdit>
#include <QtWidgets/QTableView>
#include <QtWidgets/QToolButton>

using namespace streamscope;
using namespace streamscope::ui;

// A websocket server on 127.0.0.1 (port 0) that sends every client a small JSON message
// with an event time every 10 ms.
class OddEvenFeedServer : public QObject {
public:
    OddEvenFeedServer()
        : m_server(QStringLiteral("feed"), QWebSocketServer::NonSecureMode)
    {
        QVERIFY(m_server.listen(QHostAddress::LocalHost, 0));
        connect(&m_server, &QWebSocketServer::newConnection, this, [this] {
            while (QWebSocket *s = m_server.nextPendingConnection()) {
                m_clients.append(s);
                connect(s, &QWebSocket::disconnected, this, [this, s] {
                    m_clients.removeOne(s);
                    s->deleteLater();
                });
            }
        });
        connect(&m_timer, &QTimer::timeout, this, [this] {
            ++m_seq;
            const QString msg = QStringLiteral("{\"ts\":%1,\"seq\":%2,\"kind\":\"%3\"}")
                                    .arg(QDateTime::currentMSecsSinceEpoch())
                                    .arg(m_seq)
                                    .arg(m_seq % 2 ? QStringLiteral("odd") : QStringLiteral("even"));
            for (QWebSocket *s : std::as_const(m_clients))
                s->sendTextMessage(msg);
        });
        m_timer.start(10);
    }
    ~OddEvenFeedServer() override
    {
        // The sockets are ours (nextPendingConnection hands them over); their disconnected()
        // must not reach m_clients while they go.
        m_timer.stop();
        for (QWebSocket *s : std::as_const(m_clients)) {
            s->disconnect(this);
            delete s;
        }
        m_clients.clear();
        m_server.close();
    }
    QUrl url() const { return QUrl(QStringLiteral("ws://127.0.0.1:%1/feed").arg(m_server.serverPort())); }
    // The feed goes quiet; its connections stay open.
    void pause() { m_timer.stop(); }

private:
    QWebSocketServer m_server;
    QList<QWebSocket *> m_clients;
    QTimer m_timer;
    int m_seq = 0;
};

class tst_MainWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void rowButtonsStopAndRestart();
    void toolbarActsOnMultiSelection();
    void inspectorTailsAndFilters();
    void columnsChosenRowsCopiedFilterCleared();
    void backlogColumnHiddenByDefaultAndInOldLayouts();
    void workspaceSaveLoadKeepsStreamsThresholdsLayout();
    void alertNotifiesOncePerEpisode();
    void detailsPaneAndStoppedLatency();
    void correctedLatencyAndClockStatus();
    void recordToggleKeepsTheConnection();
    void editApplyUnchangedLeavesTheWorkspace();
    void stallIsOneLineInTheEventLog();

private:
    static StreamConfig feedConfig(const QString &name, const QUrl &url)
    {
        StreamConfig c;
        c.name = name;
        c.venue = Venue::Generic;
        c.url = url;
        c.latencyField = QStringLiteral("/ts");
        c.latencyUnit = LatencyUnit::Milliseconds;
        c.reconnectBaseMs = 100;
        return c;
    }
    static StreamState stateOf(MainWindow &w, StreamId id)
    {
        const int row = w.streamModel()->rowOf(id);
        return row < 0 ? StreamState::Unknown
                       : StreamState(w.streamModel()->index(row, 0).data(StreamTableModel::StateRole).toInt());
    }
    static void clickRowButton(MainWindow &w, StreamId id, int button)
    {
        QTableView *table = w.streamTable();
        const QModelIndex source = w.streamModel()->index(w.streamModel()->rowOf(id), StreamTableModel::ColActions);
        const QModelIndex index = w.streamProxy()->mapFromSource(source);
        table->scrollTo(index);
        const QRect cell = table->visualRect(index);
        QVERIFY(cell.isValid());
        const QPoint pos = StreamActionDelegate::buttonRect(cell, button).center();
        QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::NoModifier, pos);
    }

    std::unique_ptr<OddEvenFeedServer> m_server;
};

void tst_MainWindow::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("StreamScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_mainwindow"));
    m_server = std::make_unique<OddEvenFeedServer>();
}

void tst_MainWindow::rowButtonsStopAndRestart()
{
    Engine engine;
    MainWindow w(&engine);
    QAbstractItemModelTester tester(w.streamModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    Workspace ws;
    ws.streams = {feedConfig(QStringLiteral("a"), m_server->url()), feedConfig(QStringLiteral("b"), m_server->url())};
    w.setWorkspace(ws, QString());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const QList<StreamId> ids = engine.streamIds();
    QCOMPARE(ids.size(), 2);
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(w, ids[0]), StreamState::Live, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(w, ids[1]), StreamState::Live, 10000);

    clickRowButton(w, ids[1], 0); // stop
    // Within one UI tick (100 ms) plus the queued hop to the worker.
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(w, ids[1]), StreamState::Stopped, 500);
    QCOMPARE(engine.snapshot(ids[1]).state, StreamState::Stopped);
    QCOMPARE(stateOf(w, ids[0]), StreamState::Live);
    const StreamTableModel::Row *stopped = w.streamModel()->row(ids[1]);
    QCOMPARE(stopped->msgsPerSec, 0.0); // at once, not fading over a second

    // The stopped row's first button is Start now, and the toolbar's Stop has nothing to stop.
    w.streamTable()->selectRow(
        w.streamProxy()->mapFromSource(w.streamModel()->index(w.streamModel()->rowOf(ids[1]), 0)).row());
    QAction *stop = w.findChild<QAction *>(QStringLiteral("stopStreams"));
    QTRY_VERIFY(!stop->isEnabled());
    clickRowButton(w, ids[1], 0); // start
    QTRY_VERIFY_WITH_TIMEOUT(stateOf(w, ids[1]) != StreamState::Stopped, 500);
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(w, ids[1]), StreamState::Live, 10000);
    QTRY_VERIFY(stop->isEnabled());

    clickRowButton(w, ids[1], 1); // restart
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(w, ids[1]), StreamState::Live, 10000);

    // Remove asks first: Cancel keeps the stream, Remove removes it.
    QString question;
    bool accept = false;
    QTimer answer;
    connect(&answer, &QTimer::timeout, &answer, [&] {
        if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
            question = box->text();
            for (QAbstractButton *b : box->buttons())
                if ((box->buttonRole(b) == QMessageBox::DestructiveRole) == accept)
                    b->click();
        }
    });
    answer.start(10);
    clickRowButton(w, ids[0], 2); // remove, cancelled
    QVERIFY2(question.startsWith(QStringLiteral("Remove the stream \"a\"?")), qPrintable(question));
    QCOMPARE(w.streamModel()->rowCount(), 2);
    accept = true;
    clickRowButton(w, ids[0], 2); // remove
    answer.stop();
    QTRY_COMPARE(w.streamModel()->rowCount(), 1);
    QVERIFY(!engine.contains(ids[0]));
    QVERIFY(w.isModified());
}

void tst_MainWindow::toolbarActsOnMultiSelection()
{
    Engine engine;
    MainWindow w(&engine);
    Workspace ws;
    for (int i = 0; i < 3; ++i)
        ws.streams.append(feedConfig(QStringLiteral("s%1").arg(i), m_server->url()));
    w.setWorkspace(ws, QString());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const QList<StreamId> ids = engine.streamIds();
    for (StreamId id : ids)
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(w, id), StreamState::Live, 10000);

    w.streamTable()->setFocus();
    w.streamTable()->selectAll();
    QCOMPARE(w.selectedStreams().size(), 3);
    QAction *stop = w.findChild<QAction *>(QStringLiteral("stopStreams"));
    QVERIFY(stop && stop->isEnabled());
    QCOMPARE(stop->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_Period));
    QTest::keyClick(w.streamTable(), Qt::Key_Period, Qt::ControlModifier);
    for (StreamId id : ids)
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(w, id), StreamState::Stopped, 500);
    QAction *restart = w.findChild<QAction *>(QStringLiteral("restartStreams"));
    restart->trigger();
    for (StreamId id : ids)
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(w, id), StreamState::Live, 10000);
}

// The header's menu hides and shows columns; Copy rows gives the selected rows as
// tab-separated text with the visible columns; Esc in the filter shows every stream again.
void tst_MainWindow::columnsChosenRowsCopiedFilterCleared()
{
    Engine engine;
    MainWindow w(&engine);
    Workspace ws;
    ws.streams = {feedConfig(QStringLiteral("alpha"), m_server->url()),
                  feedConfig(QStringLiteral("beta"), m_server->url()),
                  feedConfig(QStringLiteral("gamma"), m_server->url())};
    w.setWorkspace(ws, QString());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QTRY_COMPARE(w.streamProxy()->rowCount(), 3);

    QMenu menu;
    w.fillColumnMenu(&menu);
    QAction *gaps = menu.findChild<QAction *>(QStringLiteral("column%1").arg(StreamTableModel::ColGaps));
    QVERIFY(gaps && gaps->isChecked());
    gaps->toggle();
    QVERIFY(w.streamTable()->horizontalHeader()->isSectionHidden(StreamTableModel::ColGaps));

    w.streamTable()->selectRow(0);
    w.streamTable()->selectionModel()->select(w.streamProxy()->index(2, 0),
                                              QItemSelectionModel::Select | QItemSelectionModel::Rows);
    const QStringList lines = w.selectedRowsText().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    QVERIFY2(lines[0].startsWith(QStringLiteral("Stream\tState\t")), qPrintable(lines[0]));
    QVERIFY(!lines[0].contains(QLatin1String("Gaps")));
    QVERIFY2(lines[1].startsWith(QStringLiteral("alpha\t")), qPrintable(lines[1]));
    QVERIFY2(lines[2].startsWith(QStringLiteral("gamma\t")), qPrintable(lines[2]));
    QCOMPARE(lines[1].count(QLatin1Char('\t')), lines[0].count(QLatin1Char('\t')));
    // The same as CSV: CRLF lines, commas.
    const QString csv = w.selectedRowsText(MainWindow::RowFormat::Csv);
    QVERIFY(csv.endsWith(QStringLiteral("\r\n")));
    const QStringList csvLines = csv.split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
    QCOMPARE(csvLines.size(), 3);
    QVERIFY2(csvLines[0].startsWith(QStringLiteral("Stream,State,")), qPrintable(csvLines[0]));
    QVERIFY2(csvLines[2].startsWith(QStringLiteral("gamma,")), qPrintable(csvLines[2]));
    gaps->toggle();
    QVERIFY(!w.streamTable()->horizontalHeader()->isSectionHidden(StreamTableModel::ColGaps));

    auto *filter = w.findChild<QLineEdit *>(QStringLiteral("streamFilter"));
    QVERIFY(filter);
    filter->setFocus();
    QTest::keyClicks(filter, QStringLiteral("bet"));
    QCOMPARE(w.streamProxy()->rowCount(), 1);
    QTest::keyClick(filter, Qt::Key_Escape);
    QVERIFY(filter->text().isEmpty());
    QCOMPARE(w.streamProxy()->rowCount(), 3);
}

void tst_MainWindow::inspectorTailsAndFilters()
{
    Engine engine;
    MainWindow w(&engine);
    Workspace ws;
    ws.streams = {feedConfig(QStringLiteral("tail"), m_server->url())};
    w.setWorkspace(ws, QString());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const StreamId id = engine.streamIds().first();
    w.selectStream(id);
    QCOMPARE(w.inspector()->stream(), id);
    QTRY_VERIFY_WITH_TIMEOUT(w.inspector()->model()->rowCount() > 20, 10000);

    QTest::keyClicks(w.inspector()->filterEdit(), QStringLiteral("\"kind\":\"odd\""));
    const InspectorModel *model = w.inspector()->model();
    QTRY_VERIFY(model->rowCount() > 5);
    for (int r = 0; r < model->rowCount(); ++r)
        QVERIFY(model->index(r, InspectorModel::ColMessage).data().toString().contains(QStringLiteral("odd")));

    // Select a message: shown pretty-printed as plain text.
    w.inspector()->view()->selectRow(0);
    QTRY_VERIFY(w.inspector()->detail()->toPlainText().contains(QStringLiteral("\n    \"kind\": \"odd\"")));
}

void tst_MainWindow::workspaceSaveLoadKeepsStreamsThresholdsLayout()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("ws.json"));
    {
        Engine engine;
        MainWindow w(&engine);
        Workspace ws;
        StreamConfig a = feedConfig(QStringLiteral("alpha"), m_server->url());
        a.stallTimeoutMs = 4000;
        StreamConfig b = feedConfig(QStringLiteral("beta"), m_server->url());
        b.mode = DecodeMode::Raw;
        ws.streams = {a, b};
        w.setWorkspace(ws, QString());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        AlertRule rule;
        rule.rateBelow = 12.5;
        rule.p99AboveMs = 40;
        rule.silentS = 9;
        rule.gaps = true;
        w.alertService()->monitor().setRule(QStringLiteral("alpha"), rule);
        QVERIFY(w.isModified());
        w.findChild<QDockWidget *>(QStringLiteral("eventsDock"))->hide();
        w.rateChart()->setScope(RateChart::Scope::AllOnly);
        w.latencyChart()->setWindow(LatencyWindows::Window::Last60s);
        w.streamTable()->horizontalHeader()->resizeSection(StreamTableModel::ColName, 333);
        w.findChild<QLineEdit *>(QStringLiteral("streamFilter"))->setText(QStringLiteral("al"));
        QString error;
        QVERIFY2(w.saveWorkspace(path, &error), qPrintable(error));
        QVERIFY(!w.isModified());
        QCOMPARE(w.workspacePath(), path);
    }
    Engine engine;
    MainWindow w(&engine);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QString error;
    QVERIFY2(w.openWorkspace(path, &error), qPrintable(error));
    QVERIFY(!w.isModified());
    const QList<StreamId> ids = engine.streamIds();
    QCOMPARE(ids.size(), 2);
    QCOMPARE(engine.config(ids[0]).name, QStringLiteral("alpha"));
    QCOMPARE(engine.config(ids[0]).stallTimeoutMs, 4000);
    QCOMPARE(engine.config(ids[0]).url, m_server->url());
    QCOMPARE(engine.config(ids[1]).mode, DecodeMode::Raw);
    const AlertRule back = w.alertService()->monitor().ruleFor(QStringLiteral("alpha"));
    QCOMPARE(back.rateBelow, 12.5);
    QCOMPARE(back.p99AboveMs, 40.0);
    QCOMPARE(back.silentS, 9);
    QVERIFY(back.gaps);
    QVERIFY(w.alertService()->monitor().ruleFor(QStringLiteral("beta")).isEmpty());
    QVERIFY(w.findChild<QDockWidget *>(QStringLiteral("eventsDock"))->isHidden());
    QVERIFY(!w.findChild<QDockWidget *>(QStringLiteral("chartsDock"))->isHidden());
    QCOMPARE(w.rateChart()->scope(), RateChart::Scope::AllOnly);
    QCOMPARE(w.latencyChart()->window(), LatencyWindows::Window::Last60s);
    QCOMPARE(w.streamTable()->horizontalHeader()->sectionSize(StreamTableModel::ColName), 333);
    QCOMPARE(w.findChild<QLineEdit *>(QStringLiteral("streamFilter"))->text(), QStringLiteral("al"));
    QCOMPARE(w.streamProxy()->rowCount(), 1);

    // A file that is not a workspace is refused with a message naming it; nothing changes.
    const QString bad = dir.filePath(QStringLiteral("bad.json"));
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"version\": 1, \"streams\": [{\"name\": 3}]}");
    f.close();
    QVERIFY(!w.openWorkspace(bad, &error));
    QVERIFY2(error.contains(QStringLiteral("bad.json")), qPrintable(error));
    QCOMPARE(engine.streamIds().size(), 2);
}

void tst_MainWindow::alertNotifiesOncePerEpisode()
{
    Engine engine;
    MainWindow w(&engine);
    QSignalSpy notified(&w, &MainWindow::alertNotified);
    Workspace ws;
    // Nothing listens on this port: the stream never gets data.
    const testing::RefusingPort refusing;
    const quint16 deadPort = refusing.port();
    QVERIFY(deadPort != 0);
    ws.streams = {feedConfig(QStringLiteral("dead"), QUrl(QStringLiteral("ws://127.0.0.1:%1/").arg(deadPort))),
                  feedConfig(QStringLiteral("fine"), m_server->url())};
    ws.alerts =
        QJsonArray{QJsonObject{{QStringLiteral("stream"), QStringLiteral("*")}, {QStringLiteral("silent_s"), 1}}};
    w.setWorkspace(ws, QString());
    const StreamId dead = engine.streamIds().first();
    QTRY_COMPARE_WITH_TIMEOUT(notified.count(), 1, 5000);
    QVERIFY(notified.first().at(0).toString().contains(QStringLiteral("dead")));
    const int row = w.streamModel()->rowOf(dead);
    QVERIFY(!w.streamModel()->index(row, 0).data(StreamTableModel::AlertRole).toString().isEmpty());
    // Listed among the active alerts until it clears, whether or not there is a tray.
    QCOMPARE(w.activeAlerts()->rowCount(), 1);
    QCOMPARE(w.activeAlerts()->item(0, 1)->text(), QStringLiteral("dead"));
    auto *alertsDock = w.findChild<QDockWidget *>(QStringLiteral("alertsDock"));
    QVERIFY(alertsDock);
    QCOMPARE(alertsDock->windowTitle(), QStringLiteral("Alerts (1)"));
    // The episode goes on: no second notification.
    QTest::qWait(2500);
    QCOMPARE(notified.count(), 1);
    // It is in the event log.
    bool logged = false;
    for (int r = 0; r < w.eventLog()->rowCount(); ++r)
        logged = logged
            || (w.eventLog()->entryAt(r)->kind == QStringLiteral("alert")
                && w.eventLog()->entryAt(r)->stream == QStringLiteral("dead"));
    QVERIFY(logged);
    // Stopped, it clears: the list follows although the text's figure has moved on since
    // ("silent for 1.0 s" is cleared as "silent for 3.5 s").
    const QString raisedText = w.activeAlerts()->item(0, 2)->text();
    engine.stopStream(dead);
    QTRY_COMPARE(w.activeAlerts()->rowCount(), 0);
    QCOMPARE(alertsDock->windowTitle(), QStringLiteral("Alerts"));
    bool clearedWithOtherText = false;
    for (int r = 0; r < w.eventLog()->rowCount(); ++r) {
        const EventLogModel::Entry *e = w.eventLog()->entryAt(r);
        clearedWithOtherText = clearedWithOtherText
            || (e->kind == QStringLiteral("alert cleared") && e->stream == QStringLiteral("dead")
                && e->text != raisedText);
    }
    QVERIFY2(clearedWithOtherText, qPrintable(raisedText));
    engine.restartStream(dead);
    QTRY_COMPARE_WITH_TIMEOUT(w.activeAlerts()->rowCount(), 1, 5000);
    // Removing the stream ends its alert.
    w.streamTable()->selectRow(w.streamProxy()->mapFromSource(w.streamModel()->index(row, 0)).row());
    QTimer confirm;
    connect(&confirm, &QTimer::timeout, &confirm, [] {
        if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget()))
            for (QAbstractButton *b : box->buttons())
                if (box->buttonRole(b) == QMessageBox::DestructiveRole)
                    b->click();
    });
    confirm.start(10);
    w.findChild<QAction *>(QStringLiteral("removeStreams"))->trigger();
    confirm.stop();
    QCOMPARE(w.activeAlerts()->rowCount(), 0);
    QCOMPARE(alertsDock->windowTitle(), QStringLiteral("Alerts"));
}

void tst_MainWindow::detailsPaneAndStoppedLatency()
{
    Engine engine;
    MainWindow w(&engine);
    Workspace ws;
    // A name a spreadsheet would run as a formula, with a comma and quotes in it.
    const QString oddName = QStringLiteral("=1+2, \"x\"");
    ws.streams = {feedConfig(QStringLiteral("kept"), m_server->url()), feedConfig(oddName, m_server->url())};
    w.setWorkspace(ws, QString());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const StreamId id = engine.streamIds().first();
    const StreamId other = engine.streamIds().last();
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(w, id), StreamState::Live, 10000);
    w.selectStream(other);
    const QString csv = w.selectedRowsText(MainWindow::RowFormat::Csv);
    QVERIFY2(csv.contains(QStringLiteral("\r\n\"'=1+2, \"\"x\"\"\",")), qPrintable(csv));
    w.selectStream(id);
    w.detailsDock()->show();
    w.detailsDock()->raise();
    QCOMPARE(w.details()->stream(), id);
    // Latency samples in the table's window (the engine's clock; the feed stamps every 10 ms).
    const StreamTableModel::Row *row = w.streamModel()->row(id);
    QTRY_VERIFY_WITH_TIMEOUT((w.refreshNow(true), !std::isnan(row->p99Ms)), 10000);
    QTRY_VERIFY(w.details()->valueAt(QStringLiteral("state")) == QStringLiteral("live"));
    QVERIFY(!w.details()->rateLine()->points().isEmpty());

    // Stopped: the pane's counters are the engine's, exactly; the table and the chart keep
    // the latency of the last seconds before the stop, and they agree.
    w.findChild<QAction *>(QStringLiteral("stopStreams"))->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(w, id), StreamState::Stopped, 2000);
    w.refreshNow(true);
    const QString p99 = w.streamModel()->index(w.streamModel()->rowOf(id), StreamTableModel::ColP99).data().toString();
    QCOMPARE(w.details()->valueAt(QStringLiteral("messages")), formatCount(engine.snapshot(id).messages));
    QCOMPARE(w.details()->valueAt(QStringLiteral("state")), QStringLiteral("stopped"));
    QVERIFY(!std::isnan(row->p99Ms));
    const auto chartP99 = [&w] { return formatLatencyMs(w.latencyChart()->shown().percentileUs(0.99) / 1000.0); };
    for (int i = 0; i < 15; ++i) // longer than the chart's 10 s window
        w.refreshNow(true);
    QCOMPARE(w.streamModel()->index(w.streamModel()->rowOf(id), StreamTableModel::ColP99).data().toString(), p99);
    QCOMPARE(chartP99(), p99);
    // Chosen anew while stopped: the chart starts from the table's window, so they agree too.
    w.selectStream(other);
    w.refreshNow(true);
    w.selectStream(id);
    w.refreshNow(true);
    QCOMPARE(chartP99(), p99);

    // Log scale: counts on a logarithmic axis, kept in the layout.
    auto *log = w.findChild<QToolButton *>(QStringLiteral("latencyLogScale"));
    QVERIFY(log);
    log->click();
    QVERIFY(w.latencyChart()->isLogScale());
    auto *view = w.latencyChart()->findChild<QChartView *>();
    QVERIFY(view);
    QCOMPARE(view->chart()->axes(Qt::Vertical).value(0)->objectName(), QStringLiteral("countLogAxis"));
    QCOMPARE(chartP99(), p99);
    QCOMPARE(w.currentWorkspace().layout.value(QStringLiteral("latency_log")).toBool(), true);
}

void tst_MainWindow::correctedLatencyAndClockStatus()
{
    // A venue whose clock runs 500 ms ahead: raw latencies are all negative (no p99), and the
    // corrected ones, with the offset its server time gives, are small and positive.
    replay::ReplayServerThread replay;
    replay::ReplayOptions options;
    options.loop = true;
    const quint16 port = replay.start(options);
    QVERIFY2(port, qPrintable(replay.errorString()));
    Engine engine;
    MainWindow w(&engine);
    StreamConfig c;
    c.name = QStringLiteral("ahead");
    c.venue = Venue("binance");
    c.url = QUrl(QStringLiteral("ws://127.0.0.1:%1/small_aggtrade?rate=200&clock_offset_ms=500").arg(port));
    c.serverTimeUrl = QUrl(QStringLiteral("http://127.0.0.1:%1/api/v3/time?clock_offset_ms=500").arg(port));
    Workspace ws;
    ws.streams = {c};
    w.setWorkspace(ws, QString());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const StreamId id = engine.streamIds().first();
    w.selectStream(id);
    QTRY_VERIFY_WITH_TIMEOUT(engine.snapshot(id, true).clock.source == ClockOffsetSource::ServerTime, 15000);
    const auto p99Text = [&w, id] {
        return w.streamModel()->index(w.streamModel()->rowOf(id), StreamTableModel::ColP99).data().toString();
    };
    const StreamTableModel::Row *row = w.streamModel()->row(id);
    for (int i = 0; i < 3; ++i) { // messages arrive between two samples
        QTest::qWait(300);
        w.refreshNow(true);
    }
    QVERIFY(std::isnan(row->p99Ms)); // raw: every sample negative
    QVERIFY(!row->latencyCorrected);
    const QList<QLabel *> summary = w.latencyChart()->findChildren<QLabel *>();
    bool explained = false;
    for (QLabel *l : summary)
        explained = explained || l->text().contains(QLatin1String("negative: clock behind the venue"));
    if (!explained) {
        for (QLabel *l : summary)
            qWarning() << l->text();
        qWarning() << engine.snapshot(id, true).clock.note;
    }
    QVERIFY(explained);

    QAction *corrected = w.findChild<QAction *>(QStringLiteral("correctedLatency"));
    QVERIFY(corrected);
    corrected->trigger();
    const bool got = QTest::qWaitFor(
        [&] {
            w.refreshNow(true);
            return !std::isnan(row->p99Ms);
        },
        15000);
    if (!got)
        qWarning() << engine.snapshot(id, true).latencyCorrected.count << row->latencyCorrected << row->p99Ms
                   << w.streamModel()->latencyCorrected();
    QVERIFY(got);
    QVERIFY(row->latencyCorrected);
    QVERIFY2(row->p99Ms >= 0.0 && row->p99Ms < 250.0, qPrintable(QString::number(row->p99Ms)));
    QVERIFY(w.latencyChart()->isCorrected());
    QCOMPARE(formatLatencyMs(w.latencyChart()->shown().percentileUs(0.99) / 1000.0).isEmpty(), false);
    QVERIFY(!p99Text().isEmpty());
    QCOMPARE(w.currentWorkspace().layout.value(QStringLiteral("latency_corrected")).toBool(), true);

    // The host clock's state is in the status bar, whatever it is here.
    auto *clock = w.findChild<QLabel *>(QStringLiteral("statusClock"));
    QVERIFY(clock);
    QVERIFY2(clock->text().startsWith(QStringLiteral("clock ")), qPrintable(clock->text()));
}

void tst_MainWindow::recordToggleKeepsTheConnection()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    Engine engine;
    MainWindow w(&engine);
    w.capture()->setRecordingFolder(dir.filePath(QStringLiteral("captures")));
    Workspace ws;
    ws.streams = {feedConfig(QStringLiteral("taped"), m_server->url())};
    w.setWorkspace(ws, QString());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const StreamId id = engine.streamIds().first();
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(w, id), StreamState::Live, 10000);
    const qint64 connectedSince = engine.snapshot(id).connections.value(0).connectedSinceMs;
    w.selectStream(id);
    QAction *record = w.findChild<QAction *>(QStringLiteral("recordStreams"));
    QVERIFY(record && record->isEnabled());
    QCOMPARE(record->text(), QStringLiteral("Re&cord"));

    record->trigger();
    QTRY_VERIFY(engine.snapshot(id).record.on);
    QTRY_VERIFY_WITH_TIMEOUT(engine.snapshot(id).record.messages > 20, 10000);
    // Recording began on the live connection: no reconnect.
    QCOMPARE(engine.snapshot(id).reconnects, quint64(0));
    QCOMPARE(engine.snapshot(id).connections.value(0).connectedSinceMs, connectedSince);
    // Shown on the row, in the status bar and by the action.
    w.refreshNow(false);
    const QModelIndex name = w.streamModel()->index(w.streamModel()->rowOf(id), StreamTableModel::ColName);
    QVERIFY(name.data(Qt::DecorationRole).isValid());
    QVERIFY2(name.data(Qt::ToolTipRole).toString().contains(QLatin1String("Recording to ")),
             qPrintable(name.data(Qt::ToolTipRole).toString()));
    auto *status = w.findChild<QLabel *>(QStringLiteral("statusRecord"));
    QVERIFY(status && !status->isHidden());
    QVERIFY2(status->text().contains(QLatin1String("recording 1 stream")), qPrintable(status->text()));
    QTRY_COMPARE(record->text(), QStringLiteral("Stop re&cording"));
    const QString file = engine.snapshot(id).record.file;
    QVERIFY2(file.startsWith(dir.filePath(QStringLiteral("captures"))), qPrintable(file));

    record->trigger();
    QTRY_VERIFY(!engine.snapshot(id).record.on);
    QTRY_VERIFY(QFileInfo(file).size() > 0);
    QCOMPARE(engine.snapshot(id).reconnects, quint64(0));
    QCOMPARE(stateOf(w, id), StreamState::Live);
    w.refreshNow(false);
    QVERIFY(!name.data(Qt::DecorationRole).isValid());
    QTRY_VERIFY(status->isHidden());
    // The workspace keeps the folder, with the recording off.
    const StreamConfig saved = w.currentWorkspace().streams.first();
    QCOMPARE(saved.record.dir, dir.filePath(QStringLiteral("captures")));
    QVERIFY(!saved.record.enabled);
}

// The Backlog column is one to choose: hidden by default, and in a layout saved before it
// existed (whose header has one section fewer), whose other columns keep their place.
void tst_MainWindow::backlogColumnHiddenByDefaultAndInOldLayouts()
{
    Engine engine;
    {
        MainWindow w(&engine);
        QHeaderView *header = w.streamTable()->horizontalHeader();
        QVERIFY(header->isSectionHidden(StreamTableModel::ColBacklog));
        QMenu menu;
        w.fillColumnMenu(&menu);
        QAction *backlog = menu.findChild<QAction *>(QStringLiteral("column%1").arg(StreamTableModel::ColBacklog));
        QVERIFY(backlog && !backlog->isChecked());
        QCOMPARE(backlog->text(), QStringLiteral("Backlog"));
        backlog->toggle();
        QVERIFY(!header->isSectionHidden(StreamTableModel::ColBacklog));
        // Shown, it stays shown through the saved layout.
        Workspace ws = w.currentWorkspace();
        MainWindow again(&engine);
        again.setWorkspace(ws, QString());
        QVERIFY(!again.streamTable()->horizontalHeader()->isSectionHidden(StreamTableModel::ColBacklog));
    }
    // A header of the columns before Backlog: the buttons second, Gaps hidden.
    QStandardItemModel before(1, StreamTableModel::ColBacklog);
    QTableView oldTable;
    oldTable.setModel(&before);
    oldTable.horizontalHeader()->moveSection(StreamTableModel::ColActions, 1);
    oldTable.horizontalHeader()->setSectionHidden(StreamTableModel::ColGaps, true);
    oldTable.setColumnWidth(StreamTableModel::ColActions, 80); // three buttons, before Record came
    Workspace ws;
    ws.layout.insert(QStringLiteral("table_header"),
                     QString::fromLatin1(oldTable.horizontalHeader()->saveState().toBase64()));
    MainWindow w(&engine);
    w.setWorkspace(ws, QString());
    QHeaderView *header = w.streamTable()->horizontalHeader();
    QVERIFY(header->isSectionHidden(StreamTableModel::ColBacklog));
    QVERIFY(header->isSectionHidden(StreamTableModel::ColGaps));
    // The Book column came later still: shown, as by default, with room for "synced 3/3".
    QVERIFY(!header->isSectionHidden(StreamTableModel::ColBook));
    QVERIFY(header->sectionSize(StreamTableModel::ColBook)
            >= header->fontMetrics().horizontalAdvance(QStringLiteral("synced 3/3")));
    QCOMPARE(header->visualIndex(StreamTableModel::ColActions), 1);
    QCOMPARE(header->sectionSize(StreamTableModel::ColActions), StreamActionDelegate::columnWidth());
}

// A stream as the demo makes it (Binance's protocol on a replay server's URL) opens in Edit as
// a Binance stream, and Apply with nothing changed leaves the workspace unmodified and the
// stream's connection as it was.
void tst_MainWindow::editApplyUnchangedLeavesTheWorkspace()
{
    Engine engine;
    MainWindow w(&engine);
    Workspace ws;
    StreamConfig c;
    c.name = QStringLiteral("btcusdt-aggtrade");
    c.venue = Venue("binance");
    c.url = QUrl(QStringLiteral("ws://127.0.0.1:1/small_aggtrade?rate=400"));
    c.subscribe = {QStringLiteral("btcusdt@aggTrade")};
    c.stallTimeoutMs = 5000;
    c.reconnectBaseMs = 500;
    c.reconnectMaxMs = 8000;
    ws.streams = {c};
    ws.alerts = QJsonDocument::fromJson("[{\"stream\": \"*\", \"silent_s\": 30}]").array();
    w.setWorkspace(ws, QString());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(!w.isModified());
    const StreamId id = engine.streamIds().first();
    w.selectStream(id);
    QString preset;
    QTimer::singleShot(0, &w, [&preset] {
        auto *d = qobject_cast<StreamDialog *>(QApplication::activeModalWidget());
        if (!d)
            return;
        preset = d->findChild<QComboBox *>(QStringLiteral("preset"))->currentText();
        d->accept(); // Apply
    });
    QAction *edit = w.findChild<QAction *>(QStringLiteral("editStream"));
    QTRY_VERIFY(edit->isEnabled());
    edit->trigger();
    QCOMPARE(preset, QStringLiteral("Binance protocol, own URL"));
    QVERIFY(!w.isModified());
    QVERIFY(Workspace::sameStream(engine.config(id), c));
    QCOMPARE(engine.config(id).venue, Venue("binance"));
}

// A feed that goes quiet: the engine reports the stall, then the Stalled state with the same
// reason; the window's Event log pane shows one line for it.
void tst_MainWindow::stallIsOneLineInTheEventLog()
{
    OddEvenFeedServer feed;
    Engine engine;
    MainWindow w(&engine);
    Workspace ws;
    StreamConfig c = feedConfig(QStringLiteral("goes-quiet"), feed.url());
    c.stallTimeoutMs = 1500;
    c.reconnectOnStall = false; // stays Stalled on its connection: no second stall
    ws.streams = {c};
    w.setWorkspace(ws, QString());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const StreamId id = engine.streamIds().first();
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(w, id), StreamState::Live, testing::scaledMs(10000));
    auto *pane = w.findChild<EventLogPane *>();
    QVERIFY(pane);
    QAbstractItemModel *log = pane->view()->model();
    // The stall's lines: "stalled", "no data for 1.5 s" (the freshness estimate may add a
    // "stalled" line of its own, "silent for 2.1 s, well beyond its usual gap", later).
    const auto stallLines = [log] {
        QStringList out;
        for (int r = 0; r < log->rowCount(); ++r) {
            const auto cell = [&](int column) { return log->index(r, column).data().toString(); };
            if (cell(EventLogModel::ColStream) == QLatin1String("goes-quiet")
                && cell(EventLogModel::ColKind) == QLatin1String("stalled")
                && cell(EventLogModel::ColText).startsWith(QLatin1String("no data for ")))
                out << cell(EventLogModel::ColText);
        }
        return out;
    };
    QCOMPARE(stallLines(), QStringList());

    feed.pause();
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(w, id), StreamState::Stalled, testing::scaledMs(15000));
    QTRY_VERIFY_WITH_TIMEOUT(!stallLines().isEmpty(), testing::scaledMs(5000));
    // The state's event was sent right after the stall's: handled and flushed, it adds nothing.
    QCoreApplication::processEvents();
    w.eventLog()->flush();
    QCOMPARE(stallLines().size(), 1);
}

STREAMSCOPE_TEST_MAIN(tst_MainWindow)
#include "tst_mainwindow.moc"
