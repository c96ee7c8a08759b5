#include "CaptureController.h"

#include "CaptureList.h"
#include "Engine.h"
#include "EventLogModel.h"
#include "Format.h"
#include "MainActions.h"
#include "PeerText.h"
#include "SnapshotHub.h"
#include "StreamTableModel.h"
#include "WorkspaceController.h"

#include <QtCore/QDateTime>
#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QSettings>
#include <QtCore/QStandardPaths>
#include <QtGui/QAction>
#include <QtWidgets/QFileDialog>
#include <QtWidgets/QMainWindow>
#include <QtWidgets/QMenu>
#include <QtWidgets/QMenuBar>
#include <QtWidgets/QMessageBox>
#include <QtWidgets/QStatusBar>

#include <cmath>

namespace streamscope::ui {

namespace {

const QString kRecordDirKey = QStringLiteral("capture/dir");
const QString kOpenDirKey = QStringLiteral("capture/openDir");

// One event line as the event log shows it: its fields but "event", plain and escaped.
QString eventText(const CaptureEvent &e)
{
    QJsonObject o = QJsonDocument::fromJson(e.json).object();
    o.remove(QStringLiteral("event"));
    QStringList parts;
    for (auto it = o.constBegin(); it != o.constEnd(); ++it) {
        const QJsonValue v = it.value();
        const QString value = v.isString() ? v.toString()
            : v.isDouble()                 ? QString::number(v.toDouble(), 'g', 15)
            : v.isBool()                   ? (v.toBool() ? QStringLiteral("true") : QStringLiteral("false"))
                         : QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
        parts << QStringLiteral("%1: %2").arg(it.key(), value);
    }
    return peerText(parts.join(QStringLiteral(", ")), 500);
}

EventLogModel::Severity severityOf(const QString &event)
{
    if (event == QLatin1String("closed") || event == QLatin1String("gap") || event == QLatin1String("reconnect")
        || event == QLatin1String("book_desync"))
        return EventLogModel::Severity::Warning;
    return EventLogModel::Severity::Info;
}

} // namespace

CaptureController::CaptureController(Engine *engine, SnapshotHub *hub, StreamTableModel *model, EventLogModel *eventLog,
                                     WorkspaceController *workspace, MainActions *actions, QMainWindow *window)
    : QObject(window)
    , m_engine(engine)
    , m_hub(hub)
    , m_model(model)
    , m_eventLog(eventLog)
    , m_workspace(workspace)
    , m_window(window)
{
    connect(actions->recordFolder, &QAction::triggered, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(m_window, tr("Recording folder"), recordingFolder());
        if (!dir.isEmpty())
            setRecordingFolder(dir);
    });

    m_open = new QAction(tr("Open &capture…"), this);
    m_open->setObjectName(QStringLiteral("openCapture"));
    m_open->setStatusTip(
        tr("Open a recorded capture (.ndjson.zst or .ndjson) as an offline stream: its messages, latency and events"));
    m_close = new QAction(tr("C&lose capture"), this);
    m_close->setObjectName(QStringLiteral("closeCapture"));
    m_close->setStatusTip(tr("Close the selected captures"));
    m_close->setEnabled(false);
    // In the File menu, before "Connect to agent…".
    const QList<QAction *> menus = window->menuBar()->actions();
    for (QAction *menu : menus) {
        if (QMenu *file = menu->menu(); file && file->actions().contains(actions->connectAgent)) {
            file->insertAction(actions->connectAgent, m_open);
            file->insertAction(actions->connectAgent, m_close);
            file->insertSeparator(actions->connectAgent);
            break;
        }
    }
    connect(m_open, &QAction::triggered, this, [this] {
        QString path;
        if (m_chooser) {
            path = m_chooser();
        } else {
            QSettings settings;
            const QString dir = settings.value(kOpenDirKey, recordingFolder()).toString();
            path = QFileDialog::getOpenFileName(m_window, tr("Open capture"), dir,
                                                tr("Captures (*.ndjson.zst *.ndjson *.zst);;All files (*)"));
            if (!path.isEmpty())
                settings.setValue(kOpenDirKey, QFileInfo(path).absolutePath());
        }
        if (!path.isEmpty())
            open(path);
    });
    connect(m_close, &QAction::triggered, this, [this] {
        const QList<StreamId> rows = m_selected;
        for (StreamId id : rows)
            close(id);
    });
    CaptureList *captures = m_hub->captures();
    connect(captures, &CaptureList::progress, this, [this](const QString &path, int percent) {
        m_window->statusBar()->showMessage(tr("Reading %1: %2 %").arg(QFileInfo(path).fileName()).arg(percent), 2000);
    });
    connect(captures, &CaptureList::opened, this, &CaptureController::onOpened);
    connect(captures, &CaptureList::failed, this, &CaptureController::onFailed);
}

QString CaptureController::recordingFolder() const
{
    const QString fallback = QDir(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
                                 .filePath(QStringLiteral("StreamScope captures"));
    return QSettings().value(kRecordDirKey, fallback).toString();
}

void CaptureController::setRecordingFolder(const QString &dir)
{
    QSettings().setValue(kRecordDirKey, dir);
    emit recordingFolderChanged(dir);
}

void CaptureController::setRecording(const QList<StreamId> &ids, bool on)
{
    if (!m_engine)
        return;
    const QString dir = recordingFolder();
    if (on && !QDir().mkpath(dir)) {
        QMessageBox::warning(
            m_window, tr("Record"),
            tr("%1: the folder cannot be created; choose another under Streams → Recording folder…").arg(dir));
        return;
    }
    QStringList written; // stopping: the files the recordings went to
    int changed = 0;
    for (StreamId id : ids) {
        if (!m_engine->contains(id))
            continue;
        RecordConfig record = m_engine->config(id).record;
        if (on) {
            record.dir = dir;
            record.enabled = true;
        } else {
            record.enabled = false; // the folder and settings stay for the next time
            const RecordStatus status = m_engine->snapshot(id).record;
            if (status.on && !status.file.isEmpty()) {
                EventLogModel::Entry e;
                e.timeMs = QDateTime::currentMSecsSinceEpoch();
                e.stream = m_hub->streamName(id);
                e.kind = tr("recording");
                e.text = tr("recording stopped: %1 messages in %2")
                             .arg(formatCount(status.messages), QDir::toNativeSeparators(status.file));
                e.file = status.file; // a double-click opens its folder
                m_eventLog->add(e);
                written << status.file;
            }
        }
        m_engine->setRecording(id, record);
        ++changed;
    }
    m_eventLog->flush();
    if (on && changed > 0)
        m_window->statusBar()->showMessage(tr("Recording to %1").arg(QDir::toNativeSeparators(dir)), 8000);
    else if (written.size() == 1)
        m_window->statusBar()->showMessage(tr("Recording saved to %1").arg(QDir::toNativeSeparators(written.first())),
                                           15000);
    else if (written.size() > 1)
        m_window->statusBar()->showMessage(
            tr("%1 recordings saved to %2")
                .arg(written.size())
                .arg(QDir::toNativeSeparators(QFileInfo(written.first()).absolutePath())),
            15000);
    m_workspace->setModified(true);
    m_hub->poll(SnapshotHub::TickKind::Fast);
}

void CaptureController::toggleRecording(const QList<StreamId> &ids)
{
    int recording = 0;
    for (StreamId id : ids) {
        const StreamSnapshot *s = m_hub->find(id);
        recording += s && s->record.on ? 1 : 0;
    }
    setRecording(ids, ids.isEmpty() || recording < int(ids.size()));
}

void CaptureController::setSelection(const QList<StreamId> &rows)
{
    m_selected.clear();
    for (StreamId id : rows)
        if (isCaptureStream(id))
            m_selected.append(id);
    m_close->setEnabled(!m_selected.isEmpty());
}

void CaptureController::open(const QString &path)
{
    m_window->statusBar()->showMessage(tr("Reading %1…").arg(QFileInfo(path).fileName()));
    m_hub->captures()->open(path);
}

bool CaptureController::close(StreamId id)
{
    if (!m_hub->captures()->close(id))
        return false;
    m_hub->poll(SnapshotHub::TickKind::Fast); // the row goes
    emit closed(id);
    return true;
}

void CaptureController::onOpened(StreamId id)
{
    const CaptureList::Capture *c = m_hub->captures()->find(id);
    if (!c)
        return;
    const CaptureAnalysis &a = *c->data;
    m_hub->poll(SnapshotHub::TickKind::Fast); // the row appears
    const double span = std::max(a.spanSeconds(), 1e-6);
    const double p50 = a.latency.isEmpty() ? qQNaN() : a.latency.percentileUs(0.5) / 1000.0;
    const double p99 = a.latency.isEmpty() ? qQNaN() : a.latency.percentileUs(0.99) / 1000.0;
    m_model->setOfflineFigures(id, a.spanSeconds() > 0 ? double(a.messages) / span : 0.0,
                               a.spanSeconds() > 0 ? double(a.bytes) / span : 0.0, p50, p99);

    // Its events, with their recorded times, then what opening it found.
    const QString name = c->snap.name;
    for (const CaptureEvent &ev : a.events) {
        EventLogModel::Entry e;
        e.timeMs = ev.timeUs / 1000;
        e.stream = name;
        e.kind = peerText(ev.name, 40);
        e.text = eventText(ev);
        e.severity = severityOf(ev.name);
        m_eventLog->add(e);
    }
    EventLogModel::Entry e;
    e.timeMs = QDateTime::currentMSecsSinceEpoch();
    e.stream = name;
    e.kind = tr("capture");
    e.text = tr("opened: %1").arg(CaptureList::summary(a));
    e.severity = a.truncated || a.malformedLines > 0 || !a.error.isEmpty() ? EventLogModel::Severity::Warning
                                                                           : EventLogModel::Severity::Info;
    m_eventLog->add(e);
    m_eventLog->flush();
    m_window->statusBar()->showMessage(tr("Opened %1: %2").arg(QFileInfo(a.path).fileName(), CaptureList::summary(a)),
                                       10000);
    emit opened(id);
}

void CaptureController::onFailed(const QString &path, const QString &error)
{
    const QString text =
        tr("%1 cannot be opened as a capture: %2").arg(QFileInfo(path).fileName(), peerText(error, 500));
    EventLogModel::Entry e;
    e.timeMs = QDateTime::currentMSecsSinceEpoch();
    e.stream = QFileInfo(path).fileName();
    e.kind = tr("capture");
    e.text = text;
    e.severity = EventLogModel::Severity::Error;
    m_eventLog->add(e);
    m_eventLog->flush();
    m_window->statusBar()->showMessage(text, 10000);
    m_lastError = text;
    // Not modal: the window goes on (and a test is not held up).
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Open capture"), text, QMessageBox::Ok, m_window);
    box->setObjectName(QStringLiteral("captureError"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace streamscope::ui
