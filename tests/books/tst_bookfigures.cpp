// The order books' figures outside the engine (docs/books.md): the alert rules book_desync and
// book_crossed (read, written, evaluated with for_s/clear_after_s), the report's books list and
// the /metrics families, on snapshots made by hand.

#include "../common/TestRegistry.h"
#include "AlertMonitor.h"
#include "AlertRule.h"
#include "BookReport.h"
#include "StreamFigures.h"

#include <QtCore/QJsonArray>
#include <QtCore/QProcess>
#include <QtCore/QStandardPaths>
#include <QtTest/QSignalSpy>
#include <QtTest/QtTest>

using namespace streamscope;
using namespace streamscope::alerts;
using Condition = AlertMonitor::Condition;

namespace {

BookStatus book(const char *instrument, BookState state, quint64 resyncs = 0, quint64 crossed = 0)
{
    BookStatus b;
    b.instrument = QString::fromLatin1(instrument);
    b.state = state;
    b.resyncs = resyncs;
    b.crossedEpisodes = crossed;
    return b;
}

StreamSnapshot stream(const QVector<BookStatus> &books)
{
    StreamSnapshot s;
    s.name = QStringLiteral("depth");
    s.state = StreamState::Live;
    s.books = books;
    return s;
}

AlertMonitor::Sample sample(const QVector<BookStatus> &books, qint64 nowMs)
{
    return alertSample(stream(books), 10.0, 1.0, 0, nowMs);
}

} // namespace

class TestBookFigures : public QObject {
    Q_OBJECT
private slots:
    void rulesReadAndWritten();
    void ruleOfTheWrongType();
    void desyncRaisedAndCleared();
    void quickResyncStillRaises();
    void crossedRaised();
    void reportFields();
    void metrics();
    void metricsPassPromtool();
};

void TestBookFigures::rulesReadAndWritten()
{
    const QJsonObject o{{QStringLiteral("stream"), QStringLiteral("*")},
                        {QStringLiteral("book_desync"), true},
                        {QStringLiteral("book_crossed"), true},
                        {QStringLiteral("for_s"), 2}};
    AlertRule r;
    QString error;
    QVERIFY2(AlertRule::fromJson(o, QStringLiteral("alerts[0]"), r, &error), qPrintable(error));
    QVERIFY(r.bookDesync);
    QVERIFY(r.bookCrossed);
    QVERIFY(!r.isEmpty());
    QCOMPARE(r.toJson(), o);
    AlertRule plain;
    QVERIFY(AlertRule::fromJson(QJsonObject{{QStringLiteral("stream"), QStringLiteral("x")}}, QStringLiteral("a"),
                                plain, &error));
    QVERIFY(!plain.bookDesync && !plain.bookCrossed && plain.isEmpty());
    QVERIFY(!(plain == r));
}

void TestBookFigures::ruleOfTheWrongType()
{
    AlertRule r;
    QString error;
    QVERIFY(!AlertRule::fromJson(
        QJsonObject{{QStringLiteral("stream"), QStringLiteral("*")}, {QStringLiteral("book_crossed"), 1}},
        QStringLiteral("alerts[3]"), r, &error));
    QCOMPARE(error, QStringLiteral("alerts[3].book_crossed: expected true or false"));
}

void TestBookFigures::desyncRaisedAndCleared()
{
    AlertMonitor m;
    AlertRule r;
    r.stream = QStringLiteral("*");
    r.bookDesync = true;
    r.forS = 2;
    r.clearAfterS = 3;
    m.setRules({r});
    QSignalSpy raised(&m, &AlertMonitor::alertRaised);
    QSignalSpy cleared(&m, &AlertMonitor::alertCleared);
    qint64 t = 1'000'000;
    m.evaluate(1, QStringLiteral("depth"), sample({book("BTCUSDT", BookState::Synced)}, t), t);
    // Desynced (a gap), then resyncing while its snapshot is fetched: for_s counts both.
    t += 1000;
    m.evaluate(1, QStringLiteral("depth"), sample({book("BTCUSDT", BookState::Desynced, 1)}, t), t);
    t += 1000;
    m.evaluate(1, QStringLiteral("depth"), sample({book("BTCUSDT", BookState::Resyncing, 1)}, t), t);
    QCOMPARE(raised.size(), 0);
    t += 1000;
    m.evaluate(1, QStringLiteral("depth"), sample({book("BTCUSDT", BookState::Resyncing, 1)}, t), t);
    QCOMPARE(raised.size(), 1);
    QCOMPARE(raised.at(0).at(3).toInt(), int(Condition::BookDesync));
    QCOMPARE(raised.at(0).at(2).toString(), QStringLiteral("order book out of sync: BTCUSDT"));
    QCOMPARE(AlertMonitor::conditionName(int(Condition::BookDesync)), QStringLiteral("book_desync"));
    // Synced again: the episode lasts the hold after the last resync, then clear_after_s.
    t += 1000;
    m.evaluate(1, QStringLiteral("depth"), sample({book("BTCUSDT", BookState::Synced, 1)}, t), t);
    const qint64 resyncSeenMs = t - 3000;
    // Last held at the last whole second within the hold, then clear for 3 s.
    for (t += 1000; t < resyncSeenMs + AlertMonitor::kGapHoldMs + 2000; t += 1000)
        m.evaluate(1, QStringLiteral("depth"), sample({book("BTCUSDT", BookState::Synced, 1)}, t), t);
    QCOMPARE(cleared.size(), 0);
    m.evaluate(1, QStringLiteral("depth"), sample({book("BTCUSDT", BookState::Synced, 1)}, t), t);
    QCOMPARE(cleared.size(), 1);
    QCOMPARE(raised.size(), 1);
}

void TestBookFigures::quickResyncStillRaises()
{
    AlertMonitor m;
    AlertRule r;
    r.stream = QStringLiteral("*");
    r.bookDesync = true;
    m.setRules({r});
    QSignalSpy raised(&m, &AlertMonitor::alertRaised);
    qint64 t = 1'000'000;
    m.evaluate(1, QStringLiteral("depth"), sample({book("ETHUSDT", BookState::Synced)}, t), t);
    t += 1000; // lost and found again between two samples: only the count shows it
    m.evaluate(1, QStringLiteral("depth"), sample({book("ETHUSDT", BookState::Synced, 1)}, t), t);
    QCOMPARE(raised.size(), 1);
    QCOMPARE(raised.at(0).at(2).toString(), QStringLiteral("order book resynced"));
    // A rule without book_desync raises nothing for it.
    AlertMonitor quiet;
    AlertRule gapsOnly;
    gapsOnly.stream = QStringLiteral("*");
    gapsOnly.gaps = true;
    quiet.setRules({gapsOnly});
    QSignalSpy none(&quiet, &AlertMonitor::alertRaised);
    quiet.evaluate(1, QStringLiteral("depth"), sample({book("ETHUSDT", BookState::Desynced, 1)}, t), t);
    QCOMPARE(none.size(), 0);
}

void TestBookFigures::crossedRaised()
{
    AlertMonitor m;
    AlertRule r;
    r.stream = QStringLiteral("*");
    r.bookCrossed = true;
    m.setRules({r});
    QSignalSpy raised(&m, &AlertMonitor::alertRaised);
    qint64 t = 1'000'000;
    m.evaluate(1, QStringLiteral("depth"),
               sample({book("BTCUSDT", BookState::Synced), book("ETHUSDT", BookState::Synced)}, t), t);
    t += 1000;
    m.evaluate(1, QStringLiteral("depth"),
               sample({book("BTCUSDT", BookState::Synced), book("ETHUSDT", BookState::Crossed, 0, 1)}, t), t);
    QCOMPARE(raised.size(), 1);
    QCOMPARE(raised.at(0).at(3).toInt(), int(Condition::BookCrossed));
    QCOMPARE(raised.at(0).at(2).toString(), QStringLiteral("order book crossed: ETHUSDT"));
}

void TestBookFigures::reportFields()
{
    BookStatus b = book("BTCUSDT", BookState::Synced, 2, 1);
    b.audits = 3;
    b.auditMismatches = 1;
    b.lastAuditMatchRatio = 1.0;
    b.minAuditMatchRatio = 0.83333333;
    b.staleLevels = 4;
    b.bidLevels = 1000;
    b.askLevels = 998;
    b.timeToSyncMs = 240;
    b.lastResyncReason = QStringLiteral("gap: a diff from 120 after 115");
    QJsonObject o;
    app::addBookFields(o, stream({b, book("ETHUSDT", BookState::Syncing)}));
    const QJsonArray books = o.value(QStringLiteral("books")).toArray();
    QCOMPARE(books.size(), 2);
    const QJsonObject first = books.at(0).toObject();
    QCOMPARE(first,
             (QJsonObject{{QStringLiteral("instrument"), QStringLiteral("BTCUSDT")},
                          {QStringLiteral("state"), QStringLiteral("synced")},
                          {QStringLiteral("resyncs"), 2},
                          {QStringLiteral("checksum_failures"), 0},
                          {QStringLiteral("crossed_episodes"), 1},
                          {QStringLiteral("audits"), 3},
                          {QStringLiteral("audit_mismatches"), 1},
                          {QStringLiteral("last_audit_match_ratio"), 1.0},
                          {QStringLiteral("min_audit_match_ratio"), 0.8333},
                          {QStringLiteral("stale_levels"), 4},
                          {QStringLiteral("bid_levels"), 1000},
                          {QStringLiteral("ask_levels"), 998},
                          {QStringLiteral("time_to_sync_ms"), 240},
                          {QStringLiteral("last_resync_reason"), QStringLiteral("gap: a diff from 120 after 115")}}));
    const QJsonObject second = books.at(1).toObject();
    QVERIFY(second.value(QStringLiteral("last_audit_match_ratio")).isNull());
    QVERIFY(second.value(QStringLiteral("time_to_sync_ms")).isNull());
    QCOMPARE(second.value(QStringLiteral("state")).toString(), QStringLiteral("syncing"));
    QJsonObject none;
    app::addBookFields(none, stream({}));
    QCOMPARE(none.value(QStringLiteral("books")).toArray().size(), 0); // always a list
}

void TestBookFigures::metrics()
{
    BookStatus b = book("BTCUSDT", BookState::Crossed, 2);
    b.audits = 1;
    b.lastAuditMatchRatio = 0.5;
    b.staleLevels = 3;
    const QVector<StreamSnapshot> streams{stream({b, book("ETHUSDT", BookState::Syncing)})};
    const QList<QByteArray> names{"depth"};
    QByteArray open;
    app::appendBookMetrics(open, streams, names, false);
    QVERIFY(open.contains("# TYPE streamscope_book_state stateset\n"));
    QVERIFY(open.contains(
        "streamscope_book_state{stream=\"depth\",instrument=\"BTCUSDT\",streamscope_book_state=\"crossed\"} 1\n"));
    QVERIFY(open.contains(
        "streamscope_book_state{stream=\"depth\",instrument=\"BTCUSDT\",streamscope_book_state=\"synced\"} 0\n"));
    QVERIFY(open.contains("# TYPE streamscope_book_resyncs counter\n"));
    QVERIFY(open.contains("streamscope_book_resyncs_total{stream=\"depth\",instrument=\"BTCUSDT\"} 2\n"));
    QVERIFY(open.contains("streamscope_book_checksum_failures_total{stream=\"depth\",instrument=\"ETHUSDT\"} 0\n"));
    QVERIFY(open.contains("streamscope_book_audit_match_ratio{stream=\"depth\",instrument=\"BTCUSDT\"} 0.5\n"));
    QVERIFY(!open.contains("streamscope_book_audit_match_ratio{stream=\"depth\",instrument=\"ETHUSDT\"}"));
    QVERIFY(open.contains("streamscope_book_stale_levels{stream=\"depth\",instrument=\"BTCUSDT\"} 3\n"));
    QByteArray classic;
    app::appendBookMetrics(classic, streams, names, true);
    QVERIFY(classic.contains("# TYPE streamscope_book_state gauge\n"));
    QVERIFY(classic.contains("# TYPE streamscope_book_resyncs_total counter\n"));
    QByteArray nothing;
    app::appendBookMetrics(nothing, {stream({})}, names, false);
    QVERIFY(nothing.isEmpty()); // no books, no families
}

// The classic text format as Prometheus' own linter reads it (skipped without promtool).
void TestBookFigures::metricsPassPromtool()
{
    const QString promtool = QStandardPaths::findExecutable(QStringLiteral("promtool"));
    if (promtool.isEmpty())
        QSKIP("promtool is not installed");
    BookStatus b = book("BTCUSDT", BookState::Synced, 1);
    b.audits = 2;
    b.lastAuditMatchRatio = 1.0;
    QByteArray text;
    app::appendBookMetrics(text, {stream({b, book("ETH-USDT", BookState::Resyncing)})}, {"depth"}, true);
    QProcess p;
    p.start(promtool, {QStringLiteral("check"), QStringLiteral("metrics")});
    QVERIFY(p.waitForStarted());
    p.write(text);
    p.closeWriteChannel();
    QVERIFY(p.waitForFinished(30000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardOutput() + p.readAllStandardError() + "\n" + text);
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestBookFigures)
#include "tst_bookfigures.moc"
