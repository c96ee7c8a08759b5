#include "../common/TestRegistry.h"
#include "EventLogModel.h"

#include <QtCore/QDateTime>
#include <QtTest/QAbstractItemModelTester>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

using namespace streamscope;
using namespace streamscope::ui;

class tst_EventLogModel : public QObject {
    Q_OBJECT
private slots:
    void batchesInsertsPerFlush();
    void keepsAtMostCapacity();
    void entriesFromTheWindow_data();
    void entriesFromTheWindow();
    void reconnectIsOneLine();
    void stallIsOneLine();
    void filterByStreamAndSeverity();
    void markupInATooltipIsEscaped();
};

void tst_EventLogModel::batchesInsertsPerFlush()
{
    EventLogModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    StreamEvent e;
    e.stream = 1;
    e.timeMs = 1000;
    e.kind = EventKind::Disconnected;
    e.closeCode = 1006;
    e.text = QStringLiteral("server went away");
    model.addEvent(e, QStringLiteral("btc"));
    e.kind = EventKind::ParseError;
    e.text = QStringLiteral("expected a value: {\"a\":");
    model.addEvent(e, QStringLiteral("btc"));
    QCOMPARE(model.rowCount(), 0);
    model.flush();
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(0, EventLogModel::ColText).data().toString(),
             QStringLiteral("server went away (close code 1006)"));
    QCOMPARE(model.index(1, EventLogModel::ColKind).data().toString(), QStringLiteral("parse error"));
    QCOMPARE(model.entryAt(1)->severity, EventLogModel::Severity::Error);
}

void tst_EventLogModel::keepsAtMostCapacity()
{
    EventLogModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    for (int round = 0; round < 3; ++round) {
        for (int i = 0; i < EventLogModel::kCapacity / 2 + 7; ++i) {
            EventLogModel::Entry e;
            e.timeMs = round * 100000 + i;
            e.text = QString::number(i);
            model.add(e);
        }
        model.flush();
    }
    QCOMPARE(model.rowCount(), EventLogModel::kCapacity);
    QCOMPARE(model.entryAt(model.rowCount() - 1)->timeMs, 2 * 100000 + EventLogModel::kCapacity / 2 + 6);
}

void tst_EventLogModel::entriesFromTheWindow_data()
{
    QTest::addColumn<int>("what");
    QTest::addColumn<QString>("stream");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("severity");
    QTest::newRow("alert raised") << 0 << QStringLiteral("btc") << QStringLiteral("alert")
                                  << QStringLiteral("silent for 15 s") << int(EventLogModel::Severity::Error);
    QTest::newRow("alert cleared") << 1 << QStringLiteral("btc") << QStringLiteral("alert cleared")
                                   << QStringLiteral("silent for 15 s") << int(EventLogModel::Severity::Info);
    QTest::newRow("keychain failure") << 2 << QString() << QStringLiteral("keychain")
                                      << QStringLiteral("Could not read or write keychain entry \"bf-key\": no backend")
                                      << int(EventLogModel::Severity::Warning);
    QTest::newRow("workspace warning") << 3 << QString() << QStringLiteral("workspace")
                                       << QStringLiteral("streams[0].foo: unknown key")
                                       << int(EventLogModel::Severity::Warning);
}

void tst_EventLogModel::entriesFromTheWindow()
{
    QFETCH(int, what);
    QFETCH(QString, stream);
    QFETCH(QString, kind);
    QFETCH(QString, text);
    QFETCH(int, severity);
    EventLogModel model;
    const qint64 before = QDateTime::currentMSecsSinceEpoch();
    switch (what) {
    case 0: model.addAlertRaised(QStringLiteral("btc"), QStringLiteral("silent for 15 s")); break;
    case 1: model.addAlertCleared(QStringLiteral("btc"), QStringLiteral("silent for 15 s")); break;
    case 2: model.addKeychainFailure(QStringLiteral("bf-key"), QStringLiteral("no backend")); break;
    default: model.addWorkspaceWarning(QStringLiteral("streams[0].foo: unknown key")); break;
    }
    model.flush();
    QCOMPARE(model.rowCount(), 1);
    const EventLogModel::Entry *e = model.entryAt(0);
    QCOMPARE(e->stream, stream);
    QCOMPARE(e->kind, kind);
    QCOMPARE(e->text, text);
    QCOMPARE(int(e->severity), severity);
    QVERIFY(e->timeMs >= before);
}

namespace {
StreamEvent streamEvent(EventKind kind, qint64 timeMs, const QString &text, StreamState state = StreamState::Unknown)
{
    StreamEvent e;
    e.stream = 1;
    e.kind = kind;
    e.timeMs = timeMs;
    e.text = text;
    e.state = state;
    return e;
}
} // namespace

// The engine reports a reconnect as a disconnect, a Reconnecting state and a scheduled
// attempt: the log shows one line, before or after the window's flush.
void tst_EventLogModel::reconnectIsOneLine()
{
    for (const bool flushBetween : {false, true}) {
        EventLogModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QString btc = QStringLiteral("btc");
        model.addEvent(streamEvent(EventKind::Disconnected, 1000, QStringLiteral("server closed (close code 1006)")),
                       btc);
        if (flushBetween)
            model.flush();
        model.addEvent(streamEvent(EventKind::StateChanged, 1001,
                                   QStringLiteral("server closed; reconnect attempt 2 in 1.5 s"),
                                   StreamState::Reconnecting),
                       btc);
        model.addEvent(
            streamEvent(EventKind::ReconnectScheduled, 1001,
                        QStringLiteral("reconnecting in 1.5 s (attempt 2): server closed (close code 1006)")),
            btc);
        model.addEvent(streamEvent(EventKind::Connected, 2600, QStringLiteral("connected to ws://127.0.0.1:1/x")), btc);
        model.flush();
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.entryAt(0)->kind, QStringLiteral("reconnect"));
        QCOMPARE(model.entryAt(0)->text,
                 QStringLiteral("server closed (close code 1006); reconnecting in 1.5 s (attempt 2)"));
        QCOMPARE(model.entryAt(0)->severity, EventLogModel::Severity::Warning);
    }
    // Without a disconnect just before (a stall, a failed attempt), the lines stay as they are.
    EventLogModel model;
    model.addEvent(
        streamEvent(EventKind::ReconnectScheduled, 1000, QStringLiteral("reconnecting in 1 s (attempt 1): stall")),
        QStringLiteral("eth"));
    model.flush();
    QCOMPARE(model.rowCount(), 1);
}

// A stall reaches the window as the stall event, then the Stalled state with the same reason
// (the engine's order): the log says it once, before or after the window's flush. A later
// stall, or another stream's, is a line of its own.
void tst_EventLogModel::stallIsOneLine()
{
    for (const bool flushBetween : {false, true}) {
        EventLogModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QString feed = QStringLiteral("stalling-feed");
        const QString why = QStringLiteral("no data for 5.1 s");
        model.addEvent(streamEvent(EventKind::Stalled, 1000, why), feed);
        if (flushBetween)
            model.flush();
        model.addEvent(streamEvent(EventKind::StateChanged, 1000, why, StreamState::Stalled), feed);
        model.addEvent(streamEvent(EventKind::StateChanged, 1000, why, StreamState::Stalled), QStringLiteral("other"));
        model.addEvent(streamEvent(EventKind::StateChanged, 9000, QStringLiteral("live"), StreamState::Live), feed);
        model.addEvent(streamEvent(EventKind::Stalled, 20000, why), feed);
        model.addEvent(streamEvent(EventKind::StateChanged, 20001, why, StreamState::Stalled), feed);
        model.flush();
        QStringList lines;
        for (int r = 0; r < model.rowCount(); ++r)
            lines << model.entryAt(r)->stream + QLatin1Char(' ') + model.entryAt(r)->text;
        QCOMPARE(lines,
                 (QStringList{feed + QLatin1Char(' ') + why, QStringLiteral("other ") + why,
                              feed + QStringLiteral(" live"), feed + QLatin1Char(' ') + why}));
        QCOMPARE(model.entryAt(0)->severity, EventLogModel::Severity::Warning);
    }
}

void tst_EventLogModel::filterByStreamAndSeverity()
{
    EventLogModel model;
    model.addEvent(streamEvent(EventKind::Connected, 1, QStringLiteral("connected")), QStringLiteral("btc"));
    model.addEvent(streamEvent(EventKind::Gap, 2, QStringLiteral("sequence gap")), QStringLiteral("btc"));
    model.addEvent(streamEvent(EventKind::Stalled, 3, QStringLiteral("stalled")), QStringLiteral("eth"));
    model.addWorkspaceWarning(QStringLiteral("unknown key"));
    model.flush();
    EventLogFilter filter;
    filter.setSourceModel(&model);
    QCOMPARE(filter.rowCount(), 4);
    filter.setStream(QStringLiteral("btc"));
    QCOMPARE(filter.rowCount(), 2);
    filter.setMinimumSeverity(int(EventLogModel::Severity::Error));
    QCOMPARE(filter.rowCount(), 1);
    QCOMPARE(filter.index(0, EventLogModel::ColText).data().toString(), QStringLiteral("sequence gap"));
    filter.setStream(QString());
    filter.setMinimumSeverity(int(EventLogModel::Severity::Warning));
    QCOMPARE(filter.rowCount(), 3); // the gap, the stall and the workspace warning
}

void tst_EventLogModel::markupInATooltipIsEscaped()
{
    // A peer's message that Qt would draw as HTML in the tooltip is escaped there.
    EventLogModel model;
    StreamEvent e;
    e.stream = 1;
    e.timeMs = 1000;
    e.kind = EventKind::ParseError;
    e.text = QStringLiteral("<img src=\"http://127.0.0.1:9/x.png\"><b>x</b>");
    model.addEvent(e, QStringLiteral("btc"));
    model.flush();
    const QString tip = model.index(0, EventLogModel::ColText).data(Qt::ToolTipRole).toString();
    QVERIFY2(!tip.contains(QLatin1String("<img")), qPrintable(tip));
    QVERIFY2(tip.contains(QLatin1String("&lt;img src=&quot;http://127.0.0.1:9/x.png&quot;&gt;&lt;b&gt;x&lt;/b&gt;")),
             qPrintable(tip));
}

STREAMSCOPE_TEST_MAIN(tst_EventLogModel)
#include "tst_eventlogmodel.moc"
