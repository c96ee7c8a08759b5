// MainWindow, continued: applying a workspace (streams, alert rules, layout) and capturing
// the current one; the file itself is WorkspaceController's. See MainWindow.h.

#include "MainWindow.h"

#include "AlertMonitor.h"
#include "Engine.h"
#include "EventLogModel.h"
#include "LatencyChart.h"
#include "LatencyWindows.h"
#include "MainActions.h"
#include "RateChart.h"
#include "StreamActionDelegate.h"
#include "StreamHistory.h"
#include "StreamTableModel.h"

#include <QtCore/QDateTime>
#include <QtCore/QFileInfo>
#include <QtCore/QJsonArray>
#include <QtGui/QCloseEvent>
#include <QtWidgets/QDockWidget>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QMessageBox>
#include <QtWidgets/QSplitter>
#include <QtWidgets/QTableView>

namespace streamscope::ui {

QJsonObject MainWindow::saveLayout() const
{
    QJsonObject window;
    window.insert(QStringLiteral("geometry"), QString::fromLatin1(saveGeometry().toBase64()));
    window.insert(QStringLiteral("state"), QString::fromLatin1(saveState().toBase64()));
    QJsonArray splitter;
    for (int s : m_chartSplitter->sizes())
        splitter.append(s);
    QJsonObject layout;
    layout.insert(QStringLiteral("window"), window);
    layout.insert(QStringLiteral("chart_splitter"), splitter);
    layout.insert(QStringLiteral("rate_chart"),
                  QJsonObject{{QStringLiteral("scope"), RateChart::scopeName(m_rateChart->scope())},
                              {QStringLiteral("paused"), m_rateChart->isPaused()},
                              {QStringLiteral("log"), m_rateChart->isLogScale()}});
    layout.insert(QStringLiteral("latency_window"), LatencyWindows::windowName(m_latencyChart->window()));
    layout.insert(QStringLiteral("latency_log"), m_latencyChart->isLogScale());
    layout.insert(QStringLiteral("latency_corrected"), m_actions->correctedLatency->isChecked());
    layout.insert(QStringLiteral("table_header"),
                  QString::fromLatin1(m_table->horizontalHeader()->saveState().toBase64()));
    layout.insert(QStringLiteral("table_columns"), int(StreamTableModel::ColumnCount));
    layout.insert(QStringLiteral("filter"), m_filter->text());
    QJsonObject docks;
    for (QDockWidget *d :
         {m_chartsDock, m_inspectorDock, m_detailsDock, m_resultsDock, m_errorsDock, m_eventsDock, m_alertsDock})
        docks.insert(d->objectName(), !d->isHidden());
    layout.insert(QStringLiteral("docks"), docks);
    return layout;
}

void MainWindow::restoreLayout(const QJsonObject &layout)
{
    if (layout.isEmpty()) {
        restoreState(m_defaultState);
        return;
    }
    const QJsonObject window = layout.value(QStringLiteral("window")).toObject();
    const QByteArray geometry = QByteArray::fromBase64(window.value(QStringLiteral("geometry")).toString().toLatin1());
    const QByteArray state = QByteArray::fromBase64(window.value(QStringLiteral("state")).toString().toLatin1());
    if (!geometry.isEmpty())
        restoreGeometry(geometry);
    if (state.isEmpty() || !restoreState(state))
        restoreState(m_defaultState);
    fitToScreen(); // a layout saved on a larger screen
    // Dock visibility also as plain booleans, so that a hand-edited file can hide a panel.
    const QJsonObject docks = layout.value(QStringLiteral("docks")).toObject();
    for (QDockWidget *d :
         {m_chartsDock, m_inspectorDock, m_detailsDock, m_resultsDock, m_errorsDock, m_eventsDock, m_alertsDock}) {
        const QJsonValue v = docks.value(d->objectName());
        if (v.isBool())
            d->setVisible(v.toBool());
    }
    QList<int> sizes;
    for (const QJsonValue &v : layout.value(QStringLiteral("chart_splitter")).toArray())
        sizes.append(v.toInt());
    if (sizes.size() == m_chartSplitter->count())
        m_chartSplitter->setSizes(sizes);
    const QJsonObject rate = layout.value(QStringLiteral("rate_chart")).toObject();
    m_rateChart->setScope(RateChart::scopeFromName(rate.value(QStringLiteral("scope")).toString()));
    m_rateChart->setPaused(rate.value(QStringLiteral("paused")).toBool(false));
    m_rateChart->setLogScale(rate.value(QStringLiteral("log")).toBool(false));
    m_latencyChart->setWindow(
        LatencyWindows::windowFromName(layout.value(QStringLiteral("latency_window")).toString(QStringLiteral("10s"))));
    m_latencyChart->setLogScale(layout.value(QStringLiteral("latency_log")).toBool(false));
    m_actions->correctedLatency->setChecked(layout.value(QStringLiteral("latency_corrected")).toBool(false));
    const QByteArray header =
        QByteArray::fromBase64(layout.value(QStringLiteral("table_header")).toString().toLatin1());
    if (!header.isEmpty()) {
        m_table->horizontalHeader()->restoreState(header);
        // A header saved before the Backlog column came shows it: hidden, as by default.
        if (layout.value(QStringLiteral("table_columns")).toInt() <= StreamTableModel::ColBacklog)
            m_table->horizontalHeader()->setSectionHidden(StreamTableModel::ColBacklog, true);
        // The buttons' column is as wide as its buttons, whatever width a header saved with
        // fewer buttons holds.
        m_table->setColumnWidth(StreamTableModel::ColActions, StreamActionDelegate::columnWidth());
    }
    m_filter->setText(layout.value(QStringLiteral("filter")).toString());
}

Workspace MainWindow::currentWorkspace() const
{
    Workspace ws;
    if (m_engine) {
        for (StreamId id : m_engine->streamIds())
            ws.streams.append(m_engine->config(id));
    }
    // Rules for streams that no longer exist are dropped; "*" stays.
    QVector<AlertRule> rules;
    for (const AlertRule &r : m_alerts->rules()) {
        bool keep = r.stream == AlertRule::kAnyStream;
        for (const StreamConfig &c : ws.streams)
            keep = keep || c.name == r.stream;
        if (keep)
            rules.append(r);
    }
    ws.alerts = AlertRule::toJson(rules);
    ws.notify = m_notifyTargets;
    ws.layout = saveLayout();
    if (m_engine)
        ws.flight = m_engine->flightRecorder();
    return ws;
}

bool MainWindow::saveWorkspace(const QString &path, QString *error)
{
    return m_workspace->write(path, error);
}

void MainWindow::setWorkspace(const Workspace &ws, const QString &path)
{
    applyWorkspace(WorkspaceController::fromMemory(ws), path);
}

void MainWindow::setSaveNote(const QString &note)
{
    m_workspace->setSaveNote(note);
}

bool MainWindow::openWorkspace(const QString &path, QString *error)
{
    WorkspaceController::Loaded loaded;
    if (!WorkspaceController::read(path, loaded, error))
        return false;
    applyWorkspace(loaded, QFileInfo(path).absoluteFilePath());
    m_eventLog->flush();
    return true;
}

void MainWindow::onOpenRequested(const QString &path)
{
    QString error;
    if (!openWorkspace(path, &error))
        QMessageBox::warning(this, tr("Cannot open workspace"), error);
}

void MainWindow::applyWorkspace(const WorkspaceController::Loaded &loaded, const QString &path)
{
    if (m_engine) {
        const QList<StreamId> old = m_engine->streamIds();
        for (StreamId id : old) {
            m_alerts->forget(id);
            m_engine->removeStream(id);
        }
    }
    m_history->clear();
    refreshNow(false);

    for (const QString &warning : loaded.warnings)
        m_eventLog->addWorkspaceWarning(warning);
    m_alerts->blockSignals(true);
    m_alerts->setRules(loaded.rules);
    m_alerts->blockSignals(false);

    m_workspace->loadSecretsFor(loaded.workspace.streams);
    if (m_engine)
        m_engine->setFlightRecorder(loaded.workspace.flight);
    if (m_engine) {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        for (const StreamConfig &c : loaded.workspace.streams)
            m_startedAtMs.insert(m_engine->addStream(c), now);
    }
    m_notifyTargets = loaded.workspace.notify;
    QList<NotifyTarget> allTargets = m_notifyTargets;
    for (const StreamConfig &c : loaded.workspace.streams)
        allTargets += c.notify;
    m_workspace->loadNotifySecrets(allTargets);
    syncNotifier();
    restoreLayout(loaded.workspace.layout);
    m_workspace->setOpened(path);
    refreshNow(false);
    if (m_model->rowCount() > 0 && !m_table->currentIndex().isValid())
        selectStream(m_model->idAt(0));
}

void MainWindow::newWorkspace()
{
    if (!m_workspace->maybeSave())
        return;
    setWorkspace(Workspace(), QString());
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    fitToScreen(); // now with the title bar and borders the window system adds
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (m_workspace->maybeSave())
        event->accept();
    else
        event->ignore();
}

} // namespace streamscope::ui
