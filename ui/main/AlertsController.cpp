#include "AlertsController.h"

#include "AlertRulesDialog.h"
#include "AlertService.h"
#include "Engine.h"
#include "EventLogModel.h"
#include "Format.h"
#include "MainActions.h"
#include "NotifyDialog.h"
#include "StreamTableModel.h"
#include "WorkspaceController.h"

#include <QtCore/QDateTime>
#include <QtGui/QAction>
#include <QtGui/QStandardItemModel>
#include <QtWidgets/QApplication>
#include <QtWidgets/QMainWindow>
#include <QtWidgets/QStatusBar>
#include <QtWidgets/QStyle>
#include <QtWidgets/QSystemTrayIcon>

namespace streamscope::ui {

AlertsController::AlertsController(Engine *engine, alerts::AlertService *service, StreamTableModel *model,
                                   EventLogModel *eventLog, MainActions *actions, WorkspaceController *workspace,
                                   QMainWindow *window)
    : QObject(window)
    , m_engine(engine)
    , m_service(service)
    , m_model(model)
    , m_eventLog(eventLog)
    , m_actions(actions)
    , m_workspace(workspace)
    , m_window(window)
    , m_active(new QStandardItemModel(0, 3, this))
{
    m_active->setHorizontalHeaderLabels({tr("Since"), tr("Stream"), tr("Alert")});
    if (QSystemTrayIcon::isSystemTrayAvailable()) {
        m_tray = new QSystemTrayIcon(this);
        QIcon icon = window->windowIcon();
        if (icon.isNull())
            icon = window->style()->standardIcon(QStyle::SP_ComputerIcon);
        m_tray->setIcon(icon);
        m_tray->setToolTip(QStringLiteral("StreamScope"));
        m_tray->show();
    }
    connect(m_service, &alerts::AlertService::alertRaised, this, &AlertsController::onRaised);
    connect(m_service, &alerts::AlertService::alertCleared, this, &AlertsController::onCleared);
    connect(&m_service->notifier(), &alerts::Notifier::deliveryFailed, this, [this](int, const QString &text) {
        m_eventLog->add(
            {QDateTime::currentMSecsSinceEpoch(), QString(), tr("notify"), text, EventLogModel::Severity::Error});
    });
    connect(m_actions->alertDestinations, &QAction::triggered, this, &AlertsController::editDestinations);
    connect(m_actions->alertRules, &QAction::triggered, this, &AlertsController::editRules);
    if (m_engine) {
        connect(m_engine, &Engine::streamAdded, this, &AlertsController::streamStarted);
        connect(m_engine, &Engine::streamRemoved, this, [this](StreamId id) {
            forget(id);
            syncDestinations();
        });
    }
}

void AlertsController::onTick(const SnapshotHub::Tick &tick)
{
    // One instrument across venues first, once a second: the cross-venue rules are evaluated on
    // it. Its pass over every stream runs on its own tick of the second (kCrossVenuePhase), not
    // on the slow one with the charts; a slow poll out of turn runs it too.
    if (tick.phase == SnapshotHub::kCrossVenuePhase || tick.phase == SnapshotHub::kAllDue) {
        QVector<alerts::CrossVenueMonitor::Input> inputs;
        for (const StreamTableModel::Row &row : m_model->rows()) {
            if (!row.offline)
                inputs.append({&row.snap, row.p50Ms});
        }
        m_service->updateCrossVenue(inputs, tick.nowMs);
    }
    // Each stream once a second, on the tick it is due (its latency windowed just before).
    m_evaluatedLastTick = 0;
    if (tick.phase == SnapshotHub::kNoneDue)
        return;
    for (const StreamTableModel::Row &row : m_model->rows()) {
        if (row.offline || !tick.due(row.snap.id))
            continue; // an open capture: nothing happens to it now
        ++m_evaluatedLastTick;
        m_trail.record(row.snap.id, row.snap.name,
                       m_service->evaluate(row.snap, {row.msgsPerSec, row.p99Ms, row.firstSeenMs}, tick.nowMs),
                       tick.nowMs);
    }
}

void AlertsController::streamStarted(StreamId id)
{
    m_service->streamStarted(id, QDateTime::currentMSecsSinceEpoch());
}

void AlertsController::forgetRows(const QList<StreamId> &ids)
{
    for (StreamId id : ids)
        forget(id);
}

void AlertsController::forget(StreamId id)
{
    m_service->forget(id);
    m_trail.forget(id);
    removeRows(id, -1);
}

QVector<StreamConfig> AlertsController::streamConfigs() const
{
    QVector<StreamConfig> streams;
    if (m_engine)
        for (StreamId id : m_engine->streamIds())
            streams.append(m_engine->config(id));
    return streams;
}

void AlertsController::syncDestinations()
{
    m_service->setDestinations(m_service->destinations(), streamConfigs());
}

void AlertsController::editDestinations()
{
    NotifyDialog dialog(&m_service->notifier(), m_window);
    dialog.setTargets(m_service->destinations());
    if (dialog.exec() != QDialog::Accepted || dialog.targets() == m_service->destinations())
        return;
    const QList<NotifyTarget> targets = dialog.targets();
    m_workspace->loadNotifySecrets(targets);
    m_service->setDestinations(targets, streamConfigs());
    m_workspace->setModified(true);
}

void AlertsController::editRules()
{
    QStringList names;
    for (const StreamTableModel::Row &row : m_model->rows())
        if (!row.offline && !names.contains(row.snap.name))
            names << row.snap.name;
    AlertRulesDialog dialog(&m_trail, &m_service->notifier(), names, m_window);
    alerts::AlertMonitor &monitor = m_service->monitor();
    dialog.setRules(monitor.rules());
    if (dialog.exec() != QDialog::Accepted || dialog.rules() == monitor.rules())
        return;
    monitor.setRules(dialog.rules());
    m_workspace->setModified(true);
}

void AlertsController::onRaised(StreamId id, int condition, const alerts::AlertEvent &event)
{
    m_model->setAlert(id, m_service->monitor().activeText(id));
    m_eventLog->addAlertRaised(event.stream, event.text, event.flightFile);
    auto *since = new QStandardItem(formatTimeMs(event.timeMs).left(8));
    since->setData(id, Qt::UserRole);
    since->setData(condition, Qt::UserRole + 1);
    m_active->appendRow({since, new QStandardItem(event.stream), new QStandardItem(event.text)});
    emit activeCountChanged(m_active->rowCount());
    // Seen without a tray: the taskbar entry flashes (while the window is not active), and a
    // beep if the user asked for one.
    QApplication::alert(m_window);
    if (m_actions->alertSound->isChecked())
        QApplication::beep();
    const QString title = tr("StreamScope: %1").arg(event.stream);
    if (m_tray && m_tray->isVisible())
        m_tray->showMessage(title, event.text, QSystemTrayIcon::Warning, 8000);
    m_window->statusBar()->showMessage(tr("Alert on %1: %2").arg(event.stream, event.text), 8000);
    emit alertNotified(title, event.text);
}

void AlertsController::onCleared(StreamId id, int condition, const alerts::AlertEvent &event)
{
    m_model->setAlert(id, m_service->monitor().activeText(id));
    m_eventLog->addAlertCleared(event.stream, event.text);
    removeRows(id, condition);
}

void AlertsController::removeRows(StreamId id, int condition)
{
    const int before = m_active->rowCount();
    for (int row = m_active->rowCount() - 1; row >= 0; --row) {
        const QStandardItem *first = m_active->item(row, 0);
        if (first->data(Qt::UserRole).toUInt() == id
            && (condition < 0 || first->data(Qt::UserRole + 1).toInt() == condition))
            m_active->removeRow(row);
    }
    if (m_active->rowCount() != before)
        emit activeCountChanged(m_active->rowCount());
}

} // namespace streamscope::ui
