// MainWindow: File → Export and the export entries of the context menus (docs/user-guide.md,
// "Export"). The writing itself is in Export.cpp.

#include "Export.h"
#include "InspectorModel.h"
#include "LatencyChart.h"
#include "MainActions.h"
#include "MainWindow.h"
#include "MessageInspector.h"
#include "RateChart.h"
#include "StreamDetails.h"
#include "StreamSortProxy.h"
#include "StreamTableModel.h"

#include <QtCharts/QChartView>
#include <QtCore/QDateTime>
#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtCore/QSettings>
#include <QtWidgets/QDockWidget>
#include <QtWidgets/QFileDialog>
#include <QtWidgets/QHeaderView>
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

QString MainWindow::askExportPath(const QString &title, const QString &fileName, const QString &filter)
{
    const QString dir = QSettings().value(kExportDirKey, QDir::homePath()).toString();
    const QString path = QFileDialog::getSaveFileName(this, title, QDir(dir).filePath(fileName), filter);
    if (!path.isEmpty())
        QSettings().setValue(kExportDirKey, QFileInfo(path).absolutePath());
    return path;
}

void MainWindow::showExportResult(bool ok, const QString &path, const QString &error, const QString &note)
{
    if (!ok) {
        QMessageBox::warning(this, tr("Export failed"),
                             tr("Could not write %1.\n\n%2").arg(QDir::toNativeSeparators(path), error));
        return;
    }
    QString text = tr("Exported to %1").arg(QDir::toNativeSeparators(path));
    if (!note.isEmpty())
        text += QStringLiteral(" — ") + note;
    statusBar()->showMessage(text, 10000);
}

void MainWindow::connectExports()
{
    connect(m_actions->exportTable, &QAction::triggered, this, [this] {
        const QString path = askExportPath(tr("Export the stream table"), QStringLiteral("streams-%1.csv").arg(stamp()),
                                           tr("CSV files (*.csv)"));
        if (path.isEmpty())
            return;
        // The columns shown, in the order shown (as Copy rows as CSV), without the buttons.
        const QHeaderView *header = m_table->horizontalHeader();
        QList<int> columns;
        for (int visual = 0; visual < header->count(); ++visual) {
            const int column = header->logicalIndex(visual);
            if (column != StreamTableModel::ColActions && !header->isSectionHidden(column))
                columns << column;
        }
        QString error;
        showExportResult(writeTableCsv(path, m_proxy, columns, &error), path, error);
    });

    connect(m_actions->exportStats, &QAction::triggered, this, [this] {
        // The pane's values now: shown (it refreshes only while it is) and refreshed at once.
        m_detailsDock->show();
        m_detailsDock->raise();
        refreshDetails();
        const StreamId id = m_details->stream();
        const QList<QPair<QString, QString>> fields = m_details->fields();
        if (id == kInvalidStreamId || fields.isEmpty()) {
            QMessageBox::information(this, tr("Export statistics"),
                                     tr("Select a stream first: its statistics are those of the Details pane."));
            return;
        }
        const QString path = askExportPath(tr("Export the statistics of %1").arg(streamName(id)),
                                           QStringLiteral("%1-stats-%2.csv").arg(fileStem(streamName(id)), stamp()),
                                           tr("CSV files (*.csv)"));
        if (path.isEmpty())
            return;
        QString error;
        showExportResult(writeFieldsCsv(path, fields, &error), path, error);
    });

    connect(m_actions->exportHistogram, &QAction::triggered, this, [this] {
        const LatencySnapshot shown = m_latencyChart->shown();
        if (m_latencyChart->stream() == kInvalidStreamId || shown.isEmpty()) {
            QMessageBox::information(this, tr("Export the latency histogram"),
                                     tr("The latency chart shows no histogram: select a stream whose messages "
                                        "carry an event time."));
            return;
        }
        const QString path = askExportPath(
            tr("Export the latency histogram"),
            QStringLiteral("%1-latency-%2.csv").arg(fileStem(streamName(m_latencyChart->stream())), stamp()),
            tr("CSV files (*.csv)"));
        if (path.isEmpty())
            return;
        QString error;
        showExportResult(writeHistogramCsv(path, shown, &error), path, error);
    });

    // The two charts, each as PNG and as SVG.
    using WidgetWriter = bool (*)(const QString &, QWidget *, QString *);
    const auto exportChart = [this](QAction *action, auto view, const QString &title, const QString &what,
                                    const QString &suffix, const QString &filter, WidgetWriter write) {
        connect(action, &QAction::triggered, this, [=, this] {
            m_chartsDock->show();
            const QString path = askExportPath(title, QStringLiteral("%1-%2.%3").arg(what, stamp(), suffix), filter);
            if (path.isEmpty())
                return;
            QString error;
            showExportResult(write(path, view(), &error), path, error);
        });
    };
    const QString png = tr("PNG images (*.png)");
    const QString svg = tr("SVG drawings (*.svg)");
    const auto rate = [this] { return m_rateChart->view(); };
    const auto latency = [this] { return m_latencyChart->view(); };
    exportChart(m_actions->exportRatePng, rate, tr("Export the rate chart"), QStringLiteral("rate"),
                QStringLiteral("png"), png, writeWidgetPng);
    exportChart(m_actions->exportLatencyPng, latency, tr("Export the latency chart"), QStringLiteral("latency"),
                QStringLiteral("png"), png, writeWidgetPng);
    exportChart(m_actions->exportRateSvg, rate, tr("Export the rate chart"), QStringLiteral("rate"),
                QStringLiteral("svg"), svg, writeWidgetSvg);
    exportChart(m_actions->exportLatencySvg, latency, tr("Export the latency chart"), QStringLiteral("latency"),
                QStringLiteral("svg"), svg, writeWidgetSvg);

    connect(m_actions->exportMessages, &QAction::triggered, this, [this] {
        const InspectorModel *model = m_inspector->model();
        if (model->rowCount() == 0) {
            QMessageBox::information(this, tr("Export messages"),
                                     tr("The inspector shows no message: inspect a stream first (or clear its "
                                        "filter)."));
            return;
        }
        const QString path =
            askExportPath(tr("Export the inspector's messages"), QStringLiteral("messages-%1.ndjson").arg(stamp()),
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
        showExportResult(ok, path, error, note);
    });

    // The context menus: the charts', the Details pane's and the inspector's own entries.
    m_rateChart->addAction(m_actions->exportRatePng);
    m_rateChart->addAction(m_actions->exportRateSvg);
    m_rateChart->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_latencyChart->addAction(m_actions->exportHistogram);
    m_latencyChart->addAction(m_actions->exportLatencyPng);
    m_latencyChart->addAction(m_actions->exportLatencySvg);
    m_latencyChart->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_details->counters()->addAction(m_actions->exportStats);
    m_details->counters()->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_inspector->view()->addAction(m_actions->exportMessages);
    m_inspector->view()->setContextMenuPolicy(Qt::ActionsContextMenu);
}

} // namespace streamscope::ui
