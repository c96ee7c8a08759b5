// The order book in the window, end to end: the real engine against a Binance-like venue written
// in the test (tests/books/BookVenueServer.h: its depth stream and REST snapshot on 127.0.0.1),
// shown by the main window. The Book column says "synced 2/2"; the Order book pane shows the
// selected stream's books in its picker and the top 20 levels of the chosen one, exactly the
// venue's, with its update id, and a level that changes flashes; another instrument is picked;
// Freeze holds the ladder while the engine's book moves on; hidden behind the charts the pane
// asks for nothing; a stream without books says so; the Details pane shows the books' states and
// the audit's match %.

#include "../books/BookVenueServer.h"
#include "../common/LayoutRequests.h"
#include "../common/TestRegistry.h"
#include "../common/TimeFactor.h"

#include "DepthChart.h"
#include "DepthLadder.h"
#include "DepthLadderModel.h"
#include "Engine.h"
#include "MainWindow.h"
#include "SnapshotHub.h"
#include "StreamDetails.h"
#include "StreamTableModel.h"

#include <QtGui/QAction>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDockWidget>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QMenu>
#include <QtWidgets/QTableView>
#include <QtWidgets/QTreeWidget>

using namespace streamscope;
using namespace streamscope::testing;
using namespace streamscope::ui;

namespace {
using Levels = QList<QPair<QString, QString>>;

StreamConfig depthStream(const BookVenueServer &venue, const QString &name, const QStringList &symbols)
{
    StreamConfig c;
    c.name = name;
    c.venue = Venue("binance");
    c.url = venue.streamUrl(symbols);
    c.restUrl = venue.restUrl();
    c.pingIntervalMs = 0;
    return c;
}

// A venue book of 25 levels a side around `mid`, one unit apart.
void fillLadder(BookVenueServer &venue, const QString &symbol, int mid)
{
    Levels bids;
    Levels asks;
    for (int i = 0; i < 25; ++i) {
        bids.append({QStringLiteral("%1.50").arg(mid - 1 - i), QStringLiteral("%1.25").arg(1 + i % 7)});
        asks.append({QStringLiteral("%1.50").arg(mid + i), QStringLiteral("%1.5").arg(2 + i % 5)});
    }
    venue.diff(symbol, bids, asks);
}

StreamId idOf(const MainWindow &w, const QString &name)
{
    for (const StreamTableModel::Row &r : w.streamModel()->rows())
        if (r.snap.name == name)
            return r.snap.id;
    return kInvalidStreamId;
}

QString bookCell(const MainWindow &w, const QString &name)
{
    const int row = w.streamModel()->rowOf(idOf(w, name));
    return row < 0 ? QString() : w.streamModel()->index(row, StreamTableModel::ColBook).data().toString();
}

// The venue's true levels, best first, as the ladder writes them.
QStringList venueSide(BookVenueServer &venue, const QString &symbol, bool bids, int n)
{
    QStringList out;
    BookVenueServer::Book &b = venue.book(symbol);
    if (bids) {
        for (auto it = b.bids.rbegin(); it != b.bids.rend() && out.size() < n; ++it)
            out << QString::number(it->first, 'g', 12) + QLatin1Char(' ')
                    + QString::number(it->second.second.toDouble(), 'g', 12);
    } else {
        for (auto it = b.asks.begin(); it != b.asks.end() && out.size() < n; ++it)
            out << QString::number(it->first, 'g', 12) + QLatin1Char(' ')
                    + QString::number(it->second.second.toDouble(), 'g', 12);
    }
    return out;
}

QStringList ladderSide(const DepthLadderModel &m, bool bids)
{
    QStringList out;
    const QVector<DepthLevel> &side = bids ? m.depth().bids : m.depth().asks;
    for (const DepthLevel &l : side)
        out << QString::number(double(l.price) / double(kDepthUnit), 'g', 12) + QLatin1Char(' ')
                + QString::number(double(l.qty) / double(kDepthUnit), 'g', 12);
    return out;
}
} // namespace

class tst_DepthLadder : public QObject {
    Q_OBJECT
private slots:
    void ladderFollowsTheSelectedBook();
    void aTickThatChangesNothingLaysNothingOut();
};

void tst_DepthLadder::ladderFollowsTheSelectedBook()
{
    BookVenueServer venue;
    QVERIFY(venue.listen());
    const QString btc = QStringLiteral("BTCUSDT");
    const QString eth = QStringLiteral("ETHUSDT");
    venue.book(btc).id = 70000;
    venue.book(eth).id = 9000;
    fillLadder(venue, btc, 27000);
    fillLadder(venue, eth, 1800);

    Engine engine;
    MainWindow w(&engine);
    Workspace ws;
    StreamConfig books = depthStream(venue, QStringLiteral("books"), {btc, eth});
    books.bookAuditS = 1; // the Details pane shows the audit's match
    StreamConfig plain = depthStream(venue, QStringLiteral("no-books"), {btc});
    plain.book = false;
    ws.streams = {books, plain};
    w.setWorkspace(ws, QString());
    w.resize(1600, 1000);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QTRY_COMPARE_WITH_TIMEOUT(venue.connections(), 2, scaledMs(10000));
    // A book is made at its instrument's first diff, then synced from the snapshot.
    venue.diff(btc, {{QStringLiteral("26990.00"), QStringLiteral("3")}}, {});
    venue.diff(eth, {}, {{QStringLiteral("1830.00"), QStringLiteral("4")}});
    QTRY_COMPARE_WITH_TIMEOUT(bookCell(w, QStringLiteral("books")), QStringLiteral("synced 2/2"), scaledMs(15000));
    QCOMPARE(bookCell(w, QStringLiteral("no-books")), QString());
    // In the column chooser like the others.
    QMenu columns;
    w.fillColumnMenu(&columns);
    QAction *bookColumn = columns.findChild<QAction *>(QStringLiteral("column%1").arg(StreamTableModel::ColBook));
    QVERIFY(bookColumn && bookColumn->isChecked());
    QCOMPARE(bookColumn->text(), QStringLiteral("Book"));
    bookColumn->toggle();
    QVERIFY(w.streamTable()->horizontalHeader()->isSectionHidden(StreamTableModel::ColBook));
    bookColumn->toggle();
    QVERIFY(!w.streamTable()->horizontalHeader()->isSectionHidden(StreamTableModel::ColBook));

    // The Order book pane, shown, follows the selected stream: its books in the picker. Behind
    // the charts' tab it asks for nothing.
    DepthLadder *ladder = w.ladder();
    w.selectStream(idOf(w, QStringLiteral("books")));
    QTRY_COMPARE(ladder->instruments()->count(), 2);
    QVERIFY(!ladder->polling());
    QCOMPARE(ladder->requestsSent(), quint64(0));
    w.bookDock()->show();
    w.bookDock()->raise();
    QTRY_VERIFY(ladder->isVisible());
    QTRY_COMPARE(ladder->instruments()->count(), 2);
    QCOMPARE(ladder->instrument(), btc);
    QVERIFY(ladder->instruments()->itemText(0).contains(QLatin1String("synced")));
    QVERIFY(ladder->polling());
    // The top 20 levels of each side, exactly the venue's, at the venue's update id.
    QTRY_COMPARE_WITH_TIMEOUT(ladder->model()->depth().updateId, venue.book(btc).id, scaledMs(10000));
    QCOMPARE(ladderSide(*ladder->model(), true), venueSide(venue, btc, true, 20));
    QCOMPARE(ladderSide(*ladder->model(), false), venueSide(venue, btc, false, 20));
    QCOMPARE(ladder->model()->index(DepthLadderModel::bestBidRow(), DepthLadderModel::ColPrice).data().toString(),
             QStringLiteral("26999.5"));
    QCOMPARE(ladder->model()->index(DepthLadderModel::bestAskRow(), DepthLadderModel::ColPrice).data().toString(),
             QStringLiteral("27000.5"));
    QVERIFY2(ladder->statusText().startsWith(QStringLiteral("update %1 · ").arg(venue.book(btc).id)),
             qPrintable(ladder->statusText()));
    QVERIFY2(ladder->statusText().contains(QStringLiteral("synced · 26 bids, 25 asks")),
             qPrintable(ladder->statusText()));
    QCOMPARE(ladder->chart()->bidSteps().size(), 20);
    QVERIFY(ladder->note().isEmpty());

    // A level that changes flashes.
    venue.diff(btc, {{QStringLiteral("26998.50"), QStringLiteral("9.75")}}, {});
    QTRY_COMPARE_WITH_TIMEOUT(ladder->model()->depth().updateId, venue.book(btc).id, scaledMs(10000));
    const int changedRow = DepthLadderModel::bestBidRow() + 1;
    QCOMPARE(ladder->model()->index(changedRow, DepthLadderModel::ColBid).data().toString(), QStringLiteral("9.75"));
    QVERIFY(ladder->model()->index(changedRow, DepthLadderModel::ColBid).data(DepthLadderModel::FlashRole).toDouble()
            > 0.0);
    QCOMPARE(
        ladder->model()->index(changedRow + 1, DepthLadderModel::ColBid).data(DepthLadderModel::FlashRole).toDouble(),
        0.0);

    // Another instrument picked: its book.
    ladder->setInstrument(eth);
    QTRY_COMPARE_WITH_TIMEOUT(ladder->model()->depth().instrument, eth, scaledMs(10000));
    QTRY_COMPARE_WITH_TIMEOUT(ladder->model()->depth().updateId, venue.book(eth).id, scaledMs(10000));
    QCOMPARE(ladderSide(*ladder->model(), false), venueSide(venue, eth, false, 20));

    // Frozen: the ladder holds while the engine's book moves on, and nothing is asked for.
    ladder->freezeAction()->trigger();
    QVERIFY(!ladder->polling());
    const qint64 frozenId = ladder->model()->depth().updateId;
    const quint64 asked = ladder->requestsSent();
    venue.diff(eth, {{QStringLiteral("1798.50"), QStringLiteral("1")}}, {});
    QSignalSpy copies(&engine, &Engine::bookDepthReady);
    const StreamId booksId = idOf(w, QStringLiteral("books"));
    const auto engineHasIt = [&] { // the engine's own copy has the venue's last update
        engine.requestBookDepth(booksId, eth, 1);
        return copies.wait(scaledMs(2000)) && copies.last().at(0).value<BookDepth>().updateId == venue.book(eth).id;
    };
    QTRY_VERIFY_WITH_TIMEOUT(engineHasIt(), scaledMs(10000));
    ladder->poll();
    QCOMPARE(ladder->requestsSent(), asked);
    QCOMPARE(ladder->model()->depth().updateId, frozenId);
    QVERIFY(ladder->statusText().endsWith(QLatin1String("frozen")));
    // Resumed: up to date.
    ladder->freezeAction()->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(ladder->model()->depth().updateId, venue.book(eth).id, scaledMs(10000));

    // Hidden behind the charts: nothing is asked for.
    w.findChild<QDockWidget *>(QStringLiteral("chartsDock"))->raise();
    QTRY_VERIFY(!ladder->polling());
    const quint64 hiddenAsked = ladder->requestsSent();
    ladder->poll();
    QCOMPARE(ladder->requestsSent(), hiddenAsked);

    // A stream without books says so, and its freeze-free ladder is empty.
    w.bookDock()->raise();
    QTRY_VERIFY(ladder->polling());
    w.selectStream(idOf(w, QStringLiteral("no-books")));
    QTRY_VERIFY(ladder->note().contains(QLatin1String("keeps no order book")));
    QCOMPARE(ladder->instruments()->count(), 0);
    QVERIFY(!ladder->polling());

    // The Details pane: the books' states and the audit's match.
    w.selectStream(idOf(w, QStringLiteral("books")));
    w.detailsDock()->show();
    w.detailsDock()->raise();
    QTRY_VERIFY_WITH_TIMEOUT(
        w.details()->booksText().contains(QLatin1String("last audit 100.0 % of the top levels match")),
        scaledMs(15000));
    QVERIFY2(w.details()->booksText().startsWith(QLatin1String("Order books: synced 2")),
             qPrintable(w.details()->booksText()));
    QVERIFY2(w.details()->booksText().contains(QLatin1String("0 stale levels")), qPrintable(w.details()->booksText()));
    QTRY_COMPARE_WITH_TIMEOUT(w.details()->valueAt(QStringLiteral("books/1/last_audit_match_ratio")),
                              QStringLiteral("100.0 %"), scaledMs(5000));
    QCOMPARE(w.details()->itemAt(QStringLiteral("books/1"))->text(0), QStringLiteral("#1 BTCUSDT"));
    QCOMPARE(w.details()->valueAt(QStringLiteral("books/2/state")), QStringLiteral("synced"));
}

// The pane refreshes on every tick of the hub (ten a second): one that changes nothing it shows
// asks for no new layout of the pane (and so of its dock and the window).
void tst_DepthLadder::aTickThatChangesNothingLaysNothingOut()
{
    Engine engine;
    SnapshotHub hub(&engine);
    DepthLadder ladder(&engine, &hub);
    ladder.resize(400, 300);
    ladder.show();
    QVERIFY(QTest::qWaitForWindowExposed(&ladder));
    hub.poll(SnapshotHub::TickKind::Fast);
    QCoreApplication::processEvents();
    QVERIFY(!ladder.note().isEmpty()); // "Select a depth stream…"

    int requests = 0;
    {
        testing::LayoutRequests spy(&ladder);
        for (int i = 0; i < 10; ++i) {
            hub.poll(SnapshotHub::TickKind::Fast);
            QCoreApplication::processEvents();
        }
        requests = spy.count();
    }
    QCOMPARE(requests, 0);
}

STREAMSCOPE_TEST_MAIN(tst_DepthLadder)
#include "tst_depthladder.moc"
