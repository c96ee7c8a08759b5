// WorkspaceReload without a network: which configuration differences count as a change
// (including the parts the saved form leaves out: a URL's password, a literal header), and
// how an edited workspace is applied to an engine (ids kept for unchanged and changed
// streams, new ids for added ones, removed ones gone). The process-level behaviour (SIGHUP,
// counters that go on) is in tst_agent.

#include "../common/TestRegistry.h"
#include "Engine.h"
#include "Workspace.h"
#include "WorkspaceReload.h"

#include <QtTest/QtTest>

using namespace streamscope;
using namespace streamscope::app;

namespace {

// Nothing listens on port 9 of loopback here: the streams just retry, which is all this needs.
// Line streams (tcp): no TLS library is loaded for streams that never connect.
StreamConfig stream(const QString &name, const QString &path = QStringLiteral("/a"))
{
    StreamConfig c;
    c.name = name;
    c.venue = Venue::Generic;
    c.url = QUrl(QStringLiteral("tcp://127.0.0.1:9") + path);
    return c;
}

} // namespace

class TestWorkspaceReload : public QObject {
    Q_OBJECT
private slots:
    void sameConfig_data();
    void sameConfig();
    void applyAddsRemovesAndUpdates();
};

void TestWorkspaceReload::sameConfig_data()
{
    QTest::addColumn<StreamConfig>("edited");
    QTest::addColumn<bool>("same");
    const StreamConfig base = stream(QStringLiteral("s"));
    QTest::newRow("identical") << base << true;
    StreamConfig c = base;
    c.url = QUrl(QStringLiteral("tcp://127.0.0.1:9/b"));
    QTest::newRow("url path") << c << false;
    c = base;
    c.url.setPassword(QStringLiteral("secret"));
    QTest::newRow("url password (left out of the saved form)") << c << false;
    c = base;
    c.headers = {{QStringLiteral("X-Api-Key"), QStringLiteral("literal")}};
    QTest::newRow("literal credential header (left out of the saved form)") << c << false;
    c = base;
    c.headers = {{QStringLiteral("X-Feed"), QStringLiteral("env:FEED")}};
    QTest::newRow("header") << c << false;
    c = base;
    c.stallTimeoutMs = 5000;
    QTest::newRow("stall timeout") << c << false;
    c = base;
    c.mode = DecodeMode::Raw;
    QTest::newRow("mode") << c << false;
    c = base;
    c.subscribe = {QStringLiteral("btcusdt@aggTrade")};
    QTest::newRow("subscriptions") << c << false;
}

void TestWorkspaceReload::sameConfig()
{
    QFETCH(StreamConfig, edited);
    QFETCH(bool, same);
    QCOMPARE(Workspace::sameStream(stream(QStringLiteral("s")), edited), same);
    QCOMPARE(Workspace::sameStream(edited, stream(QStringLiteral("s"))), same);
}

void TestWorkspaceReload::applyAddsRemovesAndUpdates()
{
    Engine engine;
    QHash<QString, StreamId> ids;
    WorkspaceChanges c = applyWorkspaceStreams(
        engine, ids,
        {stream(QStringLiteral("keep")), stream(QStringLiteral("drop")), stream(QStringLiteral("change"))});
    QCOMPARE(c.added, 3);
    QCOMPARE(engine.streamIds().size(), 3);
    const StreamId keep = ids.value(QStringLiteral("keep"));
    const StreamId drop = ids.value(QStringLiteral("drop"));
    const StreamId change = ids.value(QStringLiteral("change"));

    StreamConfig changed = stream(QStringLiteral("change"), QStringLiteral("/other"));
    c = applyWorkspaceStreams(engine, ids, {stream(QStringLiteral("keep")), changed, stream(QStringLiteral("new"))});
    QCOMPARE(c.added, 1);
    QCOMPARE(c.removed, 1);
    QCOMPARE(c.changed, 1);
    QCOMPARE(c.unchanged, 1);
    QCOMPARE(ids.size(), 3);
    QCOMPARE(ids.value(QStringLiteral("keep")), keep);
    QCOMPARE(ids.value(QStringLiteral("change")), change);
    QVERIFY(!ids.contains(QStringLiteral("drop")));
    QVERIFY(!engine.contains(drop));
    QCOMPARE(engine.config(change).url, changed.url);
    const StreamId fresh = ids.value(QStringLiteral("new"));
    QVERIFY(fresh != keep && fresh != drop && fresh != change);
    QCOMPARE(engine.streamIds(), (QList<StreamId>{keep, change, fresh}));

    // Where a stream's alerts go is not the session's business: a new destination is stored
    // without a reconnect.
    StreamConfig renotified = changed;
    NotifyTarget target;
    target.type = NotifyTarget::Type::Webhook;
    target.url = QStringLiteral("http://127.0.0.1:9/hook");
    renotified.notify = {target};
    c = applyWorkspaceStreams(engine, ids, {stream(QStringLiteral("keep")), renotified, stream(QStringLiteral("new"))});
    QCOMPARE(c.destinations, 1);
    QCOMPARE(c.changed, 0);
    QCOMPARE(c.unchanged, 2);
    QCOMPARE(engine.config(change).notify, renotified.notify);
    QVERIFY(!engine.updateStream(change, changed)); // and back, again without a reconnect
    QVERIFY(engine.config(change).notify.isEmpty());
    StreamConfig moved = changed;
    moved.url = QUrl(QStringLiteral("ws://127.0.0.1:9/elsewhere"));
    QVERIFY(engine.updateStream(change, moved)); // a real change still reconnects
    QVERIFY(engine.updateStream(change, changed));
    // The same configuration again reconnects: Edit → OK restarts a stopped stream, and a
    // secret changed behind the same reference is read again.
    QVERIFY(engine.updateStream(change, engine.config(change)));

    // The same file again changes nothing; an empty one stops everything.
    c = applyWorkspaceStreams(engine, ids, {stream(QStringLiteral("keep")), changed, stream(QStringLiteral("new"))});
    QCOMPARE(c.unchanged, 3);
    QCOMPARE(c.added + c.removed + c.changed, 0);
    c = applyWorkspaceStreams(engine, ids, {});
    QCOMPARE(c.removed, 3);
    QVERIFY(engine.streamIds().isEmpty());
    QVERIFY(ids.isEmpty());
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestWorkspaceReload)
#include "tst_workspacereload.moc"
