// MainWindow, continued: the selection and the commands that act on streams (add, edit,
// stop, restart, remove, subscribe, send). See MainWindow.h.

#include "MainWindow.h"

#include "AlertMonitor.h"
#include "CaptureList.h"
#include "Engine.h"
#include "LatencyChart.h"
#include "MainActions.h"
#include "MessageInspector.h"
#include "RateChart.h"
#include "RedactedUrl.h"
#include "RemoteAgent.h"
#include "ResponseModel.h"
#include "StreamActionDelegate.h"
#include "StreamDetails.h"
#include "StreamDialog.h"
#include "StreamHistory.h"
#include "StreamSortProxy.h"
#include "StreamTableModel.h"

#include <QtCore/QDateTime>
#include <QtCore/QDir>
#include <QtCore/QRegularExpression>
#include <QtCore/QSettings>
#include <QtCore/QSortFilterProxyModel>
#include <QtCore/QStandardPaths>
#include <QtCore/QTimer>
#include <QtGui/QClipboard>
#include <QtGui/QGuiApplication>
#include <QtWidgets/QDockWidget>
#include <QtWidgets/QFileDialog>
#include <QtWidgets/QInputDialog>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QMenu>
#include <QtWidgets/QMessageBox>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QStatusBar>
#include <QtWidgets/QTableView>

namespace streamscope::ui {

QList<StreamId> MainWindow::selectedStreams() const
{
    QList<StreamId> ids = selectedRows();
    ids.removeIf([](StreamId id) { return isOfflineOrRemote(id); }); // agents' and captures' rows
    return ids;
}

QList<StreamId> MainWindow::selectedRows() const
{
    QList<StreamId> ids;
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    for (const QModelIndex &r : rows) {
        const StreamId id = m_model->idAt(m_proxy->mapToSource(r).row());
        if (id != kInvalidStreamId)
            ids.append(id);
    }
    if (ids.isEmpty() && m_table->currentIndex().isValid()) {
        const StreamId id = m_model->idAt(m_proxy->mapToSource(m_table->currentIndex()).row());
        if (id != kInvalidStreamId)
            ids.append(id);
    }
    return ids;
}

void MainWindow::selectStream(StreamId id)
{
    const int row = m_model->rowOf(id);
    if (row < 0)
        return;
    const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(index);
}

QString MainWindow::streamName(StreamId id) const
{
    if (const StreamTableModel::Row *r = m_model->row(id))
        return r->snap.name;
    if (m_engine && m_engine->contains(id))
        return m_engine->config(id).name;
    return QStringLiteral("#%1").arg(id);
}

void MainWindow::onSelectionChanged()
{
    const QList<StreamId> ids = selectedRows();
    QList<QPair<StreamId, QString>> named;
    for (StreamId id : ids)
        named.append({id, streamName(id)});
    m_rateChart->setStreams(named);

    StreamId current = kInvalidStreamId;
    if (m_table->currentIndex().isValid()
        && m_table->selectionModel()->isRowSelected(m_table->currentIndex().row(), QModelIndex()))
        current = m_model->idAt(m_proxy->mapToSource(m_table->currentIndex()).row());
    if (current == kInvalidStreamId && !ids.isEmpty())
        current = ids.first();
    const QString name = current != kInvalidStreamId ? streamName(current) : QString();
    showCaptureSelection(current, name); // an open capture's messages, histogram and rate
    // A remote agent's messages stay on its machine: the inspector has nothing to show.
    m_inspector->setStream(isRemoteStream(current) ? kInvalidStreamId : current, name);
    updateEventFilter();
    m_latencyChart->setStream(current, name);
    if (current != m_details->stream()) {
        m_details->setStream(current, name);
        refreshDetails();
    } else {
        m_details->setStream(current, name); // renamed
    }
    m_inspectorDock->setWindowTitle(current != kInvalidStreamId ? tr("Inspector — %1").arg(name) : tr("Inspector"));

    if (current == kInvalidStreamId || !m_engine) {
        m_results->setRecords({});
        m_errors->setRecords({});
    } else {
        m_results->setRecords(m_engine->results(current));
        m_errors->setRecords(m_engine->errors(current));
    }
    m_rateChart->refresh(*m_history);
    updateActionsForSelection(selectedStreams());
}

void MainWindow::updateActionsForSelection(const QList<StreamId> &ids)
{
    int running = 0;
    int recording = 0;
    for (StreamId id : ids) {
        const StreamTableModel::Row *r = m_model->row(id);
        running += r && isRunning(r->snap.state) ? 1 : 0;
        recording += r && r->snap.record.on ? 1 : 0;
    }
    m_actions->updateForSelection(int(ids.size()), running, recording);
}

void MainWindow::onRowAction(const QModelIndex &proxyIndex, int action)
{
    const StreamId id = m_model->idAt(m_proxy->mapToSource(proxyIndex).row());
    if (id == kInvalidStreamId)
        return;
    switch (StreamActionDelegate::Action(action)) {
    case StreamActionDelegate::Action::Stop: stopStreams({id}); break;
    case StreamActionDelegate::Action::Start:
    case StreamActionDelegate::Action::Restart: restartStreams({id}); break;
    case StreamActionDelegate::Action::Remove:
        if (confirmRemove({id}))
            removeStreams({id});
        break;
    case StreamActionDelegate::Action::Record: {
        const StreamTableModel::Row *r = m_model->row(id);
        setRecording({id}, !(r && r->snap.record.on)); // as Streams → Record does
        break;
    }
    case StreamActionDelegate::Action::None: break;
    }
}

void MainWindow::stopSelected()
{
    stopStreams(selectedStreams());
}

void MainWindow::restartSelected()
{
    restartStreams(selectedStreams());
}

void MainWindow::removeSelected()
{
    const QList<StreamId> ids = selectedStreams();
    if (!ids.isEmpty() && confirmRemove(ids))
        removeStreams(ids);
}

bool MainWindow::confirmRemove(const QList<StreamId> &ids)
{
    // Removing is final (counters, latency and messages go with the stream): always asked,
    // Cancel by default, since the row's trash button sits next to Restart.
    const QString text = ids.size() == 1
        ? tr("Remove the stream \"%1\"? Its counters, latency figures and captured messages are lost.")
              .arg(streamName(ids.first()))
        : tr("Remove %1 streams? Their counters, latency figures and captured messages are lost.").arg(ids.size());
    QMessageBox box(QMessageBox::Question, ids.size() == 1 ? tr("Remove stream") : tr("Remove streams"), text,
                    QMessageBox::Cancel, this);
    box.setObjectName(QStringLiteral("confirmRemove"));
    QPushButton *remove = box.addButton(tr("Remove"), QMessageBox::DestructiveRole);
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    return box.clickedButton() == remove;
}

void MainWindow::stopStreams(const QList<StreamId> &ids)
{
    if (!m_engine)
        return;
    for (StreamId id : ids)
        m_engine->stopStream(id);
    // The worker changes the state as soon as it runs the queued stop; show it shortly after
    // rather than at the next tick.
    QTimer::singleShot(20, this, [this] { refreshNow(false); });
}

void MainWindow::restartStreams(const QList<StreamId> &ids)
{
    if (!m_engine)
        return;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (StreamId id : ids) {
        m_engine->restartStream(id);
        m_startedAtMs.insert(id, now);
    }
    QTimer::singleShot(20, this, [this] { refreshNow(false); });
}

void MainWindow::removeStreams(const QList<StreamId> &ids)
{
    if (!m_engine || ids.isEmpty())
        return;
    for (StreamId id : ids) {
        m_alerts->forget(id);
        removeActiveAlerts(id, -1);
        m_history->forget(id);
        m_engine->removeStream(id);
    }
    m_workspace->setModified(true);
    refreshNow(false);
    onSelectionChanged();
}

QStringList MainWindow::streamNamesExcept(StreamId except) const
{
    QStringList names;
    for (StreamId id : m_engine->streamIds())
        if (id != except)
            names.append(m_engine->config(id).name);
    return names;
}

void MainWindow::addStream()
{
    if (!m_engine)
        return;
    StreamDialog dialog(streamNamesExcept(kInvalidStreamId), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    m_workspace->storeSecrets(dialog.secrets());
    const StreamConfig config = dialog.config();
    m_alerts->setRule(config.name, dialog.alertRule());
    const StreamId id = m_engine->addStream(config);
    syncNotifier();
    m_startedAtMs.insert(id, QDateTime::currentMSecsSinceEpoch());
    m_workspace->setModified(true);
    refreshNow(false);
    selectStream(id);
}

void MainWindow::editStream()
{
    const QList<StreamId> ids = selectedStreams();
    if (!m_engine || ids.size() != 1)
        return;
    const StreamId id = ids.first();
    const StreamConfig old = m_engine->config(id);
    StreamDialog dialog(streamNamesExcept(id), this);
    dialog.setConfig(old, m_alerts->ruleFor(old.name));
    if (dialog.exec() != QDialog::Accepted)
        return;
    m_workspace->storeSecrets(dialog.secrets());
    const StreamConfig config = dialog.config();
    if (config.name != old.name)
        m_alerts->renameStream(old.name, config.name);
    m_alerts->setRule(config.name, dialog.alertRule());
    m_engine->updateStream(id, config);
    syncNotifier(); // a renamed stream keeps its destinations
    m_startedAtMs.insert(id, QDateTime::currentMSecsSinceEpoch());
    m_workspace->setModified(true);
    refreshNow(false);
}

void MainWindow::subscribeSelected()
{
    const QList<StreamId> ids = selectedStreams();
    if (!m_engine || ids.size() != 1)
        return;
    bool ok = false;
    const QString text = QInputDialog::getText(
        this, tr("Subscribe"), tr("Binance stream names to SUBSCRIBE to, separated by spaces or commas:"),
        QLineEdit::Normal, QString(), &ok);
    const QStringList names = text.split(QRegularExpression(QStringLiteral("[\\s,]+")), Qt::SkipEmptyParts);
    if (!ok || names.isEmpty())
        return;
    const qint64 requestId = m_engine->subscribe(ids.first(), names);
    statusBar()->showMessage(tr("SUBSCRIBE sent with id %1; the result appears in Results").arg(requestId), 5000);
}

void MainWindow::sendToSelected()
{
    const QList<StreamId> ids = selectedStreams();
    if (!m_engine || ids.size() != 1)
        return;
    bool ok = false;
    const QString text = QInputDialog::getMultiLineText(
        this, tr("Send message"), tr("Text to send on %1:").arg(streamName(ids.first())), QString(), &ok);
    if (!ok || text.trimmed().isEmpty())
        return;
    if (!m_engine->sendMessage(ids.first(), text.trimmed()))
        statusBar()->showMessage(tr("Not sent: the stream is not connected"), 5000);
}

void MainWindow::copySelectedUrl()
{
    const QList<StreamId> ids = selectedStreams();
    if (m_engine && ids.size() == 1)
        QGuiApplication::clipboard()->setText(RedactedUrl::of(m_engine->config(ids.first()).url).toString());
}

void MainWindow::showContextMenu(const QPoint &pos)
{
    const QModelIndex index = m_table->indexAt(pos);
    if (index.isValid() && !m_table->selectionModel()->isRowSelected(index.row(), QModelIndex()))
        m_table->selectionModel()->setCurrentIndex(index,
                                                   QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    QMenu menu(this);
    m_actions->fillContextMenu(&menu);
    if (m_closeCapture && m_closeCapture->isEnabled()) { // an open capture selected
        menu.addSeparator();
        menu.addAction(m_closeCapture);
    }
    menu.exec(m_table->viewport()->mapToGlobal(pos));
}

} // namespace streamscope::ui

namespace streamscope::ui {

QString MainWindow::recordingFolder() const
{
    const QString fallback = QDir(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
                                 .filePath(QStringLiteral("StreamScope captures"));
    return QSettings().value(QStringLiteral("capture/dir"), fallback).toString();
}

void MainWindow::setRecordingFolder(const QString &dir)
{
    QSettings().setValue(QStringLiteral("capture/dir"), dir);
}

void MainWindow::setRecording(const QList<StreamId> &ids, bool on)
{
    if (!m_engine)
        return;
    const QString dir = recordingFolder();
    if (on && !QDir().mkpath(dir)) {
        QMessageBox::warning(
            this, tr("Record"),
            tr("%1: the folder cannot be created; choose another under Streams → Recording folder…").arg(dir));
        return;
    }
    for (StreamId id : ids) {
        if (!m_engine->contains(id))
            continue;
        RecordConfig record = m_engine->config(id).record;
        if (on) {
            record.dir = dir;
            record.enabled = true;
        } else {
            record.enabled = false; // the folder and settings stay for the next time
        }
        m_engine->setRecording(id, record);
    }
    m_workspace->setModified(true);
    refreshNow(false);
}

void MainWindow::toggleRecordingSelected()
{
    const QList<StreamId> ids = selectedStreams();
    int recording = 0;
    for (StreamId id : ids) {
        const StreamTableModel::Row *r = m_model->row(id);
        recording += r && r->snap.record.on ? 1 : 0;
    }
    setRecording(ids, ids.isEmpty() || recording < int(ids.size()));
}

} // namespace streamscope::ui
