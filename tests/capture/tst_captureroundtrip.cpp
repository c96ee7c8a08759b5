// Round trip: record a stream from the replay server, serve that capture again as fast as
// possible (CaptureServer, what `streamscope-replay --file --speed max` runs), record the
// replay: both captures hold the same messages in the same order, byte for byte, and the same
// events, the recorded disconnect included. For a websocket and a Betfair-style line stream.
#include "../common/CaptureFiles.h"
#include "../common/TestRegistry.h"
#include "../common/TimeFactor.h"
#include "BuiltinCertificate.h"
#include "CaptureFile.h"
#include "CaptureServer.h"
#include "Engine.h"
#include "ReplayServer.h"

#include <QtCore/QDir>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

using namespace streamscope;
using namespace streamscope::replay;
using streamscope::testing::messagesOf;
using streamscope::testing::onlyFile;
using streamscope::testing::timeFactor;

namespace {

StreamConfig recordingStream(const QString &url, const QString &dir, Venue venue)
{
    StreamConfig c;
    c.name = QStringLiteral("roundtrip");
    c.venue = venue;
    c.url = QUrl(url);
    c.reconnectBaseMs = 20;
    c.reconnectMaxMs = 50;
    c.stallTimeoutMs = 60000;
    c.record.dir = dir;
    return c;
}

// Event names, and for "closed" the code: what a replay must reproduce.
QStringList eventsOf(const CaptureFile &f)
{
    QStringList out;
    for (const auto &e : f.entries()) {
        if (e.kind != CaptureFile::Kind::Event)
            continue;
        QString name = e.event;
        if (name == QLatin1String("closed"))
            name += QStringLiteral(":%1").arg(
                QJsonDocument::fromJson(e.payload).object().value(QStringLiteral("code")).toInt());
        out << name;
    }
    return out;
}

// Records `config` until `done` holds for its snapshot, then ends the recording (the Engine's
// destruction writes out and closes the capture).
template<typename Done>
void record(const StreamConfig &config, Done done)
{
    Engine engine(Engine::Options{1});
    const StreamId id = engine.addStream(config);
    QTRY_VERIFY_WITH_TIMEOUT(done(engine.snapshot(id)), 20000 * timeFactor());
}

} // namespace

class TestCaptureRoundTrip : public QObject {
    Q_OBJECT
private slots:
    void webSocket()
    {
        // The first connection drops after 300 messages (no close frame: 1006), the stream
        // reconnects and receives the 2,000 of the second connection.
        ReplayOptions options;
        options.scenario = QStringLiteral("small_aggtrade");
        // On this thread: the waits below run its event loop (and ThreadSanitizer sees no
        // hand-over through Qt's queue).
        ReplayServer replay(options);
        QVERIFY2(replay.listen(), qPrintable(replay.errorString()));
        const quint16 port = replay.port();
        QTemporaryDir first;
        QTemporaryDir second;
        const QString url =
            QStringLiteral("ws://127.0.0.1:%1/small_aggtrade?count=2000&misbehave=drop&after=300").arg(port);
        quint64 lastMessages = 0;
        int stableTicks = 0;
        record(recordingStream(url, first.path(), Venue("binance")), [&](const StreamSnapshot &s) {
            // Done once the second connection delivered everything and nothing more comes.
            stableTicks = s.messages == lastMessages ? stableTicks + 1 : 0;
            lastMessages = s.messages;
            return s.reconnects == 1 && s.messages >= 2000 && stableTicks >= 5 && s.record.messages == s.messages;
        });
        CaptureFile a;
        QVERIFY2(a.load(onlyFile(first.path())), qPrintable(a.errorString()));
        const QList<QByteArray> recorded = messagesOf(a);
        QVERIFY(recorded.size() >= 2000);
        QVERIFY(eventsOf(a).contains(QStringLiteral("closed:1006")));

        // Serve it again, as fast as possible, and record that.
        CaptureServer::Options serveOptions;
        serveOptions.speed = 0;
        CaptureServer server(serveOptions);
        QVERIFY2(server.open(onlyFile(first.path())), qPrintable(server.errorString()));
        QVERIFY2(server.listen(), qPrintable(server.errorString()));
        const QString replayUrl = QStringLiteral("ws://127.0.0.1:%1/").arg(server.port());
        record(recordingStream(replayUrl, second.path(), Venue("binance")), [&](const StreamSnapshot &s) {
            return s.messages == quint64(recorded.size()) && s.record.messages == s.messages;
        });
        CaptureFile b;
        QVERIFY2(b.load(onlyFile(second.path())), qPrintable(b.errorString()));
        QCOMPARE(messagesOf(b), recorded);
        QCOMPARE(eventsOf(b), eventsOf(a));
        QCOMPARE(eventsOf(a).first(), QStringLiteral("capture"));
        QCOMPARE(a.url(), url);
        QCOMPARE(b.url(), replayUrl);
    }

    void betfairLines()
    {
        ReplayOptions options;
        options.scenario = QStringLiteral("betfair_mcm");
        options.protocol = ReplayOptions::Protocol::Line;
        options.count = 1500;
        // On this thread: the waits below run its event loop (and ThreadSanitizer sees no
        // hand-over through Qt's queue).
        ReplayServer replay(options);
        QVERIFY2(replay.listen(), qPrintable(replay.errorString()));
        const quint16 port = replay.port();
        QTemporaryDir first;
        QTemporaryDir second;
        qputenv("STREAMSCOPE_TEST_APP_KEY", "app-key");
        qputenv("STREAMSCOPE_TEST_SESSION", "session-token");
        StreamConfig config =
            recordingStream(QStringLiteral("tcp://127.0.0.1:%1").arg(port), first.path(), Venue("betfair"));
        config.appKey = QStringLiteral("env:STREAMSCOPE_TEST_APP_KEY");
        config.session = QStringLiteral("env:STREAMSCOPE_TEST_SESSION");
        config.marketSubscription =
            QJsonObject{{QStringLiteral("marketFilter"),
                         QJsonObject{{QStringLiteral("marketIds"), QJsonArray{QStringLiteral("1.2345")}}}}};
        quint64 total = 0;
        record(config, [&](const StreamSnapshot &s) {
            total = s.messages;
            return s.dataMessages + s.heartbeats == 1500 && s.record.messages == s.messages;
        });
        CaptureFile a;
        QVERIFY2(a.load(onlyFile(first.path())), qPrintable(a.errorString()));
        QVERIFY(a.isLineCapture());
        const QList<QByteArray> recorded = messagesOf(a);
        QCOMPARE(quint64(recorded.size()), total);
        QVERIFY(recorded.size() > 1500); // the connection message and the status answers too
        QVERIFY(recorded.first().startsWith(R"({"op":"connection")"));
        QVERIFY(eventsOf(a).contains(QStringLiteral("sent")));
        // The authentication request was sent, but its secrets are not in the capture.
        QFile raw(onlyFile(first.path()));
        QVERIFY(raw.open(QIODevice::ReadOnly));
        QByteArray text;
        bool truncated = true;
        QString error;
        QVERIFY(CaptureFile::decompress(raw.readAll(), &text, &truncated, &error));
        QVERIFY(!truncated);
        QVERIFY(text.contains("authentication"));
        QVERIFY(!text.contains("session-token"));
        QVERIFY(!text.contains("app-key"));

        // Served over TLS this time (the built-in test certificate, trusted by this stream only).
        CaptureServer::Options serveOptions;
        serveOptions.speed = 0;
        serveOptions.tls = true;
        CaptureServer server(serveOptions);
        QVERIFY2(server.open(onlyFile(first.path())), qPrintable(server.errorString()));
        QVERIFY2(server.listen(), qPrintable(server.errorString()));
        QTemporaryDir caDir;
        const QString ca = caDir.filePath(QStringLiteral("ca.pem"));
        QFile caFile(ca);
        QVERIFY(caFile.open(QIODevice::WriteOnly));
        caFile.write(builtinCertificatePem());
        caFile.close();
        config.caFile = ca;
        config.url = QUrl(QStringLiteral("tls://127.0.0.1:%1").arg(server.port()));
        config.record.dir = second.path();
        record(config, [&](const StreamSnapshot &s) {
            return s.messages == quint64(recorded.size()) && s.record.messages == s.messages;
        });
        CaptureFile b;
        QVERIFY2(b.load(onlyFile(second.path())), qPrintable(b.errorString()));
        QCOMPARE(messagesOf(b), recorded);
        QCOMPARE(eventsOf(b), eventsOf(a));
    }
};

STREAMSCOPE_TEST_GUILESS_MAIN(TestCaptureRoundTrip)
#include "tst_captureroundtrip.moc"
