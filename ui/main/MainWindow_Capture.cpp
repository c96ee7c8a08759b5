// File → Open capture… and Close capture: a capture file shown as an offline, read-only row
// beside the live streams (docs/capture.md, "Opening a capture in the desktop app").
#include "CaptureList.h"
#include "EventLogModel.h"
#include "Format.h"
#include "LatencyChart.h"
#include "MainActions.h"
#include "MainWindow.h"
#include "MessageInspector.h"
#include "PeerText.h"
#include "RateChart.h"
#include "StreamHistory.h"
#include "StreamTableModel.h"

#include <QtCore/QDateTime>
#include <QtCore/QFileInfo>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QSettings>
#include <QtCore/QSortFilterProxyModel>
#include <QtCore/QStandardPaths>
#include <QtGui/QAction>
#include <QtWidgets/QFileDialog>
#include <QtWidgets/QMenu>
#include <QtWidgets/QMenuBar>
#include <QtWidgets/QMessageBox>
#include <QtWidgets/QStatusBar>
#include <QtWidgets/QTableView>

#include <cmath>

namespace streamscope::ui {

namespace {

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
    if (event == QLatin1String("closed") || event == QLatin1String("gap") || event == QLatin1String("reconnect"))
        return EventLogModel::Severity::Warning;
    return EventLogModel::Severity::Info;
}

QString utcText(qint64 us)
{
    return QDateTime::fromMSecsSinceEpoch(us / 1000, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

} // namespace

void MainWindow::setupCaptures()
{
    CaptureList *captures = m_hub->captures();
    m_openCapture = new QAction(tr("Open &capture…"), this);
    m_openCapture->setObjectName(QStringLiteral("openCapture"));
    m_openCapture->setStatusTip(
        tr("Open a recorded capture (.ndjson.zst or .ndjson) as an offline stream: its messages, latency and events"));
    m_closeCapture = new QAction(tr("C&lose capture"), this);
    m_closeCapture->setObjectName(QStringLiteral("closeCapture"));
    m_closeCapture->setStatusTip(tr("Close the selected captures"));
    m_closeCapture->setEnabled(false);
    // In the File menu, before "Connect to agent…".
    const QList<QAction *> menus = menuBar()->actions();
    for (QAction *menu : menus) {
        if (QMenu *file = menu->menu(); file && file->actions().contains(m_actions->connectAgent)) {
            file->insertAction(m_actions->connectAgent, m_openCapture);
            file->insertAction(m_actions->connectAgent, m_closeCapture);
            file->insertSeparator(m_actions->connectAgent);
            break;
        }
    }
    connect(m_openCapture, &QAction::triggered, this, [this] {
        QString path;
        if (m_captureChooser) {
            path = m_captureChooser();
        } else {
            QSettings settings;
            const QString dir = settings.value(QStringLiteral("capture/openDir"), recordingFolder()).toString();
            path = QFileDialog::getOpenFileName(this, tr("Open capture"), dir,
                                                tr("Captures (*.ndjson.zst *.ndjson *.zst);;All files (*)"));
            if (!path.isEmpty())
                settings.setValue(QStringLiteral("capture/openDir"), QFileInfo(path).absolutePath());
        }
        if (!path.isEmpty())
            openCapture(path);
    });
    connect(m_closeCapture, &QAction::triggered, this, [this] {
        for (StreamId id : selectedRows())
            closeCapture(id);
    });
    connect(captures, &CaptureList::progress, this, [this](const QString &path, int percent) {
        statusBar()->showMessage(tr("Reading %1: %2 %").arg(QFileInfo(path).fileName()).arg(percent), 2000);
    });
    connect(captures, &CaptureList::opened, this, &MainWindow::onCaptureOpened);
    connect(captures, &CaptureList::failed, this, [this](const QString &path, const QString &error) {
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
        statusBar()->showMessage(text, 10000);
        m_lastCaptureError = text;
        // Not modal: the window goes on (and a test is not held up).
        auto *box = new QMessageBox(QMessageBox::Warning, tr("Open capture"), text, QMessageBox::Ok, this);
        box->setObjectName(QStringLiteral("captureError"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });
}

void MainWindow::setCaptureFileChooser(std::function<QString()> chooser)
{
    m_captureChooser = std::move(chooser);
}

void MainWindow::openCapture(const QString &path)
{
    statusBar()->showMessage(tr("Reading %1…").arg(QFileInfo(path).fileName()));
    m_hub->captures()->open(path);
}

bool MainWindow::closeCapture(StreamId id)
{
    if (!m_hub->captures()->close(id))
        return false;
    m_history->forget(id);
    refreshNow(false); // the row goes
    onSelectionChanged();
    return true;
}

void MainWindow::onCaptureOpened(StreamId id)
{
    const CaptureList::Capture *c = m_hub->captures()->find(id);
    if (!c)
        return;
    const CaptureAnalysis &a = *c->data;
    refreshNow(false); // the row appears
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
    statusBar()->showMessage(tr("Opened %1: %2").arg(QFileInfo(a.path).fileName(), CaptureList::summary(a)), 10000);
    selectStream(id);
    onSelectionChanged();
}

void MainWindow::showCaptureSelection(StreamId current, const QString &name)
{
    const CaptureList::Capture *c = isCaptureStream(current) ? m_hub->captures()->find(current) : nullptr;
    bool anyCapture = false;
    for (StreamId id : selectedRows())
        anyCapture = anyCapture || isCaptureStream(id);
    m_closeCapture->setEnabled(anyCapture);
    if (!c) {
        if (m_rateChart->isOffline())
            m_rateChart->setOffline(QString(), {}, 1);
        return;
    }
    const CaptureAnalysis &a = *c->data;
    m_rateChart->setOffline(name, a.rate, a.rateBinSeconds);
    m_latencyChart->setStream(current, name);
    m_latencyChart->setFixed(a.latency, tr("%1 to %2 UTC").arg(utcText(a.firstUs), utcText(a.lastUs).mid(11)));
    m_inspector->showOffline(current, name, a.lastMessages, a.messagesLeftOut);
}

} // namespace streamscope::ui
