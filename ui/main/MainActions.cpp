#include "MainActions.h"

#include "ControlIcons.h"

#include "Theme.h"

#include <QtCore/QSettings>
#include <QtCore/QUrl>
#include <QtGui/QAction>
#include <QtGui/QActionGroup>
#include <QtGui/QKeySequence>
#include <QtWidgets/QDockWidget>
#include <QtWidgets/QMainWindow>
#include <QtWidgets/QMenu>
#include <QtWidgets/QMenuBar>
#include <QtWidgets/QStyle>
#include <QtWidgets/QToolBar>
#include <QtWidgets/QToolButton>

namespace streamscope::ui {

namespace {
QAction *makeAction(QMainWindow *window, const QString &text, const QString &tip, const QKeySequence &key,
                    QStyle::StandardPixmap icon, const char *objectName)
{
    auto *a = new QAction(window->style()->standardIcon(icon), text, window);
    a->setObjectName(QLatin1String(objectName));
    a->setToolTip(key.isEmpty() ? tip : QStringLiteral("%1 (%2)").arg(tip, key.toString(QKeySequence::NativeText)));
    a->setStatusTip(tip);
    if (!key.isEmpty())
        a->setShortcut(key);
    return a;
}

QActionGroup *makeThemes(QMainWindow *window)
{
    auto *group = new QActionGroup(window);
    group->setExclusive(true);
    const QPair<QString, Theme::Mode> themes[] = {{MainActions::tr("Follow &system"), Theme::Mode::System},
                                                  {MainActions::tr("&Light"), Theme::Mode::Light},
                                                  {MainActions::tr("&Dark"), Theme::Mode::Dark}};
    for (const auto &t : themes) {
        QAction *a = group->addAction(t.first);
        a->setCheckable(true);
        a->setData(int(t.second));
    }
    return group;
}
} // namespace

MainActions::MainActions(QMainWindow *w)
    : QObject(w)
    , add(makeAction(w, tr("&Add stream…"), tr("Add a stream"), QKeySequence(Qt::CTRL | Qt::Key_N),
                     QStyle::SP_FileDialogNewFolder, "addStream"))
    , edit(makeAction(w, tr("&Edit stream…"), tr("Edit the selected stream"), QKeySequence(Qt::Key_F2),
                      QStyle::SP_FileDialogDetailedView, "editStream"))
    , stop(makeAction(w, tr("&Stop"), tr("Stop the selected streams"), QKeySequence(Qt::CTRL | Qt::Key_Period),
                      QStyle::SP_MediaStop, "stopStreams"))
    , restart(makeAction(w, tr("&Restart"), tr("Restart the selected streams"), QKeySequence(Qt::CTRL | Qt::Key_R),
                         QStyle::SP_BrowserReload, "restartStreams"))
    , remove(makeAction(w, tr("Re&move"), tr("Remove the selected streams"), QKeySequence(QKeySequence::Delete),
                        QStyle::SP_DialogDiscardButton, "removeStreams"))
    , stopAll(makeAction(w, tr("Stop &all"), tr("Stop every stream"),
                         QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Period), QStyle::SP_MediaPause, "stopAll"))
    , record(makeAction(w, tr("Re&cord"),
                        tr("Record the selected streams to disk (.ndjson.zst captures, docs/capture.md)"),
                        QKeySequence(Qt::CTRL | Qt::Key_E), QStyle::SP_DialogSaveButton, "recordStreams"))
    , recordFolder(makeAction(w, tr("Recording &folder…"), tr("The folder new recordings go to"), QKeySequence(),
                              QStyle::SP_DirIcon, "recordFolder"))
    , subscribe(makeAction(w, tr("S&ubscribe…"), tr("Send SUBSCRIBE for more Binance streams on the selected stream"),
                           QKeySequence(), QStyle::SP_ArrowRight, "subscribe"))
    , send(makeAction(w, tr("Send &message…"), tr("Send a text message on the selected stream"), QKeySequence(),
                      QStyle::SP_ArrowForward, "sendMessage"))
    , inspect(new QAction(tr("&Inspect messages"), w))
    , copyUrl(new QAction(tr("&Copy URL"), w))
    , findStream(makeAction(w, tr("&Filter streams"), tr("Type in the stream filter"), QKeySequence::Find,
                            QStyle::SP_FileDialogContentsView, "findStream"))
    , nextStream(makeAction(w, tr("&Next stream"), tr("Select the next stream in the table"),
                            QKeySequence(Qt::ALT | Qt::Key_Down), QStyle::SP_ArrowDown, "nextStream"))
    , previousStream(makeAction(w, tr("&Previous stream"), tr("Select the previous stream in the table"),
                                QKeySequence(Qt::ALT | Qt::Key_Up), QStyle::SP_ArrowUp, "previousStream"))
    , newWorkspace(makeAction(w, tr("&New workspace"), tr("Start an empty workspace"),
                              QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N), QStyle::SP_FileIcon, "newWorkspace"))
    , open(makeAction(w, tr("&Open workspace…"), tr("Open a workspace file"), QKeySequence::Open,
                      QStyle::SP_DialogOpenButton, "openWorkspace"))
    , save(makeAction(w, tr("&Save workspace"), tr("Save the workspace"), QKeySequence::Save,
                      QStyle::SP_DialogSaveButton, "saveWorkspace"))
    , saveAs(makeAction(w, tr("Save workspace &as…"), tr("Save the workspace to another file"),
                        // Not QKeySequence::SaveAs: it has no key on Windows, nor on X11 outside KDE and GNOME.
                        QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S), QStyle::SP_DialogSaveButton, "saveWorkspaceAs"))
    , connectAgent(makeAction(w, tr("Connect to &agent…"),
                              tr("Show the streams of a headless agent (streamscope --headless --metrics-port N) "
                                 "beside yours, read-only"),
                              QKeySequence(), QStyle::SP_DriveNetIcon, "connectAgent"))
    , disconnectAgents(makeAction(w, tr("&Disconnect agents"), tr("Stop showing the agents' streams"), QKeySequence(),
                                  QStyle::SP_DialogCloseButton, "disconnectAgents"))
    // Not QKeySequence::Quit: it has no key on some platforms (the offscreen one, for one).
    , quit(makeAction(w, tr("&Quit"), tr("Quit StreamScope"), QKeySequence(Qt::CTRL | Qt::Key_Q),
                      QStyle::SP_DialogCloseButton, "quit"))
    , resetLayout(new QAction(tr("Reset &layout"), w))
    , correctedLatency(new QAction(tr("&Corrected latency"), w))
    , themes(makeThemes(w))
    , userGuide(makeAction(w, tr("&User guide"), tr("Open the user guide in the browser"), QKeySequence::HelpContents,
                           QStyle::SP_DialogHelpButton, "userGuide"))
    , alertSound(new QAction(tr("&Sound on alert"), w))
    , alertRules(new QAction(tr("A&lert rules…"), w))
    , alertDestinations(new QAction(tr("Alert &destinations…"), w))
    , copyRows(makeAction(w, tr("&Copy rows"), tr("Copy the selected rows as tab-separated text, with a header"),
                          QKeySequence::Copy, QStyle::SP_FileIcon, "copyRows"))
    , copyRowsCsv(makeAction(w, tr("Copy rows as CS&V"),
                             tr("Copy the selected rows as comma-separated values (RFC 4180), with a header"),
                             QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C), QStyle::SP_FileIcon, "copyRowsCsv"))
    , about(makeAction(w, tr("&About StreamScope"), tr("Versions and licence"), QKeySequence(),
                       QStyle::SP_MessageBoxInformation, "about"))
    , exportTable(new QAction(tr("Stream &table as CSV…"), w))
    , exportStats(new QAction(tr("Stream &statistics as CSV…"), w))
    , exportHistogram(new QAction(tr("Latency &histogram as CSV…"), w))
    , exportRatePng(new QAction(tr("&Rate chart as PNG…"), w))
    , exportLatencyPng(new QAction(tr("&Latency chart as PNG…"), w))
    , exportRateSvg(new QAction(tr("Rate chart as S&VG…"), w))
    , exportLatencySvg(new QAction(tr("Latency chart as SV&G…"), w))
    , exportMessages(new QAction(tr("Inspector &messages as NDJSON…"), w))
    , m_window(w)
{
    exportTable->setObjectName(QStringLiteral("exportTable"));
    exportTable->setStatusTip(tr("Every row of the stream table, as sorted and filtered, in the columns shown"));
    exportStats->setObjectName(QStringLiteral("exportStats"));
    exportStats->setStatusTip(tr("Every field of the selected stream's Details pane, as field,value rows"));
    exportHistogram->setObjectName(QStringLiteral("exportHistogram"));
    exportHistogram->setStatusTip(tr("The buckets of the latency histogram shown: lower_ms, upper_ms, count, share"));
    exportRatePng->setObjectName(QStringLiteral("exportRatePng"));
    exportLatencyPng->setObjectName(QStringLiteral("exportLatencyPng"));
    exportRateSvg->setObjectName(QStringLiteral("exportRateSvg"));
    exportLatencySvg->setObjectName(QStringLiteral("exportLatencySvg"));
    exportMessages->setObjectName(QStringLiteral("exportMessages"));
    exportMessages->setStatusTip(tr("The messages the inspector shows (its filter applied), one a line as received"));
    // Delete belongs to text fields when they have focus: the table owns this shortcut.
    remove->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    // Ctrl+C belongs to the table (text fields keep their own copy).
    copyRows->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    copyRowsCsv->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    userGuide->setData(QUrl(QStringLiteral(STREAMSCOPE_USER_GUIDE_URL)));
    correctedLatency->setObjectName(QStringLiteral("correctedLatency"));
    correctedLatency->setCheckable(true);
    correctedLatency->setToolTip(tr("Latency corrected for the offset between this machine's clock and the venue's, "
                                    "where it is known (docs/clock.md)"));
    alertSound->setObjectName(QStringLiteral("alertSound"));
    alertRules->setObjectName(QStringLiteral("alertRules"));
    alertRules->setStatusTip(tr("Every stream's alert rules, what each would have raised on the last ten minutes, "
                                "and a test of each destination"));
    alertDestinations->setObjectName(QStringLiteral("alertDestinations"));
    alertDestinations->setStatusTip(tr("Webhook, Slack and Telegram destinations of every stream's alerts"));
    alertSound->setCheckable(true);
    alertSound->setChecked(QSettings().value(QStringLiteral("ui/alert_sound"), false).toBool());
    QObject::connect(alertSound, &QAction::toggled, alertSound,
                     [](bool on) { QSettings().setValue(QStringLiteral("ui/alert_sound"), on); });
    w->addAction(findStream);
}

void MainActions::addFreeze(QAction *freeze)
{
    if (!m_streamsMenu)
        return;
    m_streamsMenu->insertAction(subscribe, freeze);
    m_streamsMenu->insertSeparator(subscribe);
}

void MainActions::fillMenuBar(const QList<QDockWidget *> &docks)
{
    QMenuBar *bar = m_window->menuBar();
    QMenu *file = bar->addMenu(tr("&File"));
    file->addAction(newWorkspace);
    file->addAction(open);
    m_recentMenu = file->addMenu(tr("Open &recent"));
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    file->addSeparator();
    file->addAction(save);
    file->addAction(saveAs);
    file->addSeparator();
    file->addAction(connectAgent);
    file->addAction(disconnectAgents);
    file->addSeparator();
    QMenu *exports = file->addMenu(tr("&Export"));
    exports->setObjectName(QStringLiteral("exportMenu"));
    exports->addAction(exportTable);
    exports->addAction(exportStats);
    exports->addAction(exportHistogram);
    exports->addAction(exportRatePng);
    exports->addAction(exportLatencyPng);
    exports->addAction(exportRateSvg);
    exports->addAction(exportLatencySvg);
    exports->addAction(exportMessages);
    file->addSeparator();
    file->addAction(quit);

    QMenu *streams = bar->addMenu(tr("&Streams"));
    m_streamsMenu = streams;
    streams->setObjectName(QStringLiteral("streamsMenu"));
    streams->addAction(findStream);
    streams->addAction(previousStream);
    streams->addAction(nextStream);
    streams->addSeparator();
    streams->addAction(add);
    streams->addAction(edit);
    streams->addSeparator();
    streams->addAction(stop);
    streams->addAction(restart);
    streams->addAction(remove);
    streams->addAction(stopAll);
    streams->addSeparator();
    streams->addAction(record);
    streams->addAction(recordFolder);
    streams->addSeparator();
    streams->addAction(subscribe);
    streams->addAction(send);
    streams->addAction(inspect);
    streams->addAction(copyUrl);
    streams->addSeparator();
    streams->addAction(alertRules);
    streams->addAction(alertDestinations);

    QMenu *view = bar->addMenu(tr("&View"));
    for (QDockWidget *d : docks)
        view->addAction(d->toggleViewAction());
    view->addSeparator();
    view->addAction(correctedLatency);
    view->addAction(resetLayout);
    QMenu *theme = view->addMenu(tr("&Theme"));
    theme->addActions(themes->actions());
    view->addAction(alertSound);

    QMenu *help = bar->addMenu(tr("&Help"));
    help->addAction(userGuide);
    help->addSeparator();
    help->addAction(about);
}

void MainActions::addToolBar()
{
    QToolBar *toolbar = m_window->addToolBar(tr("Streams"));
    toolbar->setObjectName(QStringLiteral("streamsToolbar"));
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolbar->setIconSize(QSize(18, 18));
    toolbar->addAction(add);
    toolbar->addAction(edit);
    toolbar->addSeparator();
    toolbar->addAction(stop);
    toolbar->addAction(restart);
    toolbar->addAction(remove);
    toolbar->addAction(record);
    toolbar->addSeparator();
    toolbar->addAction(stopAll);
    toolbar->addSeparator();
    toolbar->addAction(open);
    toolbar->addAction(save);
    // The buttons whose text follows the selection ("Stop 3", "Start", "Stop recording") are
    // as wide as their longest text from the start, so that no button moves under the pointer.
    const QList<QPair<QAction *, QString>> widest{{stop, tr("&Stop %1").arg(8888)},
                                                  {restart, tr("&Restart %1").arg(8888)},
                                                  {remove, tr("Re&move %1").arg(8888)},
                                                  {record, tr("Stop re&cording")}};
    for (const auto &[action, text] : widest) {
        auto *button = qobject_cast<QToolButton *>(toolbar->widgetForAction(action));
        if (!button)
            continue;
        const QString shown = action->text();
        int width = button->sizeHint().width();
        action->setText(text);
        width = std::max(width, button->sizeHint().width());
        action->setText(shown);
        button->setMinimumWidth(width);
    }
}

void MainActions::fillContextMenu(QMenu *menu) const
{
    menu->addAction(edit);
    menu->addSeparator();
    menu->addAction(stop);
    menu->addAction(restart);
    menu->addAction(remove);
    menu->addAction(record);
    menu->addSeparator();
    menu->addAction(inspect);
    menu->addAction(copyRows);
    menu->addAction(copyRowsCsv);
    menu->addAction(exportStats);
    menu->addAction(copyUrl);
    menu->addAction(subscribe);
    menu->addAction(send);
    menu->addSeparator();
    menu->addAction(add);
}

void MainActions::updateForSelection(int n, int running, int recording)
{
    record->setEnabled(n > 0);
    // Every selected stream records: the action stops them; otherwise it starts the others.
    record->setText(n > 0 && recording == n ? tr("Stop re&cording") : tr("Re&cord"));
    edit->setEnabled(n == 1);
    stop->setEnabled(running > 0);
    restart->setEnabled(n > 0);
    remove->setEnabled(n > 0);
    subscribe->setEnabled(n == 1);
    send->setEnabled(n == 1);
    inspect->setEnabled(n > 0);
    copyUrl->setEnabled(n == 1);
    copyRows->setEnabled(n > 0);
    copyRowsCsv->setEnabled(n > 0);
    exportStats->setEnabled(n == 1);
    stop->setText(running > 1 ? tr("&Stop %1").arg(running) : tr("&Stop")); // what it would stop
    if (n > 0 && running == 0)
        restart->setText(n > 1 ? tr("St&art %1").arg(n) : tr("St&art"));
    else
        restart->setText(n > 1 ? tr("&Restart %1").arg(n) : tr("&Restart"));
    remove->setText(n > 1 ? tr("Re&move %1").arg(n) : tr("Re&move"));
}

void MainActions::updateIcons()
{
    stop->setIcon(controlIcon(QStyle::SP_MediaStop, m_window));
    restart->setIcon(controlIcon(QStyle::SP_BrowserReload, m_window));
    remove->setIcon(controlIcon(QStyle::SP_DialogDiscardButton, m_window));
    stopAll->setIcon(controlIcon(QStyle::SP_MediaPause, m_window));
}

void MainActions::checkTheme(Theme::Mode mode)
{
    for (QAction *a : themes->actions()) {
        if (a->data().toInt() == int(mode))
            a->setChecked(true);
    }
}

} // namespace streamscope::ui
