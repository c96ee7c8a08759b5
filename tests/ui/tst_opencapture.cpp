// File → Open capture: a capture shown as an offline row (messages, histogram, rate over its
// own span, events, order books rebuilt), the errors of a bad capture, and the row's record button.
#include "../common/TestRegistry.h"
#include "../common/TimeFactor.h"
#include "CaptureController.h"
#include "CaptureList.h"
#include "Engine.h"
#include "EventLogModel.h"
#include "InspectorModel.h"
#include "LatencyChart.h"
#include "MainWindow.h"
#include "MessageInspector.h"
#include "RateChart.h"
#include "StreamActionDelegate.h"
#include "StreamTableModel.h"

#include <QtCore/QDateTime>
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QSortFilterProxyModel>
#include <QtCore/QTemporaryDir>
#include <QtCore/QTimer>
#include <QtGui/QAction>
#include <QtTest/QAbstractItemModelTester>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>
#include <QtWebSockets/QWebSocket>
#include <QtWebSockets/QWebSocketServer>
#include <QtWidgets/QApplication>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QMessageBox>
#include <QtWidgets/QStatusBar>
#include <QtWidgets/QTableView>

#include <zstd.h>

using namespace streamscope;
using namespace streamscope::ui;
using streamscope::testing::scaledMs;

namespace {

constexpr qint64 kT0 = 1'764'590'400'000'000; // 2025-12-01T12:00:00Z in µs

QByteArray timeText(qint64 us)
{
    return QDateTime::fromMSecsSinceEpoch(us / 1000, Qt::UTC)
               .toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss."))
               .toLatin1()
        + QByteArray::number(us % 1'000'000).rightJustified(6, '0') + 'Z';
}

QByteArray eventLine(qint64 us, const QByteArray &json)
{
    return timeText(us) + '#' + json + '\n';
}

// A Binance aggTrade capture as docs/capture.md describes it: `count` messages 10 ms apart,
// the first half 5 ms late, the others 50 ms; odd ones ETHUSDT; a gap event in the middle,
// then a close and a reconnect.
QList<QByteArray> binanceCapture(int count)
{
    QList<QByteArray> lines;
    lines << eventLine(kT0,
                       QByteArrayLiteral("{\"event\":\"capture\",\"compressed\":true,\"file_index\":0,\"format\":1,"
                                         "\"host_clock\":\"unknown\",\"mode\":\"parsed\",\"stream\":\"btc-trades\","
                                         "\"url\":\"wss://stream.binance.com:9443/ws/btcusdt@aggTrade\","
                                         "\"venue\":\"binance\",\"version\":\"0.9.0\"}"));
    lines << eventLine(kT0 + 1000,
                       QByteArrayLiteral("{\"event\":\"connected\",\"rollover\":false,\"shard\":0,"
                                         "\"url\":\"wss://stream.binance.com:9443/ws/btcusdt@aggTrade\"}"));
    for (int i = 0; i < count; ++i) {
        const qint64 at = kT0 + 10'000 + qint64(i) * 10'000;
        const qint64 eventMs = at / 1000 - (i < count / 2 ? 5 : 50);
        const QByteArray symbol = i % 2 ? "ETHUSDT" : "BTCUSDT";
        lines << timeText(at) + ' ' + "{\"e\":\"aggTrade\",\"E\":" + QByteArray::number(eventMs) + ",\"s\":\"" + symbol
                + "\",\"a\":" + QByteArray::number(i) + ",\"p\":\"97000.10\",\"q\":\"0.5\"}\n";
        if (i == count / 2)
            lines << eventLine(at + 1,
                               QByteArrayLiteral("{\"event\":\"gap\",\"text\":\"BTCUSDT: 3 updates missing\"}"));
    }
    const qint64 end = kT0 + 10'000 + qint64(count) * 10'000;
    lines << eventLine(end,
                       QByteArrayLiteral("{\"event\":\"closed\",\"code\":1001,\"reason\":\"going away\",\"shard\":0}"));
    lines << eventLine(end + 500,
                       QByteArrayLiteral("{\"event\":\"reconnect\",\"attempt\":1,\"delay_ms\":500,"
                                         "\"reason\":\"server closed (1001)\"}"));
    return lines;
}

// zstd with a block ended every `linesPerBlock` lines, as the recorder flushes.
QByteArray compress(const QList<QByteArray> &lines, int linesPerBlock = 50)
{
    ZSTD_CCtx *ctx = ZSTD_createCCtx();
    QByteArray out;
    QByteArray buffer(int(ZSTD_CStreamOutSize()), Qt::Uninitialized);
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const bool last = i + 1 == lines.size();
        const ZSTD_EndDirective mode = last ? ZSTD_e_end
            : (i + 1) % linesPerBlock == 0  ? ZSTD_e_flush
                                            : ZSTD_e_continue;
        ZSTD_inBuffer in{lines[i].constData(), std::size_t(lines[i].size()), 0};
        std::size_t left = 0;
        do {
            ZSTD_outBuffer o{buffer.data(), std::size_t(buffer.size()), 0};
            left = ZSTD_compressStream2(ctx, &o, &in, mode);
            out.append(buffer.constData(), qsizetype(o.pos));
        } while (in.pos < in.size || (mode != ZSTD_e_continue && left != 0));
    }
    ZSTD_freeCCtx(ctx);
    return out;
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// A websocket server on 127.0.0.1 sending {"ts":<now ms>,"seq":N} every 10 ms.
class FeedServer : public QObject {
public:
    FeedServer()
        : m_server(QStringLiteral("feed"), QWebSocketServer::NonSecureMode)
    {
        m_ok = m_server.listen(QHostAddress::LocalHost, 0);
        connect(&m_server, &QWebSocketServer::newConnection, this, [this] {
            while (QWebSocket *s = m_server.nextPendingConnection()) {
                m_clients.append(s);
                connect(s, &QWebSocket::disconnected, this, [this, s] {
                    m_clients.removeOne(s);
                    s->deleteLater();
                });
            }
        });
        connect(&m_timer, &QTimer::timeout, this, [this] {
            const QString msg =
                QStringLiteral("{\"ts\":%1,\"seq\":%2}").arg(QDateTime::currentMSecsSinceEpoch()).arg(++m_seq);
            for (QWebSocket *s : std::as_const(m_clients))
                s->sendTextMessage(msg);
        });
        m_timer.start(10);
    }
    ~FeedServer() override
    {
        m_timer.stop();
        for (QWebSocket *s : std::as_const(m_clients)) {
            s->disconnect(this);
            delete s;
        }
        m_server.close();
    }
    bool ok() const { return m_ok; }
    QUrl url() const { return QUrl(QStringLiteral("ws://127.0.0.1:%1/feed").arg(m_server.serverPort())); }

private:
    QWebSocketServer m_server;
    QList<QWebSocket *> m_clients;
    QTimer m_timer;
    int m_seq = 0;
    bool m_ok = false;
};

} // namespace

class tst_OpenCapture : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void opensACaptureAsAnOfflineRow();
    void aCapturesBooksInItsRow();
    void keepsTheInspectorsCap();
    void truncatedAndMalformedCaptures();
    void recordButtonThenOpenTheRecording();

private:
    // Opens `path` the way File → Open capture does, with the file name injected; waits until
    // it is read (a row, or an error).
    static void openThroughAction(MainWindow &w, const QString &path)
    {
        w.capture()->setFileChooser([path] { return path; });
        QAction *open = w.findChild<QAction *>(QStringLiteral("openCapture"));
        QVERIFY(open);
        QVERIFY(open->isEnabled());
        open->trigger();
    }
    static QList<const EventLogModel::Entry *> eventsOf(MainWindow &w, const QString &stream)
    {
        QList<const EventLogModel::Entry *> out;
        for (int r = 0; r < w.eventLog()->rowCount(); ++r)
            if (const EventLogModel::Entry *e = w.eventLog()->entryAt(r); e && e->stream == stream)
                out << e;
        return out;
    }
    static QString cell(MainWindow &w, StreamId id, int column)
    {
        return w.streamModel()->index(w.streamModel()->rowOf(id), column).data().toString();
    }
    QTemporaryDir m_dir;
};

void tst_OpenCapture::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("StreamScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_opencapture"));
    QVERIFY(m_dir.isValid());
}

void tst_OpenCapture::opensACaptureAsAnOfflineRow()
{
    const QString path = m_dir.filePath(QStringLiteral("btc-trades-20251201T120000Z.ndjson.zst"));
    QVERIFY(writeFile(path, compress(binanceCapture(200))));

    Engine engine;
    MainWindow w(&engine);
    QAbstractItemModelTester tester(w.streamModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QSignalSpy progress(w.captures(), &CaptureList::progress);
    openThroughAction(w, path);
    QTRY_COMPARE_WITH_TIMEOUT(w.captures()->captures().size(), 1, scaledMs(10000));
    const StreamId id = w.captures()->captures().first().id;
    QVERIFY(isCaptureStream(id));
    // Read on a worker thread, with progress up to 100 %.
    QVERIFY(!progress.isEmpty());
    QCOMPARE(progress.last().at(1).toInt(), 100);
    QVERIFY(!engine.contains(id));

    // The row: its name, the state "capture", its counts and the capture's own figures.
    const int row = w.streamModel()->rowOf(id);
    QVERIFY(row >= 0);
    QCOMPARE(cell(w, id, StreamTableModel::ColName), QStringLiteral("btc-trades (capture)"));
    QCOMPARE(cell(w, id, StreamTableModel::ColState), QStringLiteral("capture"));
    QCOMPARE(cell(w, id, StreamTableModel::ColMessages), QStringLiteral("200"));
    const StreamTableModel::Row *r = w.streamModel()->row(id);
    QVERIFY(r->offline);
    // 200 messages over the 2.01 s from the header to the close... the span of the capture's lines.
    QVERIFY2(r->msgsPerSec > 90 && r->msgsPerSec < 100, qPrintable(QString::number(r->msgsPerSec)));
    // Half 5 ms late, half 50 ms: p50 in the 5 ms bucket, p99 in the 50 ms one.
    QVERIFY2(r->p50Ms >= 4.9 && r->p50Ms <= 5.2, qPrintable(QString::number(r->p50Ms)));
    QVERIFY2(r->p99Ms >= 49 && r->p99Ms <= 52, qPrintable(QString::number(r->p99Ms)));
    QCOMPARE(r->snap.gaps, quint64(1));
    QCOMPARE(r->snap.reconnects, quint64(1));
    // A refresh later the figures hold (not a rate fading to zero).
    w.refreshNow(true);
    QVERIFY(w.streamModel()->row(id)->msgsPerSec > 90);
    QVERIFY(w.streamModel()->row(id)->p99Ms >= 49);
    QCOMPARE(w.streamModel()->index(row, 0).data(StreamTableModel::OfflineRole).toBool(), true);

    // Read-only: no row buttons, nothing for Stop/Restart/Remove/Record to act on.
    QTableView *table = w.streamTable();
    const QModelIndex actions =
        w.streamProxy()->mapFromSource(w.streamModel()->index(row, StreamTableModel::ColActions));
    const QRect actionCell = table->visualRect(actions);
    for (int b = 0; b < StreamActionDelegate::kButtonCount; ++b)
        QCOMPARE(StreamActionDelegate::actionAt(actionCell, StreamActionDelegate::buttonRect(actionCell, b).center(),
                                                actions),
                 StreamActionDelegate::Action::None);
    w.selectStream(id);
    QVERIFY(w.selectedStreams().isEmpty());
    QCOMPARE(w.selectedRows(), QList<StreamId>{id});
    QVERIFY(w.capture()->closeAction()->isEnabled());

    // The inspector: its messages, with the filter.
    MessageInspector *inspector = w.inspector();
    QCOMPARE(inspector->stream(), id);
    QCOMPARE(inspector->model()->rowCount(), 200);
    const InspectorModel::Entry *first = inspector->model()->entryAt(0);
    QVERIFY(first->text.contains("\"a\":0,"));
    QCOMPARE(first->receivedMs, (kT0 + 10'000) / 1000);
    QCOMPARE(first->latencyMs, 5.0);
    inspector->filterEdit()->setText(QStringLiteral("ETHUSDT"));
    QTRY_COMPARE(inspector->model()->rowCount(), 100);
    inspector->filterEdit()->clear();
    QTRY_COMPARE(inspector->model()->rowCount(), 200);

    // The histogram: every message, 100 of them at 5 ms and 100 at 50 ms.
    LatencyChart *latency = w.latencyChart();
    QCOMPARE(latency->stream(), id);
    QVERIFY(latency->isFixed());
    const LatencySnapshot shown = latency->shown();
    QCOMPARE(shown.count, quint64(200));
    quint64 fast = 0;
    for (int i = 0; i < shown.buckets.size(); ++i)
        fast += LatencyBuckets::upperUs(i) <= 10'000 ? shown.buckets[i] : 0;
    QCOMPARE(fast, quint64(100));
    w.refreshNow(true); // the once-a-second push leaves it alone
    QCOMPARE(latency->shown().count, quint64(200));

    // The rate chart over the capture's own span.
    QVERIFY(w.rateChart()->isOffline());
    auto *title = w.rateChart()->findChild<QLabel *>(QStringLiteral("rateChartTitle"));
    QVERIFY(title && title->text().contains(QLatin1String("capture")));

    // The events, at their recorded times.
    const QList<const EventLogModel::Entry *> events = eventsOf(w, QStringLiteral("btc-trades (capture)"));
    QStringList kinds;
    for (const EventLogModel::Entry *e : events)
        kinds << e->kind;
    QVERIFY2(kinds.contains(QLatin1String("connected")) && kinds.contains(QLatin1String("gap"))
                 && kinds.contains(QLatin1String("closed")) && kinds.contains(QLatin1String("reconnect")),
             qPrintable(kinds.join(QLatin1Char(','))));
    for (const EventLogModel::Entry *e : events) {
        if (e->kind == QLatin1String("gap")) {
            QCOMPARE(e->timeMs, (kT0 + 10'000 + 100 * 10'000 + 1) / 1000);
            QVERIFY(e->text.contains(QLatin1String("3 updates missing")));
            QCOMPARE(e->severity, EventLogModel::Severity::Warning);
        }
        if (e->kind == QLatin1String("closed"))
            QVERIFY2(e->text.contains(QLatin1String("1001")) && e->text.contains(QLatin1String("going away")),
                     qPrintable(e->text));
    }

    // Two captures beside each other, then closing one.
    openThroughAction(w, path);
    QTRY_COMPARE_WITH_TIMEOUT(w.captures()->captures().size(), 2, scaledMs(10000));
    const StreamId second = w.captures()->captures().last().id;
    QVERIFY(second != id && isCaptureStream(second));
    QVERIFY(w.streamModel()->rowOf(second) >= 0);
    w.selectStream(id);
    w.capture()->closeAction()->trigger();
    QCOMPARE(w.streamModel()->rowOf(id), -1);
    QVERIFY(w.streamModel()->rowOf(second) >= 0);
    QVERIFY(w.capture()->close(second));
    QCOMPARE(w.streamModel()->rowCount(), 0);
    QVERIFY(!w.capture()->close(second));
}

// A Bybit depth capture (its snapshots in the stream): a snapshot, a delta, a real gap, the
// snapshot the resubscribe brought. The row's Book column shows the rebuilt book, and the event
// log its loss of sync, as a warning at the message that showed it.
void tst_OpenCapture::aCapturesBooksInItsRow()
{
    const auto message = [](const char *type, qint64 u, const char *bids) {
        return QStringLiteral(R"({"topic":"orderbook.50.BTCUSDT","type":"%1","ts":1764590400000,)"
                              R"("data":{"s":"BTCUSDT","b":%2,"a":[["16611.00","0.029"]],"u":%3,"seq":%4}})")
            .arg(QLatin1String(type), QLatin1String(bids))
            .arg(u)
            .arg(u + 7000000)
            .toUtf8();
    };
    QByteArray text = eventLine(kT0,
                                R"({"event":"capture","format":1,"mode":"parsed","stream":"bybit-books",)"
                                R"("url":"wss://stream.bybit.com/v5/public/spot","venue":"bybit"})");
    const QList<QByteArray> messages{
        message("snapshot", 100, R"([["16493.50","0.006"]])"), message("delta", 101, R"([["16490.00","1"]])"),
        message("delta", 103, R"([["16491.00","1"]])"), message("snapshot", 200, R"([["16480.00","2"]])")};
    for (int i = 0; i < messages.size(); ++i)
        text += timeText(kT0 + (i + 1) * 1'000'000) + ' ' + messages[i] + '\n';
    const QString path = m_dir.filePath(QStringLiteral("bybit-books.ndjson"));
    QVERIFY(writeFile(path, text));

    Engine engine;
    MainWindow w(&engine);
    openThroughAction(w, path);
    QTRY_COMPARE_WITH_TIMEOUT(w.captures()->captures().size(), 1, scaledMs(10000));
    const StreamId id = w.captures()->captures().first().id;
    QCOMPARE(cell(w, id, StreamTableModel::ColBook), QStringLiteral("synced 1/1"));
    QCOMPARE(w.streamModel()->row(id)->snap.books.first().resyncs, quint64(1));
    bool sawDesync = false;
    for (const EventLogModel::Entry *e : eventsOf(w, QStringLiteral("bybit-books (capture)"))) {
        if (e->kind != QLatin1String("book_desync"))
            continue;
        sawDesync = true;
        QCOMPARE(e->severity, EventLogModel::Severity::Warning);
        QCOMPARE(e->timeMs, (kT0 + 3'000'000) / 1000);
        QVERIFY2(e->text.contains(QLatin1String("message: 3")), qPrintable(e->text));
    }
    QVERIFY(sawDesync);
}

void tst_OpenCapture::keepsTheInspectorsCap()
{
    // 6000 messages, plain text: the inspector keeps its usual 5000 and says what it left out.
    const QList<QByteArray> lines = binanceCapture(6000);
    const QString path = m_dir.filePath(QStringLiteral("big.ndjson"));
    QVERIFY(writeFile(path, lines.join()));
    Engine engine;
    MainWindow w(&engine);
    w.show();
    openThroughAction(w, path);
    QTRY_COMPARE_WITH_TIMEOUT(w.captures()->captures().size(), 1, scaledMs(20000));
    const StreamId id = w.captures()->captures().first().id;
    QCOMPARE(cell(w, id, StreamTableModel::ColMessages), QStringLiteral("6000"));
    w.selectStream(id);
    QCOMPARE(w.inspector()->model()->storedCount(), InspectorModel::kDefaultCapacity);
    QVERIFY(w.inspector()->model()->entryAt(0)->text.contains("\"a\":1000,")); // the last 5000
    bool said = false;
    for (QLabel *l : w.inspector()->findChildren<QLabel *>())
        said = said || l->text().contains(QLatin1String("first 1000 messages of the capture are left out"));
    QVERIFY(said);
    QCOMPARE(w.latencyChart()->shown().count, quint64(6000)); // the histogram has them all
}

void tst_OpenCapture::truncatedAndMalformedCaptures()
{
    Engine engine;
    MainWindow w(&engine);
    w.show();

    // Cut short (a recording killed with -9): read up to its last complete block, and said so.
    const QByteArray whole = compress(binanceCapture(400), 50);
    const QString cut = m_dir.filePath(QStringLiteral("cut.ndjson.zst"));
    QVERIFY(writeFile(cut, whole.left(whole.size() * 2 / 3)));
    openThroughAction(w, cut);
    QTRY_COMPARE_WITH_TIMEOUT(w.captures()->captures().size(), 1, scaledMs(10000));
    const CaptureList::Capture cutCapture = w.captures()->captures().first();
    QVERIFY(cutCapture.data->truncated);
    QVERIFY(cutCapture.data->messages > 50 && cutCapture.data->messages < 400);
    const QString tip = w.streamModel()
                            ->index(w.streamModel()->rowOf(cutCapture.id), StreamTableModel::ColState)
                            .data(Qt::ToolTipRole)
                            .toString();
    QVERIFY2(tip.contains(QLatin1String("cut short")), qPrintable(tip));
    QVERIFY(w.inspector()->model()->rowCount() == int(cutCapture.data->messages));

    // Malformed lines among good ones: skipped, counted and shown.
    QList<QByteArray> lines = binanceCapture(20);
    lines.insert(5, QByteArrayLiteral("not a capture line\n"));
    lines.insert(9, timeText(kT0 + 50'000) + "=***not base64***\n");
    lines.insert(12, timeText(kT0 + 60'000) + "!what\n");
    const QString bad = m_dir.filePath(QStringLiteral("bad.ndjson"));
    QVERIFY(writeFile(bad, lines.join()));
    openThroughAction(w, bad);
    QTRY_COMPARE_WITH_TIMEOUT(w.captures()->captures().size(), 2, scaledMs(10000));
    const CaptureList::Capture badCapture = w.captures()->captures().last();
    QCOMPARE(badCapture.data->malformedLines, quint64(3));
    QCOMPARE(badCapture.data->messages, quint64(20)); // the bad lines were added, none replaced
    const QList<const EventLogModel::Entry *> events = eventsOf(w, badCapture.snap.name);
    bool noted = false;
    for (const EventLogModel::Entry *e : events)
        noted = noted || (e->kind == QLatin1String("capture") && e->text.contains(QLatin1String("3 malformed lines")));
    QVERIFY(noted);

    // Not a capture at all, a corrupt zstd file, a file that is not there: a clear error, no row.
    const QString text = m_dir.filePath(QStringLiteral("notes.txt"));
    QVERIFY(writeFile(text, "hello\nworld\n"));
    const QString corrupt = m_dir.filePath(QStringLiteral("corrupt.ndjson.zst"));
    QByteArray junk = whole.left(4);
    junk += QByteArray(4096, '\x7f');
    QVERIFY(writeFile(corrupt, junk));
    const QString missing = m_dir.filePath(QStringLiteral("missing.ndjson.zst"));
    for (const QString &p : {text, corrupt, missing}) {
        const QString before = w.capture()->lastError();
        openThroughAction(w, p);
        QTRY_VERIFY_WITH_TIMEOUT(w.capture()->lastError() != before, scaledMs(10000));
        QVERIFY2(w.capture()->lastError().contains(QFileInfo(p).fileName()), qPrintable(w.capture()->lastError()));
        QCOMPARE(w.captures()->captures().size(), 2);
        QCOMPARE(w.streamModel()->rowCount(), 2);
    }
    QVERIFY2(w.capture()->lastError().contains(QLatin1String("No such file")), qPrintable(w.capture()->lastError()));
    // The error box is not modal: the window goes on.
    const auto boxes = w.findChildren<QMessageBox *>(QStringLiteral("captureError"));
    QVERIFY(!boxes.isEmpty());
    QVERIFY(!boxes.first()->isModal() || boxes.first()->windowModality() == Qt::WindowModal);
}

void tst_OpenCapture::recordButtonThenOpenTheRecording()
{
    FeedServer server;
    QVERIFY(server.ok());
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    Engine engine;
    MainWindow w(&engine);
    w.capture()->setRecordingFolder(dir.filePath(QStringLiteral("captures")));
    Workspace ws;
    StreamConfig c;
    c.name = QStringLiteral("feed");
    c.venue = Venue::Generic;
    c.url = server.url();
    c.latencyField = QStringLiteral("/ts");
    c.latencyUnit = LatencyUnit::Milliseconds;
    ws.streams = {c};
    w.setWorkspace(ws, QString());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const StreamId id = engine.streamIds().first();
    QTRY_VERIFY_WITH_TIMEOUT(engine.snapshot(id).state == StreamState::Live, scaledMs(10000));
    w.refreshNow(false);

    const auto clickRecord = [&w, id] {
        QTableView *table = w.streamTable();
        const QModelIndex index = w.streamProxy()->mapFromSource(
            w.streamModel()->index(w.streamModel()->rowOf(id), StreamTableModel::ColActions));
        const QRect cell = table->visualRect(index);
        QVERIFY(cell.isValid());
        const QPoint pos = StreamActionDelegate::buttonRect(cell, StreamActionDelegate::kRecordButton).center();
        QCOMPARE(StreamActionDelegate::actionAt(cell, pos, index), StreamActionDelegate::Action::Record);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::NoModifier, pos);
    };
    const QModelIndex rowIndex = w.streamModel()->index(w.streamModel()->rowOf(id), 0);
    QVERIFY(!rowIndex.data(StreamTableModel::RecordingRole).toBool());
    clickRecord();
    QTRY_VERIFY(engine.snapshot(id).record.on);
    w.refreshNow(false);
    QVERIFY(rowIndex.data(StreamTableModel::RecordingRole).toBool()); // the dot turns red
    QTRY_VERIFY_WITH_TIMEOUT(engine.snapshot(id).record.messages > 30, scaledMs(10000));
    const QString file = engine.snapshot(id).record.file;
    const quint64 seen = engine.snapshot(id).record.messages; // written so far; more follow until the stop
    clickRecord();
    QTRY_VERIFY(!engine.snapshot(id).record.on);
    w.refreshNow(false);
    QVERIFY(!rowIndex.data(StreamTableModel::RecordingRole).toBool());
    // The stop says where the file went: in the status bar, and in the event log, whose entry
    // links to the file.
    QVERIFY2(w.statusBar()->currentMessage().contains(QDir::toNativeSeparators(file)),
             qPrintable(w.statusBar()->currentMessage()));
    bool logged = false;
    for (int r = 0; r < w.eventLog()->rowCount(); ++r) {
        const EventLogModel::Entry *e = w.eventLog()->entryAt(r);
        logged = logged || (e->stream == QStringLiteral("feed") && e->file == file);
    }
    QVERIFY(logged);
    QCOMPARE(engine.snapshot(id).reconnects, quint64(0));
    QTRY_VERIFY(QFileInfo(file).size() > 0);
    // The writer thread ends the file (its last zstd frame) shortly after the stop.
    QTRY_VERIFY_WITH_TIMEOUT(!analyzeCapture(file).truncated, scaledMs(10000));

    // The engine's own recording, opened beside the live stream it came from, while the
    // inspector is frozen on that stream: the capture's messages show all the same.
    w.inspector()->freezeAction()->trigger();
    QVERIFY(w.inspector()->model()->isFrozen());
    openThroughAction(w, file);
    QTRY_COMPARE_WITH_TIMEOUT(w.captures()->captures().size(), 1, scaledMs(10000));
    const CaptureList::Capture cap = w.captures()->captures().first();
    QCOMPARE(cap.snap.name, QStringLiteral("feed (capture)"));
    const quint64 recorded = cap.data->messages;
    QVERIFY2(recorded >= seen, qPrintable(QStringLiteral("%1 < %2").arg(recorded).arg(seen)));
    QVERIFY(!cap.data->truncated);
    QCOMPARE(cap.data->malformedLines, quint64(0));
    // The stream's own event-time field (/ts, ms) travels in the header: every message has a latency.
    QCOMPARE(cap.data->latency.count + cap.data->latency.negative, recorded);
    QVERIFY(w.streamModel()->rowOf(id) >= 0);
    QCOMPARE(w.inspector()->model()->rowCount(), int(recorded));
    QVERIFY(!eventsOf(w, QStringLiteral("feed (capture)")).isEmpty());
}

STREAMSCOPE_TEST_MAIN(tst_OpenCapture)
#include "tst_opencapture.moc"
