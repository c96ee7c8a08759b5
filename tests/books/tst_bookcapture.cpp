// Books survive capture and replay (docs/capture.md, "Order books"). A live Binance depth stream
// with books (BookVenueServer.h: its websocket and REST snapshot on 127.0.0.1) is recorded while
// its books sync, one crosses and uncrosses, and a real gap forces a resync; its flight
// recorder is saved at the end. Then:
//   - the capture holds each snapshot the books were built from, as book_request and
//     book_snapshot events (the answer as received), after the message that caused them;
//   - the capture opened (CaptureAnalysis, File → Open capture) rebuilds the same books: the
//     same states, resyncs, reasons, crossed episodes and levels as the live report, and the
//     desync at the same message; so does the flight recorder's file;
//   - the capture replayed (CaptureServer, `streamscope-replay --file`) answers a live engine's
//     depth requests from the recorded snapshots: its books sync, and resync at the same gap.
// A venue that sends its snapshots in the stream (Bybit) rebuilds from a capture's messages
// alone. And the events' format alone: written, read back, a body too large left out, what is
// JSON enough to embed.

#include "../common/CaptureFiles.h"
#include "../common/TestRegistry.h"
#include "../common/TimeFactor.h"
#include "BookTestSupport.h"
#include "BookVenueServer.h"

#include "BookEvents.h"
#include "CaptureAnalysis.h"
#include "CaptureFile.h"
#include "CaptureServer.h"
#include "Engine.h"
#include "StreamSnapshot.h"
#include "protocol/MessageDecoder.h"

#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>

#include <QtTest/QtTest>

using namespace streamscope;
using namespace streamscope::testing;

namespace {

const QString kBtc = QStringLiteral("BTCUSDT");
const QString kEth = QStringLiteral("ETHUSDT");

StreamConfig depthStreamAt(const QUrl &url, const QUrl &restUrl)
{
    StreamConfig c;
    c.name = QStringLiteral("depth");
    c.venue = Venue("binance");
    c.url = url;
    c.restUrl = restUrl;
    c.pingIntervalMs = 0;
    return c;
}

// `instrument`'s book in a list of books (a snapshot's, an analysis'); an empty status if none.
BookStatus bookIn(const QVector<BookStatus> &books, const QString &instrument)
{
    for (const BookStatus &b : books)
        if (b.instrument == instrument)
            return b;
    return {};
}

} // namespace

class TestBookCapture : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void captureHoldsTheSnapshots();
    void openedCaptureRebuildsTheBooks_data();
    void openedCaptureRebuildsTheBooks();
    void replayedCaptureSyncsALiveBook();
    void inStreamBooksFromTheMessagesAlone();
    void eventFormat();

private:
    QTemporaryDir m_dir;
    QString m_file;
    QString m_flightFile;
    QVector<BookStatus> m_live; // the live books at the end of the recording
    qint64 m_gapFirstId = 0;    // U of the diff after the gap
};

// The live stream, recorded.
void TestBookCapture::initTestCase()
{
    QVERIFY(m_dir.isValid());
    BookVenueServer venue;
    QVERIFY(venue.listen());
    venue.book(kBtc).id = 5000;
    venue.diff(kBtc, levels({{"27000.10", "1.5"}, {"26999.00", "2"}}), levels({{"27001.00", "0.7"}}));
    venue.diff(kEth, levels({{"1800.00", "10"}}), levels({{"1801.50", "4"}, {"1802.00", "5"}}));
    {
        Engine engine(Engine::Options{1});
        FlightConfig flight;
        flight.enabled = true;
        flight.dir = m_dir.filePath(QStringLiteral("flight"));
        engine.setFlightRecorder(flight);
        StreamConfig config = depthStreamAt(venue.streamUrl({kBtc, kEth}), venue.restUrl());
        config.record.dir = m_dir.filePath(QStringLiteral("record"));
        const StreamId id = engine.addStream(config);
        const auto book = [&](const QString &instrument) { return bookIn(engine.snapshot(id).books, instrument); };
        QTRY_COMPARE_WITH_TIMEOUT(venue.connections(), 1, scaledMs(10000));
        venue.diff(kBtc, levels({{"27000.50", "1"}}), {});
        venue.diff(kEth, {}, levels({{"1801.00", "3"}}));
        QTRY_COMPARE_WITH_TIMEOUT(book(kBtc).state, BookState::Synced, scaledMs(10000));
        QTRY_COMPARE_WITH_TIMEOUT(book(kEth).state, BookState::Synced, scaledMs(10000));
        // ETHUSDT crosses for a moment (a bid above the best ask), then uncrosses.
        venue.diff(kEth, levels({{"1801.20", "1"}}), {});
        venue.diff(kEth, levels({{"1801.20", "0"}}), {});
        QTRY_COMPARE_WITH_TIMEOUT(book(kEth).crossedEpisodes, quint64(1), scaledMs(5000));
        venue.diff(kBtc, levels({{"26999.00", "0"}}), levels({{"27002.00", "1"}}));
        // A real gap in BTCUSDT: its book resyncs from a new snapshot.
        venue.skip(kBtc, 3);
        m_gapFirstId = venue.book(kBtc).id + 1;
        venue.diff(kBtc, levels({{"27000.60", "2"}}), {});
        QTRY_COMPARE_WITH_TIMEOUT(venue.snapshotRequests(kBtc), 2, scaledMs(10000));
        QTRY_COMPARE_WITH_TIMEOUT(book(kBtc).state, BookState::Synced, scaledMs(10000));
        venue.diff(kBtc, {}, levels({{"27003.00", "1"}}));
        venue.diff(kEth, levels({{"1799.50", "7"}}), {});
        QTRY_COMPARE_WITH_TIMEOUT(book(kBtc).askLevels, 3, scaledMs(5000));
        QTRY_COMPARE_WITH_TIMEOUT(book(kEth).bidLevels, 2, scaledMs(5000));
        // Everything received is on disk before the recording ends.
        QTRY_VERIFY_WITH_TIMEOUT(engine.snapshot(id).record.messages == engine.snapshot(id).messages, scaledMs(10000));
        m_live = engine.snapshot(id).books;
        QCOMPARE(bookIn(m_live, kBtc).resyncs, quint64(1));
        // Sealed into a chunk within a second of the last message.
        QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).flight.messagesHeld, engine.snapshot(id).messages,
                                  scaledMs(10000));
        m_flightFile = engine.saveFlightRecording(id);
        QTRY_COMPARE_WITH_TIMEOUT(engine.snapshot(id).flight.savedFiles, quint64(1), scaledMs(10000));
    } // the engine's end closes the capture
    m_file = onlyFile(m_dir.filePath(QStringLiteral("record")));
    QVERIFY(!m_file.isEmpty());
    QVERIFY(QFileInfo::exists(m_flightFile));
}

void TestBookCapture::captureHoldsTheSnapshots()
{
    replay::CaptureFile file;
    QVERIFY2(file.load(m_file), qPrintable(file.errorString()));
    qsizetype gapMessage = -1;
    QList<qsizetype> btcRequests;
    QList<capture::BookSnapshotEvent> btcSnapshots;
    QList<qsizetype> btcSnapshotAt;
    int ethSnapshots = 0;
    const auto &entries = file.entries();
    for (qsizetype i = 0; i < entries.size(); ++i) {
        const replay::CaptureFile::Entry &e = entries[i];
        if (e.kind != replay::CaptureFile::Kind::Event) {
            const QJsonObject data =
                QJsonDocument::fromJson(e.payload).object().value(QStringLiteral("data")).toObject();
            if (data.value(QStringLiteral("s")).toString() == kBtc
                && data.value(QStringLiteral("U")).toInteger() == m_gapFirstId)
                gapMessage = i;
            continue;
        }
        QString instrument;
        bool audit = true;
        if (e.event == QLatin1String("book_request")) {
            QVERIFY(capture::readBookRequest(e.payload, &instrument, &audit));
            QVERIFY(!audit);
            if (instrument == kBtc)
                btcRequests << i;
        } else if (e.event == QLatin1String("book_snapshot")) {
            capture::BookSnapshotEvent s;
            QVERIFY2(capture::readBookSnapshot(e.payload, &s), e.payload.constData());
            QVERIFY(!s.audit);
            QVERIFY2(s.error.isEmpty() && s.omitted.isEmpty(), e.payload.constData());
            // The answer as the venue sent it.
            const QJsonObject body = QJsonDocument::fromJson(s.body).object();
            QCOMPARE(body.value(QStringLiteral("lastUpdateId")).toInteger(), s.lastUpdateId);
            QVERIFY(!body.value(QStringLiteral("bids")).toArray().isEmpty());
            if (s.instrument == kBtc) {
                btcSnapshots << s;
                btcSnapshotAt << i;
            } else {
                ++ethSnapshots;
            }
        }
        QVERIFY2(e.event != QLatin1String("book_reset"), "the books never started over");
    }
    QCOMPARE(btcRequests.size(), 2);
    QCOMPARE(btcSnapshots.size(), 2);
    QCOMPARE(ethSnapshots, 1);
    QVERIFY(btcSnapshots[1].lastUpdateId >= m_gapFirstId);
    // In order: each answer after its request, the resync's after the message that showed the gap.
    QVERIFY(gapMessage > 0);
    QVERIFY(btcRequests[0] < btcSnapshotAt[0]);
    QVERIFY(gapMessage < btcRequests[1]);
    QVERIFY(btcRequests[1] < btcSnapshotAt[1]);
}

void TestBookCapture::openedCaptureRebuildsTheBooks_data()
{
    QTest::addColumn<bool>("flight");
    QTest::newRow("recording") << false;
    QTest::newRow("flight recorder") << true;
}

void TestBookCapture::openedCaptureRebuildsTheBooks()
{
    QFETCH(bool, flight);
    const QString path = flight ? m_flightFile : m_file;
    const CaptureAnalysis a = analyzeCapture(path);
    QVERIFY2(a.ok, qPrintable(a.error));
    QCOMPARE(a.books.size(), 2);
    for (const QString &instrument : {kBtc, kEth}) {
        const BookStatus live = bookIn(m_live, instrument);
        const BookStatus rebuilt = bookIn(a.books, instrument);
        QCOMPARE(rebuilt.instrument, instrument);
        QCOMPARE(rebuilt.state, live.state);
        QCOMPARE(rebuilt.resyncs, live.resyncs);
        QCOMPARE(rebuilt.lastResyncReason, live.lastResyncReason);
        QCOMPARE(rebuilt.crossedEpisodes, live.crossedEpisodes);
        QCOMPARE(rebuilt.bidLevels, live.bidLevels);
        QCOMPARE(rebuilt.askLevels, live.askLevels);
    }
    QCOMPARE(bookIn(a.books, kEth).crossedEpisodes, quint64(1));

    // The desync at the message that showed the gap, at that message's recorded time.
    replay::CaptureFile file;
    QVERIFY(file.load(path));
    qint64 gapIndex = 0;
    qint64 gapTimeUs = 0;
    qint64 messages = 0;
    for (const replay::CaptureFile::Entry &e : file.entries()) {
        if (e.kind == replay::CaptureFile::Kind::Event)
            continue;
        ++messages;
        const QJsonObject data = QJsonDocument::fromJson(e.payload).object().value(QStringLiteral("data")).toObject();
        if (data.value(QStringLiteral("s")).toString() == kBtc
            && data.value(QStringLiteral("U")).toInteger() == m_gapFirstId) {
            gapIndex = messages;
            gapTimeUs = e.timeUs;
        }
    }
    QVERIFY(gapIndex > 0);
    QList<CaptureEvent> desyncs;
    for (const CaptureEvent &e : a.events)
        if (e.name == QLatin1String("book_desync"))
            desyncs << e;
    QCOMPARE(desyncs.size(), 1);
    const QJsonObject o = QJsonDocument::fromJson(desyncs[0].json).object();
    QCOMPARE(o.value(QStringLiteral("message")).toInteger(), gapIndex);
    QCOMPARE(desyncs[0].timeUs, gapTimeUs);
    QCOMPARE(o.value(QStringLiteral("text")).toString(),
             QStringLiteral("book BTCUSDT lost sync, resyncing: ") + bookIn(m_live, kBtc).lastResyncReason);
    // The snapshot events are in the log without their bodies.
    bool sawSnapshot = false;
    for (const CaptureEvent &e : a.events) {
        if (e.name != QLatin1String("book_snapshot"))
            continue;
        sawSnapshot = true;
        QVERIFY2(!e.json.contains("\"body\""), e.json.constData());
        QVERIFY(e.json.contains("last_update_id"));
    }
    QVERIFY(sawSnapshot);
}

void TestBookCapture::replayedCaptureSyncsALiveBook()
{
    replay::CaptureServer::Options options;
    options.speed = 1.0; // the recorded pace: each answer comes where the recording got it
    replay::CaptureServer server(options);
    QVERIFY2(server.open(m_file), qPrintable(server.errorString()));
    QVERIFY2(server.listen(), qPrintable(server.errorString()));
    const QUrl url(
        QStringLiteral("ws://127.0.0.1:%1/stream?streams=btcusdt@depth@100ms/ethusdt@depth@100ms").arg(server.port()));
    const QUrl rest(QStringLiteral("http://127.0.0.1:%1").arg(server.port()));
    Engine engine(Engine::Options{1});
    const StreamId id = engine.addStream(depthStreamAt(url, rest));
    const auto book = [&](const QString &instrument) { return bookIn(engine.snapshot(id).books, instrument); };
    const BookStatus liveBtc = bookIn(m_live, kBtc);
    const BookStatus liveEth = bookIn(m_live, kEth);
    // Both books sync from the recorded snapshots; BTCUSDT loses sync at the recorded gap and
    // syncs again from the recorded resync's snapshot.
    QTRY_COMPARE_WITH_TIMEOUT(book(kBtc).resyncs, quint64(1), scaledMs(30000));
    QTRY_COMPARE_WITH_TIMEOUT(book(kBtc).askLevels, liveBtc.askLevels, scaledMs(30000));
    QTRY_COMPARE_WITH_TIMEOUT(book(kEth).bidLevels, liveEth.bidLevels, scaledMs(30000));
    const BookStatus btc = book(kBtc);
    QCOMPARE(btc.state, BookState::Synced);
    QCOMPARE(btc.bidLevels, liveBtc.bidLevels);
    QCOMPARE(btc.lastResyncReason, liveBtc.lastResyncReason);
    const BookStatus eth = book(kEth);
    QCOMPARE(eth.state, BookState::Synced);
    QCOMPARE(eth.askLevels, liveEth.askLevels);
    QCOMPARE(eth.resyncs, quint64(0));
    QCOMPARE(eth.crossedEpisodes, quint64(1));
    QCOMPARE(server.depthAnswers(), quint64(3));
}

// A Bybit capture written here: a snapshot, a delta, a real gap (u 101 then 103), a delta of the
// old subscription, the snapshot the resubscribe brought.
void TestBookCapture::inStreamBooksFromTheMessagesAlone()
{
    const auto message = [](const char *type, qint64 u, const char *bids) {
        return QStringLiteral(R"({"topic":"orderbook.50.BTCUSDT","type":"%1","ts":1780000000000,)"
                              R"("data":{"s":"BTCUSDT","b":%2,"a":[["16611.00","0.029"]],"u":%3,"seq":%4}})")
            .arg(QLatin1String(type), QLatin1String(bids))
            .arg(u)
            .arg(u + 7000000)
            .toUtf8();
    };
    const QList<QByteArray> messages{
        message("snapshot", 100, R"([["16493.50","0.006"],["16493.00","0.100"]])"),
        message("delta", 101, R"([["16490.00","1"]])"),
        message("delta", 103, R"([["16491.00","1"]])"),
        message("delta", 104, R"([["16492.00","1"]])"),
        message("snapshot", 200, R"([["16480.00","2"]])"),
    };
    const QString path = m_dir.filePath(QStringLiteral("bybit.ndjson"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("2026-12-02T19:00:00.000000Z#{\"event\":\"capture\",\"format\":1,\"mode\":\"parsed\","
            "\"stream\":\"bybit\",\"url\":\"wss://stream.bybit.com/v5/public/spot\",\"venue\":\"bybit\"}\n");
    for (int i = 0; i < messages.size(); ++i)
        f.write(QStringLiteral("2026-12-02T19:00:0%1.000000Z ").arg(i + 1).toLatin1() + messages[i] + '\n');
    f.close();

    const CaptureAnalysis a = analyzeCapture(path);
    QVERIFY2(a.ok, qPrintable(a.error));
    QCOMPARE(a.books.size(), 1);
    const BookStatus b = a.books[0];
    QCOMPARE(b.instrument, QStringLiteral("BTCUSDT"));
    QCOMPARE(b.state, BookState::Synced);
    QCOMPARE(b.resyncs, quint64(1));
    QVERIFY2(b.lastResyncReason.contains(QStringLiteral("103")), qPrintable(b.lastResyncReason));
    QCOMPARE(b.bidLevels, 1); // the last snapshot's
    int desyncs = 0;
    for (const CaptureEvent &e : a.events) {
        if (e.name != QLatin1String("book_desync"))
            continue;
        ++desyncs;
        QCOMPARE(QJsonDocument::fromJson(e.json).object().value(QStringLiteral("message")).toInteger(), 3);
    }
    QCOMPARE(desyncs, 1);
}

void TestBookCapture::eventFormat()
{
    capture::BookSnapshotEvent e;
    e.instrument = kBtc;
    e.lastUpdateId = 1234567890123;
    // Pretty-printed by a venue: its line breaks become spaces, the line stays one line.
    e.body = "{\"lastUpdateId\":1234567890123,\n\"bids\":[[\"1.00\",\"2\"]],\r\n\"asks\":[]}";
    const QByteArray json = capture::bookSnapshotJson(e, 1024);
    QVERIFY2(capture::isEventNamed(json, capture::kBookSnapshotEvent), json.constData());
    QVERIFY(!json.contains('\n') && !json.contains('\r'));
    QVERIFY2(!QJsonDocument::fromJson(json).isNull(), json.constData()); // jq reads it
    capture::BookSnapshotEvent back;
    QVERIFY(capture::readBookSnapshot(json, &back));
    QCOMPARE(back.instrument, kBtc);
    QCOMPARE(back.lastUpdateId, e.lastUpdateId);
    QVERIFY(!back.audit);
    QCOMPARE(back.body, QByteArray("{\"lastUpdateId\":1234567890123, \"bids\":[[\"1.00\",\"2\"]],  \"asks\":[]}"));
    QCOMPARE(capture::withoutBody(json),
             QByteArray(R"({"event":"book_snapshot","instrument":"BTCUSDT","last_update_id":1234567890123,)"
                        R"("purpose":"sync"})"));

    // Too large for an event: no body, and why.
    e.body = QByteArray(2000, ' ').prepend("{").append("}");
    QVERIFY(capture::readBookSnapshot(capture::bookSnapshotJson(e, 1024), &back));
    QVERIFY(back.body.isEmpty());
    QVERIFY(!back.omitted.isEmpty());
    QCOMPARE(back.bodyBytes, qint64(2002));
    // What the writer (BookKeeper) embeds: one JSON object, every byte of it valid.
    ReceiveBuffer buffer;
    const auto isObject = [&buffer](const QByteArray &text) {
        return MessageDecoder::isJsonObject(buffer.copy(text.constData(), text.size()));
    };
    QVERIFY(isObject("{\"lastUpdateId\":1,\n \"bids\":[[\"1.00\",\"2\"]],\"asks\":[]}\r\n"));
    for (const char *bad : {"{\"a\":tru}", "{\"a\":1} x", "[1]", "{\"a\":\"\x01\"}", "{\"a\":1", ""})
        QVERIFY2(!isObject(bad), bad);
    e.body.clear();
    e.error = QStringLiteral("HTTP status 500: busy");
    e.audit = true;
    QVERIFY(capture::readBookSnapshot(capture::bookSnapshotJson(e, 1024), &back));
    QCOMPARE(back.error, e.error);
    QVERIFY(back.audit);

    // What a hostile file may hold instead: read as nothing, or as a snapshot without a body.
    for (const QByteArray &bad : {QByteArray(R"({"event":"book_snapshot")"), QByteArray(R"({"event":"book_snapshot"})"),
                                  QByteArray(R"({"event":"book_snapshot","instrument":"X","body":)"),
                                  QByteArray(R"({"event":"book_snapshot","body":{}})"), QByteArray("{,\"body\":}")})
        QVERIFY2(!capture::readBookSnapshot(bad, &back), bad.constData());
    QVERIFY(capture::readBookSnapshot(R"({"event":"book_snapshot","instrument":"X","body":})", &back));
    QVERIFY(back.body.isEmpty());
    QVERIFY(!back.omitted.isEmpty());

    QString instrument;
    bool audit = false;
    QVERIFY(capture::readBookRequest(capture::bookRequestJson(kEth, true), &instrument, &audit));
    QCOMPARE(instrument, kEth);
    QVERIFY(audit);
    QVERIFY(!capture::readBookRequest(capture::bookSnapshotJson(e, 1024), &instrument, &audit));
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestBookCapture)
#include "tst_bookcapture.moc"
