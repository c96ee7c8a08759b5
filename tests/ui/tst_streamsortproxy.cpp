// The stream table's order: ties broken by name whichever way a column sorts, live values
// re-sorted only by the calm timer, never while the pointer is over the table, and at once
// when the user picks a column.

#include "../common/TestRegistry.h"
#include "StreamSortProxy.h"

#include <QtGui/QStandardItemModel>
#include <QtTest/QTest>
#include <QtWidgets/QApplication>
#include <QtWidgets/QTableView>

using namespace streamscope::ui;

namespace {

constexpr int kName = 0;
constexpr int kRate = 1;
constexpr int kSortRole = Qt::UserRole + 1;

void addRow(QStandardItemModel &m, const QString &name, double rate)
{
    auto *n = new QStandardItem(name);
    n->setData(name, kSortRole);
    auto *r = new QStandardItem(QString::number(rate));
    r->setData(rate, kSortRole);
    m.appendRow({n, r});
}

QStringList list(std::initializer_list<const char *> items)
{
    QStringList out;
    for (const char *s : items)
        out << QString::fromLatin1(s);
    return out;
}

// a at 1 msgs/s, b at 2, behind `proxy`.
void twoRows(QStandardItemModel &source, StreamSortProxy &proxy)
{
    addRow(source, QStringLiteral("a"), 1.0);
    addRow(source, QStringLiteral("b"), 2.0);
    proxy.setSortRole(kSortRole);
    proxy.setSourceModel(&source);
}

QStringList names(const QAbstractItemModel &m)
{
    QStringList out;
    for (int row = 0; row < m.rowCount(); ++row)
        out << m.index(row, kName).data().toString();
    return out;
}

} // namespace

class tst_StreamSortProxy : public QObject {
    Q_OBJECT
private slots:
    void tiesByNameBothWays();
    void liveValuesWaitForTheCalmTimer();
    void heldWhilePointerIsOverTheTable();
};

void tst_StreamSortProxy::tiesByNameBothWays()
{
    QStandardItemModel source;
    for (const char *n : {"delta", "Bravo", "alpha", "charlie"})
        addRow(source, QString::fromLatin1(n), 0.0); // all tied, as idle streams are
    addRow(source, QStringLiteral("echo"), 5.0);
    StreamSortProxy proxy(kName);
    proxy.setSortRole(kSortRole);
    proxy.setSourceModel(&source);
    proxy.sort(kRate, Qt::DescendingOrder);
    QCOMPARE(names(proxy), list({"echo", "alpha", "Bravo", "charlie", "delta"}));
    proxy.sort(kRate, Qt::AscendingOrder);
    QCOMPARE(names(proxy), list({"alpha", "Bravo", "charlie", "delta", "echo"}));
    for (int i = 0; i < 5; ++i) { // refresh after refresh: nothing moves
        proxy.resortIfCalm();
        QCOMPARE(names(proxy), list({"alpha", "Bravo", "charlie", "delta", "echo"}));
    }
}

void tst_StreamSortProxy::liveValuesWaitForTheCalmTimer()
{
    QStandardItemModel source;
    StreamSortProxy proxy(kName);
    twoRows(source, proxy);
    proxy.sort(kRate, Qt::DescendingOrder);
    QCOMPARE(names(proxy), list({"b", "a"}));
    source.item(0, kRate)->setData(3.0, kSortRole); // a overtakes b
    QCOMPARE(names(proxy), list({"b", "a"}));       // not on this refresh
    QTRY_COMPARE_WITH_TIMEOUT(names(proxy), list({"a", "b"}), StreamSortProxy::kResortIntervalMs * 5);
}

void tst_StreamSortProxy::heldWhilePointerIsOverTheTable()
{
    QStandardItemModel source;
    StreamSortProxy proxy(kName);
    twoRows(source, proxy);
    QTableView view;
    view.setModel(&proxy);
    view.setSortingEnabled(true);
    proxy.holdWhileHovered(view.viewport());
    view.sortByColumn(kRate, Qt::DescendingOrder);
    QCOMPARE(names(proxy), list({"b", "a"}));

    QEvent enter(QEvent::Enter);
    QApplication::sendEvent(view.viewport(), &enter);
    QVERIFY(proxy.isHeld());
    source.item(0, kRate)->setData(3.0, kSortRole);
    proxy.resortIfCalm();
    QCOMPARE(names(proxy), list({"b", "a"}));     // held under the pointer
    view.sortByColumn(kRate, Qt::AscendingOrder); // a click on the header sorts at once
    QCOMPARE(names(proxy), list({"b", "a"}));
    view.sortByColumn(kRate, Qt::DescendingOrder);
    QCOMPARE(names(proxy), list({"a", "b"}));

    source.item(1, kRate)->setData(4.0, kSortRole);
    QEvent leave(QEvent::Leave);
    QApplication::sendEvent(view.viewport(), &leave);
    QVERIFY(!proxy.isHeld());
    proxy.resortIfCalm();
    QCOMPARE(names(proxy), list({"b", "a"}));
}

STREAMSCOPE_TEST_MAIN(tst_StreamSortProxy)
#include "tst_streamsortproxy.moc"
