#include "../common/TestRegistry.h"
#include "EventLogModel.h"
#include "Format.h"
#include "InstrumentList.h"
#include "Sparkline.h"
#include "StreamDetails.h"
#include "StreamHistory.h"

#include <QtCore/QSortFilterProxyModel>
#include <QtGui/QStandardItemModel>
#include <QtTest/QTest>
#include <QtWidgets/QTreeWidget>

#include <algorithm>

using namespace streamscope;
using namespace streamscope::ui;

namespace {
StreamSnapshot countedSnapshot(StreamId id, const QString &name, quint64 messages, qint64 takenAtNs)
{
    StreamSnapshot s;
    s.id = id;
    s.name = name;
    s.url = RedactedUrl::of(QUrl(QStringLiteral("wss://127.0.0.1:9443/ws/btcusdt@aggTrade")));
    s.venue = Venue("binance");
    s.mode = DecodeMode::Parsed;
    s.state = StreamState::Live;
    s.messages = messages;
    s.dataMessages = messages;
    s.bytes = messages * 100;
    s.takenAtNs = takenAtNs;
    for (int i = 0; i < 100; ++i)
        s.latency.record(1000 + i * 10); // 1.00 .. 1.99 ms
    ConnectionInfo c;
    c.connected = true;
    c.url = s.url;
    s.connections = {c};
    return s;
}
} // namespace

class tst_StreamDetails : public QObject {
    Q_OBJECT
private slots:
    void showsEveryReportFieldAndUpdatesInPlace();
    void connectionRowsFollowTheStream();
    void sparklinesShowTheLastMinutes();
    void alertsAndEventsOfThisStreamOnly();
    void instrumentsOfACombinedStream();
};

void tst_StreamDetails::showsEveryReportFieldAndUpdatesInPlace()
{
    EventLogModel events;
    QStandardItemModel alerts(0, 3);
    StreamDetails details(&events, &alerts);
    StreamHistory history;
    QVERIFY(details.counters()->topLevelItemCount() == 0);

    details.setStream(7, QStringLiteral("btc"));
    StreamSnapshot s = countedSnapshot(7, QStringLiteral("btc"), 1234567, 1'000'000'000);
    s.gaps = 3;
    s.parseErrors = 2;
    details.refresh(s, 10.0, history);
    // The report's own names and values.
    QCOMPARE(details.valueAt(QStringLiteral("messages")), formatCount(1234567));
    QCOMPARE(details.valueAt(QStringLiteral("gaps")), QStringLiteral("3"));
    QCOMPARE(details.valueAt(QStringLiteral("parse_errors")), QStringLiteral("2"));
    QCOMPARE(details.valueAt(QStringLiteral("state")), QStringLiteral("live"));
    QCOMPARE(details.valueAt(QStringLiteral("venue")), QStringLiteral("binance"));
    QCOMPARE(details.valueAt(QStringLiteral("latency_ms/count")), QStringLiteral("100"));
    QVERIFY(!details.valueAt(QStringLiteral("latency_ms/p99")).isEmpty());
    QVERIFY(details.valueAt(QStringLiteral("rate_msgs_per_s")).startsWith(QStringLiteral("123456.7")));
    QVERIFY(details.valueAt(QStringLiteral("name")).isEmpty()); // it is the title
    // The contract's fields come first, in the order of docs/report.md.
    QCOMPARE(details.counters()->topLevelItem(0)->text(0), QStringLiteral("state"));

    // A second refresh changes the values of the same rows: what the user expanded, selected
    // or scrolled to stays.
    QTreeWidgetItem *messages = details.itemAt(QStringLiteral("messages"));
    QTreeWidgetItem *latency = details.itemAt(QStringLiteral("latency_ms"));
    latency->setExpanded(false);
    details.counters()->setCurrentItem(messages);
    const int rows = details.counters()->topLevelItemCount();
    s.messages = 2000000;
    s.state = StreamState::Stopped;
    details.refresh(s, 10.0, history);
    QCOMPARE(details.itemAt(QStringLiteral("messages")), messages);
    QCOMPARE(messages->text(1), formatCount(2000000));
    QCOMPARE(details.valueAt(QStringLiteral("state")), QStringLiteral("stopped"));
    QCOMPARE(details.counters()->currentItem(), messages);
    QVERIFY(!latency->isExpanded());
    QCOMPARE(details.counters()->topLevelItemCount(), rows);

    // Another stream's snapshot does not land in this pane; choosing it starts afresh.
    details.refresh(countedSnapshot(8, QStringLiteral("eth"), 5, 2'000'000'000), 10.0, history);
    QCOMPARE(details.valueAt(QStringLiteral("messages")), formatCount(2000000));
    details.setStream(8, QStringLiteral("eth"));
    QVERIFY(details.valueAt(QStringLiteral("messages")).isEmpty());
    details.refresh(countedSnapshot(8, QStringLiteral("eth"), 5, 2'000'000'000), 10.0, history);
    QCOMPARE(details.valueAt(QStringLiteral("messages")), QStringLiteral("5"));
}

void tst_StreamDetails::connectionRowsFollowTheStream()
{
    EventLogModel events;
    QStandardItemModel alerts(0, 3);
    StreamDetails details(&events, &alerts);
    StreamHistory history;
    details.setStream(1, QStringLiteral("multi"));
    StreamSnapshot s = countedSnapshot(1, QStringLiteral("multi"), 10, 1);
    ConnectionInfo second;
    second.shard = 1;
    second.connected = true;
    second.subscriptions = 1024;
    second.url = RedactedUrl::of(QUrl(QStringLiteral("wss://127.0.0.1:9443/stream")));
    s.connections.append(second);
    details.refresh(s, 1.0, history);
    QCOMPARE(details.valueAt(QStringLiteral("connections")), QStringLiteral("2 entries"));
    QCOMPARE(details.valueAt(QStringLiteral("connections/2/shard")), QStringLiteral("1"));
    QCOMPARE(details.valueAt(QStringLiteral("connections/2/subscriptions")), formatCount(1024));
    QCOMPARE(details.valueAt(QStringLiteral("connections/2/connected")), QStringLiteral("yes"));

    // The second connection closes: its rows go, the first one's stay.
    QTreeWidgetItem *first = details.itemAt(QStringLiteral("connections/1/url"));
    s.connections.removeLast();
    details.refresh(s, 1.0, history);
    QCOMPARE(details.valueAt(QStringLiteral("connections")), QStringLiteral("1 entry"));
    QVERIFY(!details.itemAt(QStringLiteral("connections/2")));
    QVERIFY(!details.itemAt(QStringLiteral("connections/2/shard")));
    QCOMPARE(details.itemAt(QStringLiteral("connections/1/url")), first);
    QCOMPARE(details.itemAt(QStringLiteral("connections"))->childCount(), 1);
}

void tst_StreamDetails::sparklinesShowTheLastMinutes()
{
    EventLogModel events;
    QStandardItemModel alerts(0, 3);
    StreamDetails details(&events, &alerts);
    StreamHistory history;
    details.setStream(3, QStringLiteral("paced"));
    // Ten minutes at 100 msgs/s, one sample a second; p99 known for all but one second.
    quint64 messages = 0;
    for (int second = 0; second <= 600; ++second) {
        messages += 100;
        history.sample({countedSnapshot(3, QStringLiteral("paced"), messages, qint64(second) * 1'000'000'000)});
        history.sampleLatency(3, second == 598 ? qQNaN() : 2.0 + second / 600.0);
    }
    details.refresh(countedSnapshot(3, QStringLiteral("paced"), messages, 601'000'000'000), 601.0, history);
    const QList<QPointF> &rate = details.rateLine()->points();
    QCOMPARE(rate.size(), Sparkline::kSpanS + 1); // -300 .. 0
    QCOMPARE(rate.last(), QPointF(0.0, 100.0));
    QCOMPARE(rate.first().x(), -double(Sparkline::kSpanS));
    QCOMPARE(details.rateLine()->spanS(), Sparkline::kSpanS);
    QVERIFY2(details.rateLine()->caption().startsWith(QStringLiteral("msgs/s %1").arg(formatRate(100.0))),
             qPrintable(details.rateLine()->caption()));
    const QList<QPointF> &p99 = details.latencyLine()->points();
    QCOMPARE(p99.size(), Sparkline::kSpanS); // the second without a p99 is left out
    QCOMPARE(p99.last().x(), 0.0);
    QVERIFY(qAbs(p99.last().y() - 3.0) < 1e-9);
    QVERIFY(std::none_of(p99.begin(), p99.end(), [](const QPointF &p) { return p.x() == -2.0; }));

    // A stream seen for 90 s: two minutes wide, not five.
    StreamHistory young;
    for (int second = 0; second <= 90; ++second)
        young.sample(
            {countedSnapshot(3, QStringLiteral("paced"), quint64(second) * 10, qint64(second) * 1'000'000'000)});
    details.refresh(countedSnapshot(3, QStringLiteral("paced"), 900, 91'000'000'000), 91.0, young);
    QCOMPARE(details.rateLine()->spanS(), 120);
    QVERIFY(details.rateLine()->caption().endsWith(QStringLiteral("last 2 min")));
}

void tst_StreamDetails::alertsAndEventsOfThisStreamOnly()
{
    EventLogModel events;
    QStandardItemModel alerts(0, 3);
    const auto raise = [&alerts](const QString &stream, const QString &text) {
        alerts.appendRow(
            {new QStandardItem(QStringLiteral("12:00:00")), new QStandardItem(stream), new QStandardItem(text)});
    };
    raise(QStringLiteral("btc"), QStringLiteral("rate below 10 msgs/s"));
    raise(QStringLiteral("btc-futures"), QStringLiteral("silent for 30 s"));
    raise(QStringLiteral("eth"), QStringLiteral("p99 above 50 ms"));
    events.addAlertRaised(QStringLiteral("btc"), QStringLiteral("rate below 10 msgs/s"));
    events.addAlertRaised(QStringLiteral("eth"), QStringLiteral("p99 above 50 ms"));
    events.addWorkspaceWarning(QStringLiteral("unknown key"));
    events.flush();

    StreamDetails details(&events, &alerts);
    QCOMPARE(details.events()->rowCount(), 0); // no stream chosen: nothing
    details.setStream(1, QStringLiteral("btc"));
    QCOMPARE(details.alerts()->rowCount(), 1); // not btc-futures's
    QCOMPARE(details.alerts()->index(0, 2).data().toString(), QStringLiteral("rate below 10 msgs/s"));
    QCOMPARE(details.events()->rowCount(), 1);
    QCOMPARE(details.events()->index(0, EventLogModel::ColStream).data().toString(), QStringLiteral("btc"));

    raise(QStringLiteral("btc"), QStringLiteral("silent for 30 s"));
    events.addAlertCleared(QStringLiteral("btc"), QStringLiteral("rate below 10 msgs/s"));
    events.flush();
    QCOMPARE(details.alerts()->rowCount(), 2);
    QCOMPARE(details.events()->rowCount(), 2);

    details.setStream(2, QStringLiteral("eth"));
    QCOMPARE(details.alerts()->rowCount(), 1);
    QCOMPARE(details.events()->rowCount(), 1);
    details.setStream(kInvalidStreamId, QString());
    QCOMPARE(details.events()->rowCount(), 0);
    QCOMPARE(details.alerts()->rowCount(), 0);
}

// A combined stream's instruments: one compact row each, the stale one marked; a stream of one
// instrument shows no list; another stream's rows never linger.
void tst_StreamDetails::instrumentsOfACombinedStream()
{
    EventLogModel events;
    QStandardItemModel alerts(0, 3);
    StreamDetails details(&events, &alerts);
    StreamHistory history;
    InstrumentList *list = details.instruments();
    QVERIFY(list && list->isHidden());

    details.setStream(4, QStringLiteral("trades"));
    StreamSnapshot s = countedSnapshot(4, QStringLiteral("trades"), 3000, 1'000'000'000);
    const auto instrument = [](const char *name, quint64 messages, bool stale, quint64 episodes) {
        InstrumentStatus i;
        i.instrument = QString::fromLatin1(name);
        i.messages = messages;
        i.stale = stale;
        i.staleEpisodes = episodes;
        return i;
    };
    s.instruments = {instrument("SOLUSDT", 1200, false, 0)};
    details.refresh(s, 10.0, history);
    QVERIFY(list->isHidden()); // one instrument: nothing to compare it with

    s.instruments = {instrument("BTCUSDT", 1500, false, 0), instrument("ETHUSDT", 1400, false, 1),
                     instrument("SOLUSDT", 1200, true, 2)};
    details.refresh(s, 10.0, history);
    QVERIFY(!list->isHidden());
    QTreeWidget *view = list->view();
    QCOMPARE(view->topLevelItemCount(), 3);
    QCOMPARE(list->title(), QStringLiteral("Instruments: 3, 1 stale"));
    const QTreeWidgetItem *sol = view->topLevelItem(2);
    QCOMPARE(sol->text(InstrumentList::ColInstrument), QStringLiteral("SOLUSDT"));
    QCOMPARE(sol->text(InstrumentList::ColMessages), formatCount(1200));
    QCOMPARE(sol->text(InstrumentList::ColStale), QStringLiteral("STALE"));
    QCOMPARE(sol->text(InstrumentList::ColEpisodes), QStringLiteral("2"));
    QVERIFY(sol->font(InstrumentList::ColInstrument).bold());
    QVERIFY(sol->foreground(InstrumentList::ColInstrument) != view->palette().text());
    const QTreeWidgetItem *eth = view->topLevelItem(1);
    QCOMPARE(eth->text(InstrumentList::ColStale), QString());
    QVERIFY(!eth->font(InstrumentList::ColInstrument).bold());
    // The report's rows hold the same list under its own names.
    QCOMPARE(details.valueAt(QStringLiteral("instruments/3/instrument")), QStringLiteral("SOLUSDT"));
    QCOMPARE(details.valueAt(QStringLiteral("instruments/3/stale")), QStringLiteral("yes"));

    // It speaks again: the same rows, changed in place, the mark gone.
    view->setCurrentItem(view->topLevelItem(2));
    s.instruments[2].stale = false;
    s.instruments[2].messages = 1300;
    details.refresh(s, 11.0, history);
    QCOMPARE(view->topLevelItemCount(), 3);
    QCOMPARE(view->currentItem(), sol);
    QCOMPARE(sol->text(InstrumentList::ColStale), QString());
    QVERIFY(!sol->font(InstrumentList::ColInstrument).bold());
    QCOMPARE(list->title(), QStringLiteral("Instruments: 3"));

    // Another stream: the list starts empty.
    details.setStream(5, QStringLiteral("other"));
    QVERIFY(list->isHidden());
    QCOMPARE(view->topLevelItemCount(), 0);
}

STREAMSCOPE_TEST_MAIN(tst_StreamDetails)
#include "tst_streamdetails.moc"
