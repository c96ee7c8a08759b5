// The built-in demo's workspace, saved, opens again: its secrets are references, its
// certificate outlives the run, and its save note names what a copy cannot do (this run's
// ports). Its depth-diff stream's book syncs against the replay server's REST snapshot, and its
// OKX and Bybit streams measure their clock offset from the replay server's server time.

#include "../common/TestRegistry.h"
#include "../common/TimeFactor.h"

#include "DemoWorkspace.h"
#include "Engine.h"
#include "SecretStore.h"
#include "Workspace.h"

#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtCore/QStandardPaths>
#include <QtCore/QTemporaryDir>
#include <QtTest/QTest>

using namespace streamscope;

class TestDemoWorkspace : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void savedDemoOpensAgain();
    void depthStreamBookSyncs();
    void channelVenuesMeasureServerTime();
};

void TestDemoWorkspace::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // the app's data folder under ~/.qttest
    // As the app names itself: organisation and application alike.
    QCoreApplication::setApplicationName(QStringLiteral("tst_demoworkspace"));
    QCoreApplication::setOrganizationName(QStringLiteral("tst_demoworkspace"));
}

void TestDemoWorkspace::savedDemoOpensAgain()
{
    QString caFile;
    QString note;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("demo.json"));
    {
        app::DemoWorkspace demo;
        QString error;
        QVERIFY2(demo.start(&error), qPrintable(error));
        QVERIFY2(demo.workspace().save(path, &error), qPrintable(error));
        note = demo.saveNote();
        for (const StreamConfig &c : demo.workspace().streams) {
            if (c.venue != Venue("betfair"))
                continue;
            caFile = c.caFile;
            bool ok = false;
            QCOMPARE(SecretStore::resolve(c.appKey, &ok), QStringLiteral("demo-app-key")); // the demo still works
            QVERIFY(ok);
        }
        QCOMPARE(note.count(QStringLiteral("127.0.0.1 (ports ")), 1);
    } // the demo's servers and any temporary folder are gone now, as after the app exits

    Workspace reopened;
    const Workspace::LoadResult r = Workspace::load(path, reopened);
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(reopened.streams.size(), 13);
    for (const char *venue : {"okx", "bybit", "hyperliquid"}) // the channel venues, from their scenarios
        QVERIFY2(std::any_of(reopened.streams.cbegin(), reopened.streams.cend(),
                             [venue](const StreamConfig &c) { return c.venue == Venue(venue); }),
                 venue);
    const auto betfair = std::find_if(reopened.streams.cbegin(), reopened.streams.cend(),
                                      [](const StreamConfig &c) { return c.venue == Venue("betfair"); });
    QVERIFY(betfair != reopened.streams.cend());
    QCOMPARE(betfair->appKey, QStringLiteral("env:STREAMSCOPE_DEMO_APP_KEY"));
    QCOMPARE(betfair->session, QStringLiteral("env:STREAMSCOPE_DEMO_SESSION"));
    QCOMPARE(betfair->caFile, caFile);
    QVERIFY2(!caFile.startsWith(QDir::tempPath()), qPrintable(caFile));
    // The application's folder once, not "tst_demoworkspace/tst_demoworkspace".
    QCOMPARE(QDir::fromNativeSeparators(caFile).count(QStringLiteral("/tst_demoworkspace/")), 1);
    QCOMPARE(QFileInfo(caFile).dir().dirName(), QStringLiteral("tst_demoworkspace"));
    QVERIFY2(note.contains(QDir::toNativeSeparators(caFile)), qPrintable(note));
    QVERIFY2(note.contains(QLatin1String("env:STREAMSCOPE_DEMO_APP_KEY")), qPrintable(note));
}

// The demo's depth diffs keep one coherent book and its replay server answers the REST snapshot
// (replay/DepthSnapshot.h): the book syncs, with levels on both sides, and does not cross.
void TestDemoWorkspace::depthStreamBookSyncs()
{
    app::DemoWorkspace demo;
    QString error;
    QVERIFY2(demo.start(&error), qPrintable(error));
    const auto depth =
        std::find_if(demo.workspace().streams.cbegin(), demo.workspace().streams.cend(),
                     [](const StreamConfig &c) { return c.name == QLatin1String("btcusdt-depth-diff"); });
    QVERIFY(depth != demo.workspace().streams.cend());
    Engine engine;
    const StreamId id = engine.addStream(*depth);
    const auto book = [&engine, id] {
        const QVector<BookStatus> books = engine.snapshot(id).books;
        return books.isEmpty() ? BookStatus() : books.first();
    };
    QTRY_COMPARE_WITH_TIMEOUT(book().state, BookState::Synced, testing::scaledMs(20000));
    const BookStatus b = book();
    QCOMPARE(b.instrument, QStringLiteral("BTCUSDT"));
    QVERIFY2(b.bidLevels > 20 && b.askLevels > 20,
             qPrintable(QStringLiteral("%1 %2").arg(b.bidLevels).arg(b.askLevels)));
    QCOMPARE(b.crossedEpisodes, quint64(0));
    QCOMPARE(b.resyncs, quint64(0));
}

// The demo's OKX and Bybit streams ask their venue's server-time path of the replay server, which
// answers it in the venue's shape: the offset comes from the server time, with no error counted.
void TestDemoWorkspace::channelVenuesMeasureServerTime()
{
    app::DemoWorkspace demo;
    QString error;
    QVERIFY2(demo.start(&error), qPrintable(error));
    Engine engine;
    QList<StreamId> ids;
    for (const StreamConfig &c : demo.workspace().streams) {
        if (c.venue == Venue("okx") || c.venue == Venue("bybit"))
            ids << engine.addStream(c);
    }
    QCOMPARE(ids.size(), 2);
    for (const StreamId id : ids) {
        QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).clock.source, ClockOffsetSource::ServerTime,
                                  testing::scaledMs(20000));
        const ClockEstimate clock = engine.snapshot(id).clock;
        QVERIFY2(clock.serverTimeSamples > 0 && clock.serverTimeErrors == 0,
                 qPrintable(engine.snapshot(id).name + QLatin1String(": ") + clock.serverTimeError));
        QVERIFY(clock.uncertaintyMs > 0);
    }
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestDemoWorkspace)
#include "tst_demoworkspace.moc"
