#include "EventLogModel.h"

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
    QCOMPARE(model.index(0, EventLogModel::ColText).data().toString(), QStringLiteral("server went away (close code 1006)"));
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

QTEST_MAIN(tst_EventLogModel)
#include "tst_eventlogmodel.moc"
