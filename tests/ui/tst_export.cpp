// The desktop's exports (ui/common/Export.h): each written to a temporary folder and read back.

#include "../common/ReadFile.h"
#include "../common/TestRegistry.h"
#include "Engine.h"
#include "EventLogModel.h"
#include "Export.h"
#include "InspectorModel.h"
#include "LatencyChart.h"
#include "MainWindow.h"
#include "RateChart.h"
#include "StreamDetails.h"
#include "StreamHistory.h"
#include "StreamTableModel.h"

#include <QtCharts/QChartView>
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtCore/QTimer>
#include <QtGui/QImage>
#include <QtGui/QStandardItemModel>
#include <QtTest/QTest>
#include <QtWidgets/QApplication>
#include <QtWidgets/QFileDialog>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QMenu>
#include <QtWidgets/QMenuBar>
#include <QtWidgets/QMessageBox>
#include <QtWidgets/QTableView>
#include <QtWidgets/QTreeWidget>

#include <algorithm>
#include <iterator>

using namespace streamscope;
using streamscope::testing::readAll;
using namespace streamscope::ui;

namespace {

QString text(const char *utf8)
{
    return QString::fromUtf8(utf8);
}

} // namespace

class tst_Export : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void tableCsvQuotesNamesAndFormulas();
    void statisticsAreFieldValueRows();
    void tableCsvCellsArePlainNumbers();
    void histogramRowsSumToTheCount();
    void ndjsonHoldsTheFilteredMessagesAsReceived();
    void pngIsTheChartAtItsSize();
    void unwritablePathGivesAClearError();
    void windowExportsThroughItsMenus();

private:
    QTemporaryDir m_dir;
};

void tst_Export::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("StreamScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_export"));
}

void tst_Export::tableCsvQuotesNamesAndFormulas()
{
    QVERIFY(m_dir.isValid());
    QStandardItemModel model(0, 3);
    model.setHorizontalHeaderLabels({text("Name"), text("State"), text("Msgs/s")});
    const QList<QStringList> rows = {{text("btc, eth"), text("live"), text("12.5")},
                                     {text("say \"hi\""), text("stalled"), text("-3")},
                                     {text("=HYPERLINK(1)"), text("failed: +boom"), text("0")}};
    for (const QStringList &r : rows) {
        QList<QStandardItem *> items;
        for (const QString &c : r)
            items << new QStandardItem(c);
        model.appendRow(items);
    }
    const QString path = m_dir.filePath(text("table.csv"));
    QString error;
    QVERIFY2(writeTableCsv(path, &model, {0, 2, 1}, &error), qPrintable(error));
    const QByteArray expected = "Name,Msgs/s,State\r\n"
                                "\"btc, eth\",12.5,live\r\n"
                                "\"say \"\"hi\"\"\",-3,stalled\r\n"
                                "'=HYPERLINK(1),0,failed: +boom\r\n";
    QCOMPARE(readAll(path), expected);
}

void tst_Export::statisticsAreFieldValueRows()
{
    EventLogModel events;
    QStandardItemModel alerts(0, 3);
    StreamDetails details(&events, &alerts);
    StreamHistory history;
    details.setStream(7, text("btc"));
    StreamSnapshot s;
    s.id = 7;
    s.name = text("btc");
    s.venue = Venue("binance");
    s.state = StreamState::Live;
    s.messages = 1234;
    for (int i = 0; i < 10; ++i)
        s.latency.record(1000 + i * 100);
    details.refresh(s, 10.0, history);
    const QList<QPair<QString, QString>> fields = details.fields();
    QVERIFY(!fields.isEmpty());
    bool sawMessages = false, sawP99 = false, sawNull = false;
    for (const auto &f : fields) {
        QVERIFY2(details.itemAt(f.first), qPrintable(f.first)); // every path is a row of the pane
        // The value, as a spreadsheet reads it: no thousands separator, no unit, a dot.
        if (f.first == text("messages")) {
            sawMessages = true;
            QCOMPARE(f.second, text("1234"));
        }
        if (f.first == text("clock_offset_ms")) { // none known
            sawNull = true;
            QCOMPARE(details.valueAt(f.first), text("none")); // as the pane shows it
            QCOMPARE(f.second, QString());
        }
        if (f.first == text("latency_ms/p99")) {
            sawP99 = true;
            bool ok = false;
            const double p99 = f.second.toDouble(&ok); // QString::toDouble: the C locale's dot
            QVERIFY2(ok && p99 > 1.0 && p99 < 2.1, qPrintable(f.second));
        }
    }
    QVERIFY(sawMessages);
    QVERIFY(sawP99);
    QVERIFY(sawNull);
    QVERIFY(details.itemAt(text("latency_ms"))); // an object's own row is not a field
    for (const auto &f : fields)
        QVERIFY(f.first != text("latency_ms"));

    const QString path = m_dir.filePath(text("stats.csv"));
    QString error;
    QVERIFY2(writeFieldsCsv(path, fields, &error), qPrintable(error));
    const QList<QByteArray> lines = readAll(path).split('\n');
    QCOMPARE(lines.first(), QByteArray("field,value\r"));
    QCOMPARE(lines.size(), fields.size() + 2); // header, rows, and the empty rest after the last CRLF
    QVERIFY(lines.contains("messages,1234\r"));
}

// The stream table as CSV: plain numbers with a dot in the cells ("0.64", not "0.64 ms";
// "12345", not "12 345" with a thin space), the units in the header; no value is an empty cell.
void tst_Export::tableCsvCellsArePlainNumbers()
{
    StreamTableModel model;
    StreamSnapshot s;
    s.id = 7;
    s.name = text("btc");
    s.state = StreamState::Live;
    s.messages = 12345;
    s.reconnects = 2;
    StreamSnapshot quiet = s;
    quiet.id = 8;
    quiet.name = text("eth");
    model.update({s, quiet}, 1000);
    model.setOfflineFigures(7, 1234.5, 2048.0, 0.64, 16000.0);
    const QList<int> columns{StreamTableModel::ColName,      StreamTableModel::ColRate, StreamTableModel::ColKBps,
                             StreamTableModel::ColMessages,  StreamTableModel::ColP50,  StreamTableModel::ColP99,
                             StreamTableModel::ColReconnects};
    QCOMPARE(model.index(0, StreamTableModel::ColP50).data().toString(), text("0.64 ms")); // as the table shows it
    const QString csv = tableCsv(&model, columns, StreamTableModel::CsvRole);
    QCOMPARE(csv,
             text("Stream,msgs/s,KB/s,Messages,p50 (ms),p99 (ms),Reconn.\r\n"
                  "btc,1234.5,2,12345,0.64,16000,2\r\n"
                  "eth,0,0,12345,,,2\r\n"));
}

void tst_Export::histogramRowsSumToTheCount()
{
    LatencySnapshot h;
    const qint64 values[] = {0, 5, 31, 32, 900, 1000, 1000, 1500, 25'000, 25'100, 3'000'000};
    for (qint64 v : values)
        h.record(v);
    h.record(-4); // negative: counted apart, in no bucket
    const QString path = m_dir.filePath(text("histogram.csv"));
    QString error;
    QVERIFY2(writeHistogramCsv(path, h, &error), qPrintable(error));
    QList<QByteArray> lines = readAll(path).split('\n');
    QCOMPARE(lines.takeFirst(), QByteArray("lower_ms,upper_ms,count,share\r"));
    QCOMPARE(lines.takeLast(), QByteArray());
    quint64 sum = 0;
    double shares = 0, lastUpper = -1;
    for (const QByteArray &line : std::as_const(lines)) {
        const QList<QByteArray> cells = line.trimmed().split(',');
        QCOMPARE(cells.size(), 4);
        const double lower = cells[0].toDouble(), upper = cells[1].toDouble();
        QVERIFY(lower < upper);
        QVERIFY(lower >= lastUpper); // ascending, not overlapping
        lastUpper = upper;
        const quint64 n = cells[2].toULongLong();
        QVERIFY(n > 0);
        QVERIFY(qAbs(cells[3].toDouble() - double(n) / double(h.count)) < 1e-9);
        sum += n;
        shares += cells[3].toDouble();
    }
    QCOMPARE(sum, h.count);
    QCOMPARE(h.count, quint64(std::size(values)));
    QVERIFY(qAbs(shares - 1.0) < 1e-9);
    // The two values of 1000 µs share the row of the bucket that holds 1 ms.
    const int bucket = LatencyBuckets::index(1000);
    const QByteArray row = QByteArray::number(double(LatencyBuckets::lowerUs(bucket)) / 1000.0) + ','
        + QByteArray::number(double(LatencyBuckets::upperUs(bucket) + 1) / 1000.0) + ",2,";
    QVERIFY(std::any_of(lines.cbegin(), lines.cend(), [&row](const QByteArray &l) { return l.startsWith(row); }));
}

void tst_Export::ndjsonHoldsTheFilteredMessagesAsReceived()
{
    InspectorModel model;
    const QList<QByteArray> messages = {
        QByteArray("{\"e\":\"aggTrade\",\"s\":\"BTCUSDT\",\"p\":\"1.5\"}"),
        QByteArray("{\"e\":\"aggTrade\",\"s\":\"ETHUSDT\",\"p\":\"2\"}"),
        QByteArray("{\"s\":\"BTCUSDT\",\"n\":\"caf\xc3\xa9 \\u00e9\",\"x\": 1 }"),
        QByteArray("{\"s\":\"BTCUSDT\",\n\"split\":true}"), // a raw LF: left out and counted
        QByteArray("{\"s\":\"BTCUSDT\",\"cr\":1}\r"),       // a raw CR too
        QByteArray("{\"e\":\"depthUpdate\",\"s\":\"BTCUSDT\"}"),
    };
    QVector<InspectedMessage> batch;
    for (const QByteArray &m : messages)
        batch.append(InspectedMessage{1000, 1.0, m});
    model.append(batch);
    QString error;
    QVERIFY2(model.setFilter(text("BTCUSDT"), false, &error), qPrintable(error));
    QCOMPARE(model.rowCount(), 5);

    const QString path = m_dir.filePath(text("messages.ndjson"));
    int skipped = -1;
    QVERIFY2(writeMessagesNdjson(path, &model, &skipped, &error), qPrintable(error));
    QCOMPARE(skipped, 2);
    const QByteArray expected = messages[0] + '\n' + messages[2] + '\n' + messages[5] + '\n';
    QCOMPARE(readAll(path), expected);
}

void tst_Export::pngIsTheChartAtItsSize()
{
    LatencyChart chart;
    chart.resize(640, 420);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.setStream(3, text("btc"));
    LatencySnapshot h;
    for (int i = 0; i < 50; ++i)
        h.record(1000 + 37 * i);
    chart.push(h);
    QWidget *view = chart.view();
    QVERIFY(view->width() > 100 && view->height() > 100);
    const QString path = m_dir.filePath(text("latency.png"));
    QString error;
    QVERIFY2(writeWidgetPng(path, view, &error), qPrintable(error));
    QVERIFY(readAll(path).startsWith("\x89PNG\r\n\x1a\n"));
    const QImage image(path);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), view->size() * view->devicePixelRatio());

    RateChart rate;
    rate.resize(500, 300);
    rate.show();
    QVERIFY(QTest::qWaitForWindowExposed(&rate));
    const QString ratePath = m_dir.filePath(text("rate.png"));
    QVERIFY2(writeWidgetPng(ratePath, rate.view(), &error), qPrintable(error));
    const QImage rateImage(ratePath);
    QVERIFY(!rateImage.isNull());
    QCOMPARE(rateImage.size(), rate.view()->size() * rate.view()->devicePixelRatio());

    // SVG: a drawing of the view's size that holds the chart's own text (axis titles).
    const QString svgPath = m_dir.filePath(text("latency.svg"));
    QVERIFY2(writeWidgetSvg(svgPath, view, &error), qPrintable(error));
    const QByteArray svg = readAll(svgPath);
    QVERIFY2(svg.contains("<svg"), svg.left(200).constData());
    QVERIFY(svg.contains(QStringLiteral("width=\"%1").arg(view->width()).toLatin1()));
    QVERIFY2(svg.contains("latency"), "the axis title is drawn as text");
    QVERIFY(svg.contains("</svg>"));
}

void tst_Export::unwritablePathGivesAClearError()
{
    // A folder under a plain file cannot exist, whoever runs the test (root included).
    const QString file = m_dir.filePath(text("plain-file"));
    {
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("x");
    }
    const QString path = file + text("/out.csv");
    QStandardItemModel model(1, 1);
    QString error;
    QVERIFY(!writeTableCsv(path, &model, {0}, &error));
    QVERIFY2(error.startsWith(path + text(": ")), qPrintable(error));
    QVERIFY2(error.size() > path.size() + 2, qPrintable(error)); // a reason after the name
    QVERIFY(!QFile::exists(path));
    InspectorModel messages;
    error.clear();
    QVERIFY(!writeMessagesNdjson(path, &messages, nullptr, &error));
    QVERIFY(error.startsWith(path));
    // An existing file is replaced whole, or left as it was.
    QCOMPARE(readAll(file), QByteArray("x"));
}

void tst_Export::windowExportsThroughItsMenus()
{
    Engine engine;
    MainWindow w(&engine);
    // File → Export holds the six exports; the charts, the Details pane and the inspector
    // offer theirs in their context menus, the table its statistics.
    QMenu *exports = w.menuBar()->findChild<QMenu *>(QStringLiteral("exportMenu"));
    QVERIFY(exports);
    QStringList names;
    for (const QAction *a : exports->actions())
        names << a->objectName();
    QCOMPARE(names,
             (QStringList{text("exportTable"), text("exportStats"), text("exportHistogram"), text("exportRatePng"),
                          text("exportLatencyPng"), text("exportRateSvg"), text("exportLatencySvg"),
                          text("exportMessages")}));
    const auto action = [&w](const char *name) { return w.findChild<QAction *>(QLatin1String(name)); };
    QVERIFY(w.latencyChart()->actions().contains(action("exportHistogram")));
    QVERIFY(w.latencyChart()->actions().contains(action("exportLatencyPng")));
    QVERIFY(w.rateChart()->actions().contains(action("exportRatePng")));
    QVERIFY(w.rateChart()->actions().contains(action("exportRateSvg")));
    QVERIFY(w.latencyChart()->actions().contains(action("exportLatencySvg")));
    QVERIFY(w.details()->counters()->actions().contains(action("exportStats")));

    // The save dialog answered with `answer`; message boxes recorded and closed.
    QString answer;
    QStringList boxes;
    QTimer closer;
    connect(&closer, &QTimer::timeout, &closer, [&] {
        QWidget *modal = QApplication::activeModalWidget();
        if (auto *dialog = qobject_cast<QFileDialog *>(modal)) {
            dialog->selectFile(answer);
            static_cast<QDialog *>(dialog)->accept(); // QFileDialog::accept(), as its Save button
        } else if (auto *box = qobject_cast<QMessageBox *>(modal)) {
            boxes << box->text();
            box->close();
        }
    });
    closer.start(10);
    answer = m_dir.filePath(text("window-table.csv"));
    action("exportTable")->trigger();
    QList<int> columns;
    const QHeaderView *header = w.streamTable()->horizontalHeader();
    for (int visual = 0; visual < header->count(); ++visual) {
        const int column = header->logicalIndex(visual);
        if (column != StreamTableModel::ColActions && !header->isSectionHidden(column))
            columns << column;
    }
    QCOMPARE(readAll(answer), tableCsv(w.streamProxy(), columns, StreamTableModel::CsvRole).toUtf8());
    QVERIFY(readAll(answer).contains(",p50 (ms),p99 (ms),"));
    const QString nameHeader = w.streamProxy()->headerData(StreamTableModel::ColName, Qt::Horizontal).toString();
    QVERIFY(readAll(answer).startsWith(nameHeader.toUtf8() + ',')); // the header line, the name first
    QVERIFY(boxes.isEmpty());

    // The charts from their actions: each format to its own file.
    answer = m_dir.filePath(text("window-rate.svg"));
    action("exportRateSvg")->trigger();
    QVERIFY2(readAll(answer).contains("<svg"), qPrintable(answer));
    answer = m_dir.filePath(text("window-latency.png"));
    action("exportLatencyPng")->trigger();
    QVERIFY(readAll(answer).startsWith("\x89PNG"));
    QVERIFY(boxes.isEmpty());

    // Unwritable: a message box names the file and the reason; no file.
    const QString plain = m_dir.filePath(text("plain-for-window"));
    QFile f(plain);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.close();
    answer = plain + text("/table.csv");
    action("exportTable")->trigger();
    closer.stop();
    QCOMPARE(boxes.size(), 1);
    QVERIFY2(boxes.first().contains(QDir::toNativeSeparators(answer)), qPrintable(boxes.first()));
    QVERIFY(!QFile::exists(answer));
}

STREAMSCOPE_TEST_MAIN(tst_Export)
#include "tst_export.moc"
