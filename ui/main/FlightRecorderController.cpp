#include "FlightRecorderController.h"

#include "CaptureController.h"
#include "Engine.h"
#include "EventLogModel.h"
#include "FlightRecorderDialog.h"
#include "Format.h"
#include "MainActions.h"
#include "SelectionController.h"
#include "SnapshotHub.h"
#include "WorkspaceController.h"

#include <QtCore/QDateTime>
#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtGui/QAction>
#include <QtWidgets/QLabel>
#include <QtWidgets/QMainWindow>
#include <QtWidgets/QMenu>
#include <QtWidgets/QMenuBar>
#include <QtWidgets/QStatusBar>

namespace streamscope::ui {

FlightRecorderController::FlightRecorderController(Engine *engine, SnapshotHub *hub, SelectionController *selection,
                                                   CaptureController *capture, EventLogModel *eventLog,
                                                   WorkspaceController *workspace, MainActions *actions,
                                                   QMainWindow *window)
    : QObject(window)
    , m_engine(engine)
    , m_hub(hub)
    , m_selection(selection)
    , m_capture(capture)
    , m_eventLog(eventLog)
    , m_workspace(workspace)
    , m_window(window)
{
    m_save = new QAction(this);
    m_save->setObjectName(QStringLiteral("flightSave"));
    m_settings = new QAction(tr("&Flight recorder…"), this);
    m_settings->setObjectName(QStringLiteral("flightSettings"));
    m_settings->setStatusTip(tr("Keep every stream's last minutes in memory, within a memory cap"));
    connect(m_save, &QAction::triggered, this, [this] { save(m_selection->selectedStreams()); });
    connect(m_settings, &QAction::triggered, this, &FlightRecorderController::editSettings);
    // In the Streams menu, after the recording actions.
    for (QAction *a : window->menuBar()->actions()) {
        QMenu *menu = a->menu();
        if (!menu || !menu->actions().contains(actions->recordFolder))
            continue;
        const QList<QAction *> items = menu->actions();
        const qsizetype at = items.indexOf(actions->recordFolder) + 1;
        menu->insertActions(at < items.size() ? items[at] : nullptr, {m_save, m_settings});
        break;
    }

    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("statusFlight"));
    m_status->hide();
    window->statusBar()->addPermanentWidget(m_status);
    refresh();
}

void FlightRecorderController::setConfig(const FlightConfig &config)
{
    if (!m_engine || m_engine->flightRecorder() == config)
        return;
    m_engine->setFlightRecorder(config);
    m_workspace->setModified(true);
    refresh();
}

QStringList FlightRecorderController::save(const QList<StreamId> &ids)
{
    QStringList files;
    if (!m_engine)
        return files;
    for (StreamId id : ids) {
        const QString file = m_engine->saveFlightRecording(id, m_capture->recordingFolder());
        if (file.isEmpty())
            continue;
        files << file;
        EventLogModel::Entry e;
        e.timeMs = QDateTime::currentMSecsSinceEpoch();
        e.stream = m_hub->streamName(id);
        e.kind = tr("flight recorder");
        e.text =
            tr("saving the last %1 to %2")
                .arg(formatAgeMs(qint64(m_engine->flightRecorder().minutes) * 60000), QDir::toNativeSeparators(file));
        e.file = file;
        m_eventLog->add(e);
    }
    m_eventLog->flush();
    if (!files.isEmpty())
        m_window->statusBar()->showMessage(files.size() == 1 ? tr("Flight recorder saving to %1").arg(files.first())
                                                             : tr("Flight recorder: saving %1 files to %2")
                                                                   .arg(files.size())
                                                                   .arg(QFileInfo(files.first()).absolutePath()),
                                           8000);
    return files;
}

void FlightRecorderController::refresh()
{
    const FlightConfig config = m_engine ? m_engine->flightRecorder() : FlightConfig{};
    const QString save =
        config.minutes == 1 ? tr("Save the &last minute") : tr("Save the &last %1 minutes").arg(config.minutes);
    // Off, the entry is greyed: it says why, and where to turn the recorder on.
    m_save->setText(config.enabled ? save : tr("%1 (flight recorder off)").arg(save));
    m_save->setStatusTip(config.enabled
                             ? tr("Write what the flight recorder holds of the selected streams to capture files")
                             : tr("The flight recorder is off: turn it on under Streams → Flight recorder…"));
    m_save->setToolTip(m_save->statusTip());
    m_save->setEnabled(config.enabled && !m_selection->selectedStreams().isEmpty());
    m_status->setVisible(config.enabled);
    if (!config.enabled)
        return;
    const double usedMb = double(m_engine->flightMemoryBytes()) / (1024.0 * 1024.0);
    m_status->setText(tr("✈ %1 of %2 MB").arg(usedMb, 0, 'f', 1).arg(config.memoryMb));
    quint64 evicted = 0;
    quint64 saved = 0;
    for (const StreamSnapshot &s : m_hub->snapshots()) {
        evicted += s.flight.evictedCapMessages;
        saved += s.flight.savedFiles;
    }
    m_status->setToolTip(tr("Flight recorder: the last %1 of every stream in memory, at most %2 MB\n"
                            "%3 let go early to stay within the cap · %4 saved")
                             .arg(formatAgeMs(qint64(config.minutes) * 60000))
                             .arg(config.memoryMb)
                             .arg(countNoun(evicted, tr("message"), tr("messages")))
                             .arg(countNoun(saved, tr("file"), tr("files"))));
}

void FlightRecorderController::editSettings()
{
    if (!m_engine)
        return;
    FlightRecorderDialog dialog(m_engine->flightRecorder(), m_capture->recordingFolder(), m_window);
    if (dialog.exec() == QDialog::Accepted)
        setConfig(dialog.config());
}

} // namespace streamscope::ui
