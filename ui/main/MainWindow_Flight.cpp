// The flight recorder in the desktop app (docs/capture.md, "Flight recorder"): Streams →
// Save the last N minutes and Streams → Flight recorder…, the status bar's memory figure, the
// save an alert makes, and the event log's links to the files saved.
#include "EventLogModel.h"
#include "Format.h"
#include "MainActions.h"
#include "MainWindow.h"
#include "StreamTableModel.h"
#include "WorkspaceController.h"

#include "Engine.h"

#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtCore/QUrl>
#include <QtGui/QClipboard>
#include <QtGui/QDesktopServices>
#include <QtGui/QGuiApplication>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QDialog>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QFileDialog>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QMenu>
#include <QtWidgets/QMenuBar>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QSpinBox>
#include <QtWidgets/QStatusBar>
#include <QtWidgets/QTableView>

namespace streamscope::ui {

void MainWindow::setupFlightRecorder()
{
    m_flightSave = new QAction(this);
    m_flightSave->setObjectName(QStringLiteral("flightSave"));
    m_flightSave->setStatusTip(tr("Write what the flight recorder holds of the selected streams to capture files"));
    m_flightSettings = new QAction(tr("&Flight recorder…"), this);
    m_flightSettings->setObjectName(QStringLiteral("flightSettings"));
    m_flightSettings->setStatusTip(tr("Keep every stream's last minutes in memory, within a memory cap"));
    connect(m_flightSave, &QAction::triggered, this, [this] { saveFlightRecordings(selectedStreams()); });
    connect(m_flightSettings, &QAction::triggered, this, &MainWindow::editFlightRecorder);
    // In the Streams menu, after the recording actions.
    for (QAction *a : menuBar()->actions()) {
        QMenu *menu = a->menu();
        if (!menu || !menu->actions().contains(m_actions->recordFolder))
            continue;
        const QList<QAction *> items = menu->actions();
        const qsizetype at = items.indexOf(m_actions->recordFolder) + 1;
        menu->insertActions(at < items.size() ? items[at] : nullptr, {m_flightSave, m_flightSettings});
        break;
    }

    m_statusFlight = new QLabel;
    m_statusFlight->setObjectName(QStringLiteral("statusFlight"));
    m_statusFlight->hide();
    statusBar()->addPermanentWidget(m_statusFlight);

    // An entry naming a saved file: double-click or the context menu shows it.
    m_eventView->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_eventView, &QTableView::doubleClicked, this, [](const QModelIndex &index) {
        const QString file = index.data(EventLogModel::FileRole).toString();
        if (!file.isEmpty())
            QDesktopServices::openUrl(QUrl::fromLocalFile(QFileInfo(file).absolutePath()));
    });
    connect(m_eventView, &QTableView::customContextMenuRequested, this, [this](const QPoint &pos) {
        const QString file = m_eventView->indexAt(pos).data(EventLogModel::FileRole).toString();
        if (file.isEmpty())
            return;
        QMenu menu(this);
        menu.addAction(tr("Show file"), this,
                       [file] { QDesktopServices::openUrl(QUrl::fromLocalFile(QFileInfo(file).absolutePath())); });
        menu.addAction(tr("Copy file path"), this,
                       [file] { QGuiApplication::clipboard()->setText(QDir::toNativeSeparators(file)); });
        menu.exec(m_eventView->viewport()->mapToGlobal(pos));
    });
    updateFlightStatus();
}

void MainWindow::setFlightRecorder(const FlightConfig &config)
{
    if (!m_engine || m_engine->flightRecorder() == config)
        return;
    m_engine->setFlightRecorder(config);
    m_workspace->setModified(true);
    updateFlightStatus();
}

QStringList MainWindow::saveFlightRecordings(const QList<StreamId> &ids)
{
    QStringList files;
    if (!m_engine)
        return files;
    for (StreamId id : ids) {
        const QString file = m_engine->saveFlightRecording(id, recordingFolder());
        if (file.isEmpty())
            continue;
        files << file;
        EventLogModel::Entry e;
        e.timeMs = QDateTime::currentMSecsSinceEpoch();
        e.stream = streamName(id);
        e.kind = tr("flight recorder");
        e.text =
            tr("saving the last %1 to %2")
                .arg(formatAgeMs(qint64(m_engine->flightRecorder().minutes) * 60000), QDir::toNativeSeparators(file));
        e.file = file;
        m_eventLog->add(e);
    }
    m_eventLog->flush();
    if (!files.isEmpty())
        statusBar()->showMessage(files.size() == 1 ? tr("Flight recorder saving to %1").arg(files.first())
                                                   : tr("Flight recorder: saving %1 files to %2")
                                                         .arg(files.size())
                                                         .arg(QFileInfo(files.first()).absolutePath()),
                                 8000);
    return files;
}

QString MainWindow::saveFlightForAlert(StreamId id)
{
    m_flightSaver.setEngine(m_engine);
    m_flightSaver.setFallbackDir(recordingFolder());
    return m_flightSaver.saveForAlert(id, m_steady.elapsed());
}

void MainWindow::updateFlightStatus()
{
    const FlightConfig config = m_engine ? m_engine->flightRecorder() : FlightConfig{};
    m_flightSave->setText(config.minutes == 1 ? tr("Save the &last minute")
                                              : tr("Save the &last %1 minutes").arg(config.minutes));
    m_flightSave->setEnabled(config.enabled && !selectedStreams().isEmpty());
    m_statusFlight->setVisible(config.enabled);
    if (!config.enabled)
        return;
    const double usedMb = double(m_engine->flightMemoryBytes()) / (1024.0 * 1024.0);
    m_statusFlight->setText(tr("✈ %1 of %2 MB").arg(usedMb, 0, 'f', 1).arg(config.memoryMb));
    quint64 evicted = 0;
    quint64 saved = 0;
    for (const StreamTableModel::Row &row : m_model->rows()) {
        evicted += row.snap.flight.evictedCapMessages;
        saved += row.snap.flight.savedFiles;
    }
    m_statusFlight->setToolTip(tr("Flight recorder: the last %1 of every stream in memory, at most %2 MB\n"
                                  "%3 let go early to stay within the cap · %4 saved")
                                   .arg(formatAgeMs(qint64(config.minutes) * 60000))
                                   .arg(config.memoryMb)
                                   .arg(countNoun(evicted, tr("message"), tr("messages")))
                                   .arg(countNoun(saved, tr("file"), tr("files"))));
}

void MainWindow::editFlightRecorder()
{
    if (!m_engine)
        return;
    const FlightConfig current = m_engine->flightRecorder();
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Flight recorder"));
    auto *on = new QCheckBox(tr("Keep the last minutes of every stream in memory"));
    on->setObjectName(QStringLiteral("flightEnabled"));
    on->setChecked(current.enabled);
    auto *minutes = new QSpinBox;
    minutes->setObjectName(QStringLiteral("flightMinutes"));
    minutes->setRange(1, 24 * 60);
    minutes->setSuffix(tr(" min"));
    minutes->setValue(current.minutes);
    auto *memory = new QSpinBox;
    memory->setObjectName(QStringLiteral("flightMemoryMb"));
    memory->setRange(1, 1024 * 1024);
    memory->setSuffix(tr(" MB"));
    memory->setValue(current.memoryMb);
    memory->setToolTip(tr("One cap for all streams: when it is reached, the oldest history of any stream goes first"));
    auto *folder = new QLineEdit(current.dir);
    folder->setObjectName(QStringLiteral("flightDir"));
    folder->setPlaceholderText(recordingFolder());
    auto *browse = new QPushButton(tr("Browse…"));
    connect(browse, &QPushButton::clicked, &dialog, [&] {
        const QString dir = QFileDialog::getExistingDirectory(
            &dialog, tr("Flight recorder folder"), folder->text().isEmpty() ? recordingFolder() : folder->text());
        if (!dir.isEmpty())
            folder->setText(dir);
    });
    auto *folderRow = new QHBoxLayout;
    folderRow->addWidget(folder, 1);
    folderRow->addWidget(browse);
    auto *every = new QSpinBox;
    every->setObjectName(QStringLiteral("flightAlertEvery"));
    every->setRange(0, 24 * 3600);
    every->setSuffix(tr(" s"));
    every->setValue(current.alertSaveEveryS);
    every->setToolTip(tr("An alert saves its stream's flight recorder at most this often"));
    auto *form = new QFormLayout(&dialog);
    form->addRow(on);
    form->addRow(tr("Keep:"), minutes);
    form->addRow(tr("Memory cap:"), memory);
    form->addRow(tr("Save to:"), folderRow);
    form->addRow(tr("Alerts save at most every:"), every);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted)
        return;
    FlightConfig c;
    c.enabled = on->isChecked();
    c.minutes = minutes->value();
    c.memoryMb = memory->value();
    c.dir = folder->text().trimmed();
    c.alertSaveEveryS = every->value();
    setFlightRecorder(c);
}

} // namespace streamscope::ui
