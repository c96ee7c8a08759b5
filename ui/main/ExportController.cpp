#include "ExportController.h"

#include "Export.h"
#include "InspectorModel.h"
#include "LatencyChart.h"
#include "MainActions.h"
#include "MessageInspector.h"
#include "RateChart.h"
#include "ReportCsv.h"
#include "SelectionController.h"
#include "SnapshotHub.h"
#include "StreamDetails.h"
#include "StreamTableModel.h"

#include <QtCharts/QChartView>
#include <QtCore/QDateTime>
#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtCore/QRegularExpression>
#include <QtCore/QSettings>
#include <QtCore/QSortFilterProxyModel>
#include <QtGui/QAction>
#include <QtGui/QClipboard>
#include <QtGui/QGuiApplication>
#include <QtWidgets/QDockWidget>
#include <QtWidgets/QFileDialog>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QMainWindow>
#include <QtWidgets/QMessageBox>
#include <QtWidgets/QStatusBar>
#include <QtWidgets/QTableView>
#include <QtWidgets/QTreeWidget>

namespace streamscope::ui {

namespace {

const QString kExportDirKey = QStringLiteral("ui/export_dir");

// A stream's name as part of a file name: letters, digits, '-', '_' and '.' kept.
QString fileStem(const QString &name)
{
    QString out;
    for (const QChar c : name)
        out += c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('_') || c == QLatin1Char('.')
            ? c
            : QLatin1Char('_');
    return out.isEmpty() ? QStringLiteral("stream") : out;
}

QString stamp()
{
    return QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
}

} // namespace

ExportController::ExportController(const Parts &parts, SelectionController *selection, SnapshotHub *hub,
                                   MainActions *actions, QMainWindow *window)
    : QObject(window)
    , m_parts(parts)
    , m_selection(selection)
    , m_hub(hub)
    , m_window(window)
{
    connect(actions->copyRows, &QAction::triggered, this,
            [this] { QGuiApplication::clipboard()->setText(selectedRowsText(RowFormat::Tsv)); });
    connect(actions->copyRowsCsv, &QAction::triggered, this,
            [this] { QGuiApplication::clipboard()->setText(selectedRowsText(RowFormat::Csv)); });
    connectExports(actions);
}

QList<int> ExportController::shownColumns() const
{
    const QHeaderView *header = m_parts.table->horizontalHeader();
    QList<int> columns;
    for (int visual = 0; visual < header->count(); ++visual) {
        const int column = header->logicalIndex(visual);
        if (column != StreamTableModel::ColActions && !header->isSectionHidden(column))
            columns << column;
    }
    return columns;
}

QString ExportController::selectedRowsText(RowFormat format) const
{
    const bool csv = format == RowFormat::Csv;
    static const QRegularExpression breaks(QStringLiteral("[\\t\\r\\n]"));
    const auto cell = [csv](QString text) {
        if (!csv)
            return text.replace(breaks, QStringLiteral(" "));
        // A leading = + - @ would be run as a formula by a spreadsheet (a name is the user's,
        // a reason the peer's): kept as text (app::csvCell, shared with the CSV exports).
        return app::csvCell(text);
    };
    const QChar separator = csv ? QLatin1Char(',') : QLatin1Char('\t');
    const QString newline = csv ? QStringLiteral("\r\n") : QStringLiteral("\n");
    const QList<int> columns = shownColumns();
    const QAbstractItemModel *model = m_parts.proxy;
    QStringList lines;
    QStringList cells;
    // For a spreadsheet: plain numbers with a dot, the units in the header.
    for (int column : columns)
        cells << cell(model->headerData(column, Qt::Horizontal, StreamTableModel::CsvRole).toString());
    lines << cells.join(separator);
    QModelIndexList rows = m_parts.table->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex &a, const QModelIndex &b) { return a.row() < b.row(); });
    for (const QModelIndex &row : std::as_const(rows)) {
        cells.clear();
        for (int column : columns)
            cells << cell(model->index(row.row(), column).data(StreamTableModel::CsvRole).toString());
        lines << cells.join(separator);
    }
    return lines.join(newline) + newline;
}

QString ExportController::askPath(const QString &title, const QString &fileName, const QString &filter)
{
    const QString dir = QSettings().value(kExportDirKey, QDir::homePath()).toString();
    const QString path = QFileDialog::getSaveFileName(m_window, title, QDir(dir).filePath(fileName), filter);
    if (!path.isEmpty())
        QSettings().setValue(kExportDirKey, QFileInfo(path).absolutePath());
    return path;
}

void ExportController::showResult(bool ok, const QString &path, const QString &error, const QString &note)
{
    if (!ok) {
        QMessageBox::warning(m_window, tr("Export failed"),
                             tr("Could not write %1.\n\n%2").arg(QDir::toNativeSeparators(path), error));
        return;
    }
    QString text = tr("Exported to %1").arg(QDir::toNativeSeparators(path));
    if (!note.isEmpty())
        text += QStringLiteral(" — ") + note;
    m_window->statusBar()->showMessage(text, 10000);
}

void ExportController::connectExports(MainActions *actions)
{
    connect(actions->exportTable, &QAction::triggered, this, [this] {
        const QString path = askPath(tr("Export the stream table"), QStringLiteral("streams-%1.csv").arg(stamp()),
                                     tr("CSV files (*.csv)"));
        if (path.isEmpty())
            return;
        // The columns shown, in the order shown (as Copy rows as CSV), without the buttons.
        QString error;
        showResult(writeTableCsv(path, m_parts.proxy, shownColumns(), &error, StreamTableModel::CsvRole), path, error);
    });

    connect(actions->exportStats, &QAction::triggered, this, [this] {
        // The pane's values now: shown (it refreshes only while it is) and refreshed at once.
        m_parts.detailsDock->show();
        m_parts.detailsDock->raise();
        m_selection->refreshDetails();
        const StreamId id = m_parts.details->stream();
        const QList<QPair<QString, QString>> fields = m_parts.details->fields();
        if (id == kInvalidStreamId || fields.isEmpty()) {
            QMessageBox::information(m_window, tr("Export statistics"),
                                     tr("Select a stream first: its statistics are those of the Details pane."));
            return;
        }
        const QString path = askPath(tr("Export the statistics of %1").arg(m_hub->streamName(id)),
                                     QStringLiteral("%1-stats-%2.csv").arg(fileStem(m_hub->streamName(id)), stamp()),
                                     tr("CSV files (*.csv)"));
        if (path.isEmpty())
            return;
        QString error;
        showResult(writeFieldsCsv(path, fields, &error), path, error);
    });

    connect(actions->exportHistogram, &QAction::triggered, this, [this] {
        const LatencySnapshot shown = m_parts.latencyChart->shown();
        if (m_parts.latencyChart->stream() == kInvalidStreamId || shown.isEmpty()) {
            QMessageBox::information(m_window, tr("Export the latency histogram"),
                                     tr("The latency chart shows no histogram: select a stream whose messages "
                                        "carry an event time."));
            return;
        }
        const QString path = askPath(tr("Export the latency histogram"),
                                     QStringLiteral("%1-latency-%2.csv")
                                         .arg(fileStem(m_hub->streamName(m_parts.latencyChart->stream())), stamp()),
                                     tr("CSV files (*.csv)"));
        if (path.isEmpty())
            return;
        QString error;
        showResult(writeHistogramCsv(path, shown, &error), path, error);
    });

    // The two charts, each as PNG and as SVG.
    using WidgetWriter = bool (*)(const QString &, QWidget *, QString *);
    const auto exportChart = [this](QAction *action, auto view, const QString &title, const QString &what,
                                    const QString &suffix, const QString &filter, WidgetWriter write) {
        connect(action, &QAction::triggered, this, [=, this] {
            m_parts.chartsDock->show();
            const QString path = askPath(title, QStringLiteral("%1-%2.%3").arg(what, stamp(), suffix), filter);
            if (path.isEmpty())
                return;
            QString error;
            showResult(write(path, view(), &error), path, error);
        });
    };
    const QString png = tr("PNG images (*.png)");
    const QString svg = tr("SVG drawings (*.svg)");
    const auto rate = [this] { return m_parts.rateChart->view(); };
    const auto latency = [this] { return m_parts.latencyChart->view(); };
    exportChart(actions->exportRatePng, rate, tr("Export the rate chart"), QStringLiteral("rate"),
                QStringLiteral("png"), png, writeWidgetPng);
    exportChart(actions->exportLatencyPng, latency, tr("Export the latency chart"), QStringLiteral("latency"),
                QStringLiteral("png"), png, writeWidgetPng);
    exportChart(actions->exportRateSvg, rate, tr("Export the rate chart"), QStringLiteral("rate"),
                QStringLiteral("svg"), svg, writeWidgetSvg);
    exportChart(actions->exportLatencySvg, latency, tr("Export the latency chart"), QStringLiteral("latency"),
                QStringLiteral("svg"), svg, writeWidgetSvg);

    connect(actions->exportMessages, &QAction::triggered, this, [this] {
        const InspectorModel *model = m_parts.inspector->model();
        if (model->rowCount() == 0) {
            QMessageBox::information(m_window, tr("Export messages"),
                                     tr("The inspector shows no message: inspect a stream first (or clear its "
                                        "filter)."));
            return;
        }
        const QString path =
            askPath(tr("Export the inspector's messages"), QStringLiteral("messages-%1.ndjson").arg(stamp()),
                    tr("NDJSON files (*.ndjson *.jsonl)"));
        if (path.isEmpty())
            return;
        int skipped = 0;
        QString error;
        const bool ok = writeMessagesNdjson(path, model, &skipped, &error);
        const int written = model->rowCount() - skipped;
        QString note = tr("%n message(s)", nullptr, written);
        if (skipped > 0)
            note += tr(", %n left out: they hold a line break", nullptr, skipped);
        showResult(ok, path, error, note);
    });

    // The context menus: the charts', the Details pane's and the inspector's own entries.
    m_parts.rateChart->addAction(actions->exportRatePng);
    m_parts.rateChart->addAction(actions->exportRateSvg);
    m_parts.rateChart->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_parts.latencyChart->addAction(actions->exportHistogram);
    m_parts.latencyChart->addAction(actions->exportLatencyPng);
    m_parts.latencyChart->addAction(actions->exportLatencySvg);
    m_parts.latencyChart->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_parts.details->counters()->addAction(actions->exportStats);
    m_parts.details->counters()->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_parts.inspector->view()->addAction(actions->exportMessages);
    m_parts.inspector->view()->setContextMenuPolicy(Qt::ActionsContextMenu);
}

} // namespace streamscope::ui
