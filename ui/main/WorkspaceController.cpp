#include "WorkspaceController.h"

#include "AlertService.h"
#include "Engine.h"
#include "KeychainStore.h"
#include "WidgetHelpers.h"

#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtCore/QSettings>
#include <QtCore/QSignalBlocker>
#include <QtWidgets/QFileDialog>
#include <QtWidgets/QMainWindow>
#include <QtWidgets/QMenu>
#include <QtWidgets/QMessageBox>
#include <QtWidgets/QStatusBar>

namespace streamscope::ui {

namespace {
const QString kRecentKey = QStringLiteral("workspace/recent");
const QString kLastDirKey = QStringLiteral("workspace/lastDir");

// The keychain entries a stream refers to ("keychain:NAME" in its secrets and headers).
QStringList secretNames(const StreamConfig &c)
{
    QStringList refs = {c.appKey, c.session};
    for (const auto &h : c.headers)
        refs.append(h.second);
    QStringList names;
    for (const QString &r : refs) {
        if (KeychainStore::isKeychainRef(r))
            names.append(KeychainStore::nameOf(r));
    }
    return names;
}
} // namespace

WorkspaceController::WorkspaceController(Engine *engine, alerts::AlertService *alerts, QMainWindow *window,
                                         Layout layout)
    : QObject(window)
    , m_engine(engine)
    , m_alerts(alerts)
    , m_window(window)
    , m_layout(std::move(layout))
    , m_keychain(new KeychainStore(this))
{
    connect(m_keychain, &KeychainStore::loaded, this, &WorkspaceController::onSecretLoaded);
    connect(m_keychain, &KeychainStore::failed, this, &WorkspaceController::keychainFailed);
    if (m_alerts) {
        connect(&m_alerts->monitor(), &alerts::AlertMonitor::rulesChanged, this, [this] { setModified(true); });
        connect(m_alerts, &alerts::AlertService::instrumentAliasesChanged, this, [this] { setModified(true); });
    }
    updateTitle();
}

Workspace WorkspaceController::current() const
{
    Workspace ws;
    if (m_engine) {
        for (StreamId id : m_engine->streamIds())
            ws.streams.append(m_engine->config(id));
        ws.flight = m_engine->flightRecorder();
    }
    if (m_alerts) {
        QVector<AlertRule> rules;
        for (const AlertRule &r : m_alerts->monitor().rules()) {
            bool keep = r.stream == AlertRule::kAnyStream;
            for (const StreamConfig &c : std::as_const(ws.streams))
                keep = keep || c.name == r.stream;
            if (keep)
                rules.append(r);
        }
        ws.alerts = AlertRule::toJson(rules);
        ws.notify = m_alerts->destinations();
        ws.instrumentAliases = m_alerts->crossVenue().aliases();
        ws.crossVenue = m_alerts->crossVenueConfig();
    }
    if (m_layout.save)
        ws.layout = m_layout.save();
    if (m_layout.saveAgents)
        ws.agents = m_layout.saveAgents();
    return ws;
}

bool WorkspaceController::open(const QString &path, QString *error)
{
    Loaded loaded;
    if (!read(path, loaded, error))
        return false;
    apply(loaded, QFileInfo(path).absoluteFilePath());
    return true;
}

void WorkspaceController::show(const Workspace &ws, const QString &path)
{
    apply(fromMemory(ws), path);
}

void WorkspaceController::apply(const Loaded &loaded, const QString &path)
{
    if (m_engine) {
        const QList<StreamId> old = m_engine->streamIds();
        for (StreamId id : old)
            m_engine->removeStream(id); // Engine::streamRemoved: its alerts are forgotten
    }
    emit streamsCleared();
    for (const QString &text : loaded.warnings)
        emit warning(text);
    if (m_alerts) {
        const QSignalBlocker quiet(&m_alerts->monitor()); // the rules are the file's: no change to save
        m_alerts->monitor().setRules(loaded.rules);
    }
    const Workspace &ws = loaded.workspace;
    loadSecretsFor(ws.streams);
    if (m_engine) {
        m_engine->setFlightRecorder(ws.flight);
        for (const StreamConfig &c : ws.streams)
            m_engine->addStream(c); // Engine::streamAdded: their alert warm-up starts now
    }
    QList<NotifyTarget> allTargets = ws.notify;
    for (const StreamConfig &c : ws.streams)
        allTargets += c.notify;
    loadNotifySecrets(allTargets);
    if (m_alerts) {
        m_alerts->setDestinations(ws.notify, ws.streams);
        m_alerts->setInstrumentAliases(ws.instrumentAliases);
        m_alerts->setCrossVenueConfig(ws.crossVenue);
    }
    if (m_layout.restore)
        m_layout.restore(ws.layout);
    loadAgentSecrets(ws.agents);
    if (m_layout.restoreAgents)
        m_layout.restoreAgents(ws.agents); // they reconnect now
    setOpened(path);
    emit applied();
}

void WorkspaceController::startNew()
{
    if (maybeSave())
        show(Workspace(), QString());
}

void WorkspaceController::openOrWarn(const QString &path)
{
    QString error;
    if (!open(path, &error))
        QMessageBox::warning(m_window, tr("Cannot open workspace"), error);
}

bool WorkspaceController::read(const QString &path, Loaded &out, QString *error)
{
    Loaded loaded;
    const Workspace::LoadResult result = Workspace::load(path, loaded.workspace);
    if (!result.ok) {
        if (error)
            *error = result.error;
        return false;
    }
    QString alertError;
    if (!AlertRule::fromJson(loaded.workspace.alerts, loaded.rules, &alertError)) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, alertError);
        return false;
    }
    loaded.warnings = result.warnings;
    out = loaded;
    return true;
}

WorkspaceController::Loaded WorkspaceController::fromMemory(const Workspace &ws)
{
    Loaded loaded;
    loaded.workspace = ws;
    QString alertError;
    if (!AlertRule::fromJson(ws.alerts, loaded.rules, &alertError)) {
        loaded.rules.clear();
        loaded.warnings.append(tr("Alert rules ignored: %1").arg(alertError));
    }
    return loaded;
}

void WorkspaceController::setModified(bool modified)
{
    if (m_modified == modified)
        return;
    m_modified = modified;
    updateTitle();
}

void WorkspaceController::setOpened(const QString &path)
{
    m_path = path;
    m_saveNote.clear();
    if (!path.isEmpty())
        addRecent(path);
    m_modified = false;
    updateTitle();
}

bool WorkspaceController::write(const QString &path, QString *error)
{
    const Workspace ws = current();
    QString err;
    if (!ws.save(path, &err)) {
        if (error)
            *error = err;
        return false;
    }
    m_path = path;
    m_modified = false;
    addRecent(path);
    updateTitle();
    return true;
}

bool WorkspaceController::save()
{
    if (m_path.isEmpty())
        return saveAs();
    QString error;
    if (!write(m_path, &error)) {
        QMessageBox::warning(m_window, tr("Cannot save workspace"), error);
        return false;
    }
    m_window->statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(m_path)), 4000);
    return true;
}

bool WorkspaceController::saveAs()
{
    if (!m_saveNote.isEmpty()) {
        QMessageBox note(QMessageBox::Information, tr("Save the demo workspace"), m_saveNote,
                         QMessageBox::Save | QMessageBox::Cancel, m_window);
        note.setObjectName(QStringLiteral("saveNote"));
        if (note.exec() != QMessageBox::Save)
            return false;
    }
    QSettings settings;
    QString suggested = m_path;
    if (suggested.isEmpty())
        suggested =
            QDir(settings.value(kLastDirKey, QDir::homePath()).toString()).filePath(QStringLiteral("workspace.json"));
    QString path = QFileDialog::getSaveFileName(m_window, tr("Save workspace as"), suggested,
                                                tr("StreamScope workspaces (*.json)"));
    if (path.isEmpty())
        return false;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".json");
    settings.setValue(kLastDirKey, QFileInfo(path).absolutePath());
    QString error;
    if (!write(path, &error)) {
        QMessageBox::warning(m_window, tr("Cannot save workspace"), error);
        return false;
    }
    return true;
}

bool WorkspaceController::maybeSave()
{
    if (!m_modified)
        return true;
    const auto answer =
        QMessageBox::question(m_window, tr("Unsaved changes"),
                              tr("The workspace %1 has unsaved changes. Save them?")
                                  .arg(m_path.isEmpty() ? tr("(untitled)") : QFileInfo(m_path).fileName()),
                              QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

void WorkspaceController::chooseAndOpen()
{
    if (!maybeSave())
        return;
    QSettings settings;
    const QString path =
        QFileDialog::getOpenFileName(m_window, tr("Open workspace"), settings.value(kLastDirKey).toString(),
                                     tr("StreamScope workspaces (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    settings.setValue(kLastDirKey, QFileInfo(path).absolutePath());
    openOrWarn(path);
}

void WorkspaceController::fillRecentMenu(QMenu *menu)
{
    menu->clear();
    const QStringList recent = QSettings().value(kRecentKey).toStringList();
    for (const QString &path : recent) {
        QAction *a = menu->addAction(QFileInfo(path).fileName());
        a->setToolTip(plainToolTip(path));
        a->setStatusTip(path);
        connect(a, &QAction::triggered, this, [this, path] {
            if (maybeSave())
                openOrWarn(path);
        });
    }
    if (recent.isEmpty()) {
        menu->addAction(tr("(none)"))->setEnabled(false);
    } else {
        menu->addSeparator();
        connect(menu->addAction(tr("Clear list")), &QAction::triggered, this, [] { QSettings().remove(kRecentKey); });
    }
}

void WorkspaceController::addRecent(const QString &path)
{
    QSettings settings;
    QStringList recent = settings.value(kRecentKey).toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings.setValue(kRecentKey, recent);
}

void WorkspaceController::updateTitle()
{
    const QString name = m_path.isEmpty() ? tr("Untitled") : QFileInfo(m_path).fileName();
    m_window->setWindowTitle(
        QStringLiteral("%1%2 — StreamScope").arg(name, m_modified ? QStringLiteral(" *") : QString()));
    m_window->setWindowFilePath(m_path);
}

void WorkspaceController::storeSecrets(const QList<QPair<QString, QString>> &secrets)
{
    for (const auto &secret : secrets)
        m_keychain->store(secret.first, secret.second);
}

void WorkspaceController::loadSecretsFor(const QVector<StreamConfig> &streams)
{
    QStringList names;
    for (const StreamConfig &c : streams)
        names += secretNames(c);
    if (!names.isEmpty())
        m_keychain->load(names);
}

void WorkspaceController::loadNotifySecrets(const QList<NotifyTarget> &targets)
{
    QStringList names;
    for (const NotifyTarget &t : targets) {
        QStringList refs = {t.url, t.token};
        for (const auto &h : t.headers)
            refs.append(h.second);
        for (const QString &r : std::as_const(refs))
            if (KeychainStore::isKeychainRef(r))
                names.append(KeychainStore::nameOf(r));
    }
    if (!names.isEmpty())
        m_keychain->load(names);
}

void WorkspaceController::loadAgentSecrets(const QVector<AgentConfig> &agents)
{
    QStringList names;
    for (const AgentConfig &a : agents)
        if (KeychainStore::isKeychainRef(a.password))
            names.append(KeychainStore::nameOf(a.password));
    if (!names.isEmpty())
        m_keychain->load(names);
}

void WorkspaceController::onSecretLoaded(const QString &entryName)
{
    // A stream that connected before its secret arrived retries with it now.
    if (!m_engine)
        return;
    const QList<StreamId> ids = m_engine->streamIds();
    for (StreamId id : ids) {
        if (secretNames(m_engine->config(id)).contains(entryName))
            m_engine->restartStream(id);
    }
}

} // namespace streamscope::ui
