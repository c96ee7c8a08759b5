// A recording that cannot write: a folder the user may not write to, and a capture file
// deleted while it is written. Each is a clear error on the stream's record status, counted;
// the stream itself keeps running and counting exactly.
#include "../common/TestRegistry.h"
#include "../common/TimeFactor.h"
#include "../common/Unprivileged.h"
#include "CaptureFile.h"
#include "Engine.h"
#include "ReplayServer.h"

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

using namespace streamscope;
using namespace streamscope::replay;
using streamscope::testing::scaledMs;

namespace {

StreamConfig stream(quint16 port, const QString &query, const QString &dir)
{
    StreamConfig c;
    c.name = QStringLiteral("faulty");
    c.venue = Venue("binance");
    c.url = QUrl(QStringLiteral("ws://127.0.0.1:%1/small_aggtrade?%2").arg(port).arg(query));
    c.stallTimeoutMs = 60000;
    c.record.dir = dir;
    return c;
}

} // namespace

class TestCaptureFaults : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        // On this thread: the waits run its event loop.
        QVERIFY2(m_replay.listen(), qPrintable(m_replay.errorString()));
        m_port = m_replay.port();
    }

    void unwritableFolder()
    {
        QTemporaryDir dir;
        // The temporary folder itself is the owner's only (0700): the user must reach into it.
        QVERIFY(QFile::setPermissions(dir.path(),
                                      QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
                                          | QFileDevice::ReadOther | QFileDevice::ExeOther | QFileDevice::ReadGroup
                                          | QFileDevice::ExeGroup));
        const QString locked = dir.filePath(QStringLiteral("locked"));
        QVERIFY(QDir().mkpath(locked));
        QVERIFY(QFile::setPermissions(locked,
                                      QFileDevice::ReadOwner | QFileDevice::ExeOwner | QFileDevice::ReadOther
                                          | QFileDevice::ExeOther | QFileDevice::ReadGroup | QFileDevice::ExeGroup));
        {
            streamscope::testing::Unprivileged user;
            QVERIFY(user.active());
            Engine engine(Engine::Options{1});
            QSignalSpy events(&engine, &Engine::eventOccurred);
            const StreamId id = engine.addStream(stream(m_port, QStringLiteral("count=3000"), locked));
            QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).record.dropped, quint64(3000), scaledMs(20000));
            const StreamSnapshot s = engine.snapshot(id);
            QCOMPARE(s.messages, quint64(3000));
            QCOMPARE(s.dataMessages, quint64(3000));
            QCOMPARE(s.state, StreamState::Live);
            QVERIFY(s.record.on);
            QCOMPARE(s.record.messages, quint64(0));
            QVERIFY(s.record.errors >= 1);
            QVERIFY2(s.record.error.startsWith(QStringLiteral("cannot create the capture file %1/").arg(locked)),
                     qPrintable(s.record.error));
            QVERIFY2(s.record.error.endsWith(QLatin1String("Permission denied")), qPrintable(s.record.error));
            // and the stream's event log says so
            QTRY_VERIFY_WITH_TIMEOUT(std::any_of(events.begin(), events.end(),
                                                 [&](const QList<QVariant> &args) {
                                                     const auto e = args.at(0).value<StreamEvent>();
                                                     return e.kind == EventKind::Info
                                                         && e.text == QStringLiteral("recording: ") + s.record.error;
                                                 }),
                                     scaledMs(5000));
        }
        QVERIFY(QDir(locked).entryList(QDir::Files).isEmpty());
        QFile::setPermissions(locked, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    }

    // Deleted under the recorder: it says so, starts a new file, and the stream counts on.
    void fileDeletedWhileRecording()
    {
        QTemporaryDir dir;
        Engine engine(Engine::Options{1});
        const StreamId id = engine.addStream(stream(m_port, QStringLiteral("rate=500&loop=1"), dir.path()));
        QTRY_VERIFY_WITH_TIMEOUT(engine.snapshot(id).record.messages > 100, scaledMs(20000));
        const QString first = engine.snapshot(id).record.file;
        QVERIFY(QFile::remove(first));
        QTRY_VERIFY_WITH_TIMEOUT(engine.snapshot(id).record.error.contains(QLatin1String("was deleted")),
                                 scaledMs(10000));
        QTRY_VERIFY_WITH_TIMEOUT(engine.snapshot(id).record.file != first, scaledMs(10000));
        const quint64 before = engine.snapshot(id).messages;
        QTRY_VERIFY_WITH_TIMEOUT(engine.snapshot(id).messages > before + 200, scaledMs(10000));
        const StreamSnapshot s = engine.snapshot(id);
        QCOMPARE(s.state, StreamState::Live);
        QCOMPARE(s.record.errors, quint64(1));
        QCOMPARE(s.record.files, quint64(2));
        QVERIFY(QFileInfo::exists(s.record.file));
        QVERIFY2(s.record.error.contains(first), qPrintable(s.record.error));
    }

private:
    ReplayServer m_replay;
    quint16 m_port = 0;
};

STREAMSCOPE_TEST_GUILESS_MAIN(TestCaptureFaults)
#include "tst_capturefaults.moc"
