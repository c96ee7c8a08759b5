#include "../common/TestRegistry.h"
#include "Format.h"
#include "StreamTableModel.h"

#include <cmath>

#include <QtCore/QHash>
#include <QtCore/QSet>
#include <QtCore/QSortFilterProxyModel>
#include <QtGui/QBrush>
#include <QtTest/QAbstractItemModelTester>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

using namespace streamscope;
using namespace streamscope::ui;

namespace {
StreamSnapshot snap(StreamId id, const QString &name, quint64 messages, qint64 takenAtNs,
                    StreamState state = StreamState::Live)
{
    StreamSnapshot s;
    s.id = id;
    s.name = name;
    s.state = state;
    s.messages = messages;
    s.bytes = messages * 100;
    s.takenAtNs = takenAtNs;
    return s;
}
constexpr qint64 kTick = 100'000'000; // 100 ms in ns
} // namespace

class tst_StreamTableModel : public QObject {
    Q_OBJECT
private slots:
    void passesModelTester();
    void ratesComeFromSnapshotDifferences();
    void onlyChangedRowsAreSignalledInContiguousBlocks();
    void removedStreamsLeaveAndNewOnesAreAppended();
    void stateToolTipSaysWhy();
    void proxySortsNumericallyAndFiltersByName();
    void latencyPercentilesFromWindow();
    void thousandRowsUpdateInOneBlock();
    void mixedRowsStillUpdateInOneBlock();
    void latencyWindowsOnlyTheDueRows();
    void periodicStreamShowsItsPeriod();
    void backlogColumn();
    void bookColumn();
};

void tst_StreamTableModel::passesModelTester()
{
    StreamTableModel model;
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(StreamTableModel::SortRole);
    proxy.sort(StreamTableModel::ColRate, Qt::DescendingOrder);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);

    QVector<StreamSnapshot> snaps;
    for (StreamId id = 1; id <= 20; ++id)
        snaps.append(snap(id, QStringLiteral("s%1").arg(id), 0, 0));
    model.update(snaps, 1000);
    QCOMPARE(model.rowCount(), 20);
    for (int tick = 1; tick <= 15; ++tick) {
        for (StreamSnapshot &s : snaps) {
            s.messages += s.id * 10;
            s.takenAtNs += kTick;
        }
        if (tick == 5)
            snaps.remove(3, 4); // streams 4..7 removed
        if (tick == 8)
            snaps.append(snap(100, QStringLiteral("late"), 0, snaps.first().takenAtNs));
        model.update(snaps, 1000 + tick * 100);
        model.setAlert(2, tick % 2 ? QStringLiteral("silent") : QString());
    }
    QCOMPARE(model.rowCount(), 17);
    QCOMPARE(proxy.rowCount(), 17);
}

void tst_StreamTableModel::ratesComeFromSnapshotDifferences()
{
    StreamTableModel model;
    QVector<StreamSnapshot> snaps{snap(1, QStringLiteral("a"), 0, 0)};
    model.update(snaps, 0);
    for (int tick = 1; tick <= 12; ++tick) {
        snaps[0].messages += 50; // 50 per 100 ms = 500/s
        snaps[0].bytes = snaps[0].messages * 100;
        snaps[0].takenAtNs += kTick;
        model.update(snaps, tick * 100);
    }
    QCOMPARE(qRound(model.row(1)->msgsPerSec), 500);
    QCOMPARE(qRound(model.row(1)->bytesPerSec), 50'000);
    QCOMPARE(model.index(0, StreamTableModel::ColRate).data().toString(), QStringLiteral("500"));
    QCOMPARE(model.index(0, StreamTableModel::ColMessages).data(StreamTableModel::SortRole).toULongLong(), 600ull);
}

void tst_StreamTableModel::onlyChangedRowsAreSignalledInContiguousBlocks()
{
    StreamTableModel model;
    QVector<StreamSnapshot> snaps;
    for (StreamId id = 1; id <= 6; ++id)
        snaps.append(snap(id, QStringLiteral("s%1").arg(id), 0, 0, StreamState::Connecting));
    model.update(snaps, 0);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    // Rows 0,1 and 4 change; 2,3,5 do not.
    for (int i : {0, 1, 4})
        snaps[i].state = StreamState::Live;
    for (StreamSnapshot &s : snaps)
        s.takenAtNs += kTick;
    model.update(snaps, 100);
    QCOMPARE(reset.count(), 0);
    QCOMPARE(changed.count(), 2);
    QCOMPARE(changed[0][0].toModelIndex().row(), 0);
    QCOMPARE(changed[0][1].toModelIndex().row(), 1);
    QCOMPARE(changed[1][0].toModelIndex().row(), 4);
    QCOMPARE(changed[1][1].toModelIndex().row(), 4);
    QCOMPARE(changed[0][1].toModelIndex().column(), StreamTableModel::ColumnCount - 1);
}

void tst_StreamTableModel::removedStreamsLeaveAndNewOnesAreAppended()
{
    StreamTableModel model;
    QVector<StreamSnapshot> snaps;
    for (StreamId id = 1; id <= 5; ++id)
        snaps.append(snap(id, QStringLiteral("s%1").arg(id), 0, 0));
    model.update(snaps, 0);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    snaps.removeAt(3);
    snaps.removeAt(1);
    snaps.append(snap(9, QStringLiteral("new"), 0, 0));
    model.update(snaps, 100);
    QCOMPARE(removed.count(), 2);
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.idAt(0), StreamId(1));
    QCOMPARE(model.idAt(1), StreamId(3));
    QCOMPARE(model.idAt(2), StreamId(5));
    QCOMPARE(model.idAt(3), StreamId(9));
    QCOMPARE(model.rowOf(9), 3);
    QCOMPARE(model.index(3, StreamTableModel::ColName).data().toString(), QStringLiteral("new"));
}

void tst_StreamTableModel::stateToolTipSaysWhy()
{
    StreamTableModel model;
    StreamSnapshot s = snap(1, QStringLiteral("a"), 0, 0, StreamState::Reconnecting);
    s.stateReason = QStringLiteral("server closed (1006)");
    s.nextRetryAtMs = 10'000 + 4'000;
    model.update({s}, 10'000);
    const QString tip = model.index(0, StreamTableModel::ColState).data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(QStringLiteral("Reconnecting in 4.0 s")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("server closed (1006)")), qPrintable(tip));
    QCOMPARE(model.index(0, StreamTableModel::ColState).data().toString(), QStringLiteral("reconnecting"));

    model.applyState(1, StreamState::Stopped, QStringLiteral("stopped by user"));
    QCOMPARE(model.index(0, StreamTableModel::ColState).data(StreamTableModel::StateRole).toInt(),
             int(StreamState::Stopped));
}

void tst_StreamTableModel::proxySortsNumericallyAndFiltersByName()
{
    StreamTableModel model;
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(StreamTableModel::SortRole);
    proxy.setFilterKeyColumn(StreamTableModel::ColName);
    proxy.setFilterCaseSensitivity(Qt::CaseInsensitive);
    QVector<StreamSnapshot> snaps{snap(1, QStringLiteral("btc"), 9, 0), snap(2, QStringLiteral("eth"), 100, 0),
                                  snap(3, QStringLiteral("BTC-fut"), 20, 0)};
    model.update(snaps, 0);
    proxy.sort(StreamTableModel::ColMessages, Qt::DescendingOrder);
    QCOMPARE(proxy.index(0, 0).data().toString(), QStringLiteral("eth"));
    QCOMPARE(proxy.index(2, 0).data().toString(), QStringLiteral("btc")); // 9 < 20 < 100 (not "9" > "20")
    proxy.setFilterFixedString(QStringLiteral("btc"));
    QCOMPARE(proxy.rowCount(), 2);
}

void tst_StreamTableModel::latencyPercentilesFromWindow()
{
    StreamTableModel model;
    StreamSnapshot s = snap(1, QStringLiteral("a"), 0, 0);
    model.update({s}, 0);
    s.latency.buckets.resize(LatencyBuckets::kCount);
    model.updateLatency({s}, 0);
    // 100 samples at ~2 ms, then 1 at ~500 ms, added to the cumulative snapshot.
    s.latency.buckets[LatencyBuckets::index(2000)] += 99;
    s.latency.buckets[LatencyBuckets::index(500'000)] += 1;
    s.latency.count = 100;
    s.latency.maxUs = 500'000;
    model.updateLatency({s}, 1000);
    const auto *row = model.row(1);
    QVERIFY(row->p50Ms > 1.9 && row->p50Ms < 2.2);
    QVERIFY(row->p99Ms > 1.9 && row->p99Ms < 2.2);
    QVERIFY(model.index(0, StreamTableModel::ColP50).data().toString().endsWith(QStringLiteral(" ms")));
}

// A thousand live rows cost a few dataChanged per tick (one per run of changed columns over
// the contiguous block of rows), never a reset or a row insertion, and they name only the cells
// whose figures moved (the count, rates, age and backlog), not the name, state or buttons: a
// view repaints those cells alone, which keeps a big table cheap to redraw.
void tst_StreamTableModel::thousandRowsUpdateInOneBlock()
{
    StreamTableModel model;
    QVector<StreamSnapshot> snaps;
    for (StreamId id = 1; id <= 1000; ++id)
        snaps.append(snap(id, QStringLiteral("stream-%1").arg(id), 0, 0));
    model.update(snaps, 0);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    const QSet<int> moving = {StreamTableModel::ColRate, StreamTableModel::ColKBps, StreamTableModel::ColMessages,
                              StreamTableModel::ColAge, StreamTableModel::ColBacklog};
    for (int tick = 1; tick <= 10; ++tick) {
        for (StreamSnapshot &s : snaps) {
            s.messages += 10;
            s.takenAtNs += kTick;
            s.lastMessageMs = tick * 100;
        }
        changed.clear();
        model.update(snaps, tick * 100);
        QVERIFY(changed.count() <= 4); // at most [rate], [messages], [age], [backlog] (the bytes stay)
        QSet<int> columns;
        qint64 cells = 0;
        for (const QList<QVariant> &signal : std::as_const(changed)) {
            const QModelIndex top = signal.at(0).toModelIndex();
            const QModelIndex bottom = signal.at(1).toModelIndex();
            QCOMPARE(top.row(), 0);
            QCOMPARE(bottom.row(), 999);
            for (int c = top.column(); c <= bottom.column(); ++c)
                columns.insert(c);
            cells += qint64(bottom.row() - top.row() + 1) * (bottom.column() - top.column() + 1);
        }
        QVERIFY2(moving.contains(columns), qPrintable(QStringLiteral("tick %1").arg(tick)));
        QVERIFY(columns.contains(StreamTableModel::ColMessages));
        QVERIFY(columns.contains(StreamTableModel::ColAge));
        QVERIFY(cells <= 1000 * moving.size());
    }
    QCOMPARE(reset.count(), 0);
    QCOMPARE(inserted.count(), 0);
    QCOMPARE(model.rowCount(), 1000);
}

// Live rows beside quiet ones (every other row receives nothing: only its age moves): still a
// few dataChanged per tick over the whole block, with the columns that moved in any row, never
// one signal per row (each costs the proxy and both views of the window).
void tst_StreamTableModel::mixedRowsStillUpdateInOneBlock()
{
    StreamTableModel model;
    QVector<StreamSnapshot> snaps;
    for (StreamId id = 1; id <= 1000; ++id) {
        snaps.append(snap(id, QStringLiteral("stream-%1").arg(id), 0, 0));
        snaps.last().lastMessageMs = 1;
    }
    model.update(snaps, 0);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    for (int tick = 1; tick <= 15; ++tick) {
        for (qsizetype i = 0; i < snaps.size(); ++i) {
            StreamSnapshot &s = snaps[i];
            s.takenAtNs += kTick;
            if (i % 2 == 0) {
                s.messages += 10 + quint64(tick % 3);
                s.bytes = s.messages * 100;
                s.lastMessageMs = tick * 100;
            }
        }
        changed.clear();
        model.update(snaps, tick * 100);
        QVERIFY2(changed.count() <= 4, qPrintable(QStringLiteral("tick %1: %2").arg(tick).arg(changed.count())));
        for (const QList<QVariant> &signal : std::as_const(changed)) {
            const QModelIndex top = signal.at(0).toModelIndex();
            const QModelIndex bottom = signal.at(1).toModelIndex();
            QCOMPARE(top.row(), 0);
            QCOMPARE(bottom.row(), 999);
            QVERIFY(top.column() > StreamTableModel::ColState); // figures only: no name, state or buttons
            QVERIFY(bottom.column() != StreamTableModel::ColActions);
        }
    }
    // The figures are each row's own.
    QVERIFY(model.rows().at(0).msgsPerSec > 0.0);
    QCOMPARE(model.rows().at(1).msgsPerSec, 0.0);
    QCOMPARE(model.rows().at(1).snap.messages, quint64(0));
}

// A tick windows the latency of the rows due on it, not of a thousand: a tenth each tick, and
// each row once over ten ticks; a row not due keeps its figures until its turn.
void tst_StreamTableModel::latencyWindowsOnlyTheDueRows()
{
    StreamTableModel model;
    QVector<StreamSnapshot> snaps;
    for (StreamId id = 1; id <= 1000; ++id) {
        StreamSnapshot s = snap(id, QStringLiteral("stream-%1").arg(id), 0, 0);
        s.latency.buckets.resize(LatencyBuckets::kCount);
        snaps.append(s);
    }
    model.update(snaps, 0);
    model.updateLatency(snaps, 0);
    QCOMPARE(model.latencyRowsLastUpdate(), 1000); // no filter: every row
    for (StreamSnapshot &s : snaps) {
        s.latency.buckets[LatencyBuckets::index(2000)] += 100;
        s.latency.count += 100;
    }
    QHash<StreamId, int> windowed;
    for (int phase = 0; phase < 10; ++phase) {
        const auto due = [phase](StreamId id) { return int(id % 10) == phase; };
        model.updateLatency(snaps, 1000, due);
        QCOMPARE(model.latencyRowsLastUpdate(), 100);
        for (const StreamTableModel::Row &row : model.rows()) {
            if (!std::isnan(row.p50Ms))
                windowed[row.snap.id] += due(row.snap.id) ? 1 : 0;
            else
                QVERIFY(int(row.snap.id % 10) > phase); // not yet its turn: no figure yet
        }
    }
    QCOMPARE(windowed.size(), 1000);
    for (int n : std::as_const(windowed))
        QCOMPARE(n, 1);
}

// A periodic stream's latency cells give its period and jitter, and the tooltip says why.
void tst_StreamTableModel::periodicStreamShowsItsPeriod()
{
    StreamTableModel model;
    StreamSnapshot periodic = snap(1, QStringLiteral("ticker"), 10, 0);
    periodic.freshness.periodic = true;
    periodic.freshness.periodMs = 1000.4;
    periodic.freshness.periodJitterMs = 3.2;
    StreamSnapshot measuring = snap(2, QStringLiteral("kline"), 10, 0);
    measuring.freshness.periodic = true;
    model.update({periodic, measuring, snap(3, QStringLiteral("trades"), 10, 0)}, 1000);
    QCOMPARE(model.index(0, StreamTableModel::ColP50).data().toString(), QStringLiteral("every 1000 ms ±3"));
    QCOMPARE(model.index(0, StreamTableModel::ColP99).data().toString(), QStringLiteral("–"));
    const QString tip = model.index(0, StreamTableModel::ColP50).data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.startsWith(QLatin1String("Periodic stream")) && tip.contains(QLatin1String("Period 1000.4 ms")),
             qPrintable(tip));
    QVERIFY(model.index(1, StreamTableModel::ColP50)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QLatin1String("Period: measuring")));
    QVERIFY(!model.index(2, StreamTableModel::ColP50)
                 .data(Qt::ToolTipRole)
                 .toString()
                 .startsWith(QLatin1String("Periodic")));
    // Sorted by what the cells show: the period under p50, nothing under p99.
    QCOMPARE(model.index(0, StreamTableModel::ColP50).data(StreamTableModel::SortRole).toDouble(), 1000.4);
    QCOMPARE(model.index(0, StreamTableModel::ColP99).data(StreamTableModel::SortRole).toDouble(), -1.0);
}

void tst_StreamTableModel::backlogColumn()
{
    StreamTableModel model;
    StreamSnapshot a = snap(1, QStringLiteral("a"), 10, 0);
    a.freshness.unreadBytes = 300 * 1024;
    a.freshness.unreadBytesPeak = 400 * 1024;
    a.freshness.processingUs = 2.54;
    a.inspectorDrops = 7;
    model.update({a, snap(2, QStringLiteral("b"), 10, 0)}, 1000);
    QCOMPARE(model.headerData(StreamTableModel::ColBacklog, Qt::Horizontal).toString(), QStringLiteral("Backlog"));
    QCOMPARE(model.index(0, StreamTableModel::ColBacklog).data().toString(), QStringLiteral("300 KiB, 2.5 µs/msg"));
    QCOMPARE(model.index(1, StreamTableModel::ColBacklog).data().toString(), QStringLiteral("–"));
    const QString tip = model.index(0, StreamTableModel::ColBacklog).data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(QLatin1String("409600")) && tip.contains(QLatin1String("Inspector drops: 7")),
             qPrintable(tip));
    QCOMPARE(model.index(0, StreamTableModel::ColBacklog).data(StreamTableModel::SortRole).toLongLong(),
             qint64(300 * 1024));
    // Not known (no socket to ask): said so, not "-1 bytes".
    const QString unknown = model.index(1, StreamTableModel::ColBacklog).data(Qt::ToolTipRole).toString();
    QVERIFY2(unknown.startsWith(QLatin1String("Unread now: unknown; most in the last 10 s: unknown")),
             qPrintable(unknown));
}

// The Book column: the worst state of the stream's books with its count, "synced k/N" when all
// are synced, empty without books; sorted worst first (descending), its tooltip every state.
void tst_StreamTableModel::bookColumn()
{
    const auto book = [](const char *instrument, BookState state, const char *reason = "") {
        BookStatus b;
        b.instrument = QLatin1String(instrument);
        b.state = state;
        b.lastResyncReason = QLatin1String(reason);
        return b;
    };
    StreamTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    StreamSnapshot synced = snap(1, QStringLiteral("synced"), 10, 0);
    synced.books = {book("BTCUSDT", BookState::Synced), book("ETHUSDT", BookState::Synced),
                    book("SOLUSDT", BookState::Synced)};
    StreamSnapshot crossed = snap(2, QStringLiteral("crossed"), 10, 0);
    crossed.books = {book("BTCUSDT", BookState::Synced), book("ETHUSDT", BookState::Crossed),
                     book("SOLUSDT", BookState::Resyncing, "a gap: U 120 after 100")};
    StreamSnapshot syncing = snap(3, QStringLiteral("syncing"), 10, 0);
    syncing.books = {book("BTCUSDT", BookState::Syncing), book("ETHUSDT", BookState::Synced)};
    StreamSnapshot none = snap(4, QStringLiteral("trades"), 10, 0);
    model.update({synced, crossed, syncing, none}, 1000);

    QCOMPARE(model.headerData(StreamTableModel::ColBook, Qt::Horizontal).toString(), QStringLiteral("Book"));
    const auto cell = [&model](int row, int role = Qt::DisplayRole) {
        return model.index(row, StreamTableModel::ColBook).data(role);
    };
    QCOMPARE(cell(0).toString(), QStringLiteral("synced 3/3"));
    QCOMPARE(cell(1).toString(), QStringLiteral("crossed 1"));
    QCOMPARE(cell(2).toString(), QStringLiteral("syncing 1"));
    QCOMPARE(cell(3).toString(), QString());
    QCOMPARE(cell(1, StreamTableModel::CsvRole).toString(), QStringLiteral("crossed 1"));
    // Coloured by the worst state.
    QCOMPARE(cell(0, Qt::ForegroundRole).value<QBrush>().color(), bookStateColor(BookState::Synced, false));
    QCOMPARE(cell(1, Qt::ForegroundRole).value<QBrush>().color(), bookStateColor(BookState::Crossed, false));
    QVERIFY(!cell(3, Qt::ForegroundRole).isValid());
    // Every state in the tooltip, and the books not synced by name with their reason.
    const QString tip = cell(1, Qt::ToolTipRole).toString();
    QVERIFY2(tip.startsWith(QLatin1String("3 books: 1 synced, 1 resyncing, 1 crossed")), qPrintable(tip));
    QVERIFY2(tip.contains(QLatin1String("ETHUSDT crossed")), qPrintable(tip));
    QVERIFY2(tip.contains(QLatin1String("SOLUSDT resyncing: a gap: U 120 after 100")), qPrintable(tip));
    QVERIFY2(!tip.contains(QLatin1String("BTCUSDT")), qPrintable(tip));
    QVERIFY(!cell(3, Qt::ToolTipRole).isValid() || cell(3, Qt::ToolTipRole).toString().isEmpty());

    // Sorted descending, the worst comes first and a stream without books last.
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(StreamTableModel::SortRole);
    proxy.sort(StreamTableModel::ColBook, Qt::DescendingOrder);
    QStringList order;
    for (int r = 0; r < proxy.rowCount(); ++r)
        order << proxy.index(r, StreamTableModel::ColName).data().toString();
    QCOMPARE(order,
             (QStringList{QStringLiteral("crossed"), QStringLiteral("syncing"), QStringLiteral("synced"),
                          QStringLiteral("trades")}));

    // A book's state changing is a change of the row.
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    StreamSnapshot later = synced;
    later.takenAtNs = kTick;
    later.books[1].state = BookState::Desynced;
    model.apply({later}, {}, 1100);
    QVERIFY(!changed.isEmpty());
    QCOMPARE(cell(0).toString(), QStringLiteral("desynced 1"));
}

STREAMSCOPE_TEST_MAIN(tst_StreamTableModel)
#include "tst_streamtablemodel.moc"
