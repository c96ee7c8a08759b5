// MainWindow, continued: the commands that act on the selected streams (add, edit, stop,
// restart, remove, subscribe, send, the row's buttons and the context menu). See MainWindow.h.

#include "MainWindow.h"

#include "AlertService.h"
#include "AlertsController.h"
#include "CaptureController.h"
#include "Engine.h"
#include "MainActions.h"
#include "RedactedUrl.h"
#include "SelectionController.h"
#include "StreamActionDelegate.h"
#include "StreamDialog.h"
#include "StreamSortProxy.h"
#include "StreamTableModel.h"

#include <QtCore/QRegularExpression>
#include <QtGui/QClipboard>
#include <QtGui/QGuiApplication>
#include <QtWidgets/QInputDialog>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QMenu>
#include <QtWidgets/QMessageBox>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QStatusBar>
#include <QtWidgets/QTableView>

namespace streamscope::ui {

void MainWindow::updateActionsForSelection()
{
    const QList<StreamId> ids = selectedStreams();
    int running = 0;
    int recording = 0;
    for (StreamId id : ids) {
        const StreamTableModel::Row *r = m_model->row(id);
        running += r && isRunning(r->snap.state) ? 1 : 0;
        recording += r && r->snap.record.on ? 1 : 0;
    }
    m_actions->updateForSelection(int(ids.size()), running, recording);
}

void MainWindow::onRowAction(const QModelIndex &proxyIndex, StreamActionDelegate::Action action)
{
    const StreamId id = m_model->idAt(m_proxy->mapToSource(proxyIndex).row());
    if (id == kInvalidStreamId)
        return;
    switch (action) {
    case StreamActionDelegate::Action::Stop: stopStreams({id}); break;
    case StreamActionDelegate::Action::Start:
    case StreamActionDelegate::Action::Restart: restartStreams({id}); break;
    case StreamActionDelegate::Action::Remove:
        if (confirmRemove({id}))
            removeStreams({id});
        break;
    case StreamActionDelegate::Action::Record: {
        const StreamTableModel::Row *r = m_model->row(id);
        m_capture->setRecording({id}, !(r && r->snap.record.on)); // as Streams → Record does
        break;
    }
    case StreamActionDelegate::Action::None: break;
    }
}

bool MainWindow::confirmRemove(const QList<StreamId> &ids)
{
    // Removing is final (counters, latency and messages go with the stream): always asked,
    // Cancel by default, since the row's trash button sits next to Restart.
    const QString text = ids.size() == 1
        ? tr("Remove the stream \"%1\"? Its counters, latency figures and captured messages are lost.")
              .arg(m_hub->streamName(ids.first()))
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
}

void MainWindow::restartStreams(const QList<StreamId> &ids)
{
    if (!m_engine)
        return;
    for (StreamId id : ids) {
        m_engine->restartStream(id);
        m_alerts->streamStarted(id);
    }
}

void MainWindow::removeStreams(const QList<StreamId> &ids)
{
    if (!m_engine || ids.isEmpty())
        return;
    for (StreamId id : ids)
        m_engine->removeStream(id); // Engine::streamRemoved: its alerts end
    m_workspace->setModified(true);
    refreshNow(false); // the rows go, and their history
    m_selection->showSelection();
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
    m_alertService->monitor().setRule(config.name, dialog.alertRule());
    const StreamId id = m_engine->addStream(config); // Engine::streamAdded: its alert warm-up starts
    m_alerts->syncDestinations();
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
    alerts::AlertMonitor &rules = m_alertService->monitor();
    const alerts::AlertRule oldRule = rules.ruleFor(old.name);
    dialog.setConfig(old, oldRule);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const StreamConfig config = dialog.config();
    alerts::AlertRule sameRule = oldRule; // as the dialog gives it back when nothing changed
    sameRule.stream = config.name;
    if (Workspace::sameStream(config, old) && dialog.alertRule() == sameRule && dialog.secrets().isEmpty())
        return; // Apply with nothing changed: the stream goes on undisturbed, the workspace unmodified
    m_workspace->storeSecrets(dialog.secrets());
    if (config.name != old.name)
        rules.renameStream(old.name, config.name);
    rules.setRule(config.name, dialog.alertRule());
    m_engine->updateStream(id, config);
    m_alerts->syncDestinations(); // a renamed stream keeps its destinations
    m_alerts->streamStarted(id);
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
        this, tr("Send message"), tr("Text to send on %1:").arg(m_hub->streamName(ids.first())), QString(), &ok);
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
    if (m_capture->closeAction()->isEnabled()) { // an open capture selected
        menu.addSeparator();
        menu.addAction(m_capture->closeAction());
    }
    menu.exec(m_table->viewport()->mapToGlobal(pos));
}

} // namespace streamscope::ui
