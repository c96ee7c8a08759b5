#pragma once

// The main window's workspace: what it holds and its file. What it holds: the engine's
// streams and flight recorder settings, the alert rules and destinations (AlertService) and
// the window's layout; current() gathers them for Save, apply() replaces them all with a
// loaded workspace's. Its file: its path and modified flag (shown in the window title),
// open / save / save as with their file dialogs, the unsaved-changes question, the
// recent-files list (QSettings) and its menu, and the hand-over of secrets: those a workspace
// refers to are read from the OS keychain, those typed in the stream dialog are stored there,
// and a stream restarts once a secret it waited for arrives. read() and fromMemory() parse a
// workspace's alert rules once; apply() does not parse them again.
//
// Thread contract: GUI thread only. Owns the KeychainStore; owns neither the window, the
// alert service nor the engine (held by QPointer: the engine may go first).

#include "AlertRule.h"
#include "StreamConfig.h"
#include "Workspace.h"

#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QObject>
#include <QtCore/QPair>
#include <QtCore/QPointer>
#include <QtCore/QStringList>

#include <functional>

class QMainWindow;
class QMenu;

namespace streamscope {
class Engine;
}
namespace streamscope::alerts {
class AlertService;
}

namespace streamscope::ui {

using alerts::AlertRule;

class KeychainStore;

class WorkspaceController : public QObject {
    Q_OBJECT
public:
    static constexpr int kMaxRecent = 8;

    // A workspace with its alert rules parsed, ready to apply.
    struct Loaded {
        Workspace workspace;
        QVector<AlertRule> rules;
        QStringList warnings; // unknown keys, ignored alert rules: for the event log
    };

    // The parts of a workspace the window keeps: its layout, saved and restored by the window,
    // and the agents it watches, saved and reconnected by it.
    struct Layout {
        std::function<QJsonObject()> save;
        std::function<void(const QJsonObject &)> restore;
        std::function<QVector<AgentConfig>()> saveAgents;
        std::function<void(const QVector<AgentConfig> &)> restoreAgents;
    };

    // `engine` and `alerts` may be null (a workspace without streams or without alerts).
    WorkspaceController(streamscope::Engine *engine, alerts::AlertService *alerts, QMainWindow *window,
                        Layout layout = {});

    // Reads a file; false and `error` (naming the file, the field and what was expected)
    // when the file or one of its alert rules is bad.
    static bool read(const QString &path, Loaded &out, QString *error);
    // A workspace built in memory (the demo): bad alert rules are dropped with a warning.
    static Loaded fromMemory(const Workspace &ws);

    // What Save writes: the streams, rules, destinations, layout and flight recorder now.
    // Rules of streams that no longer exist are left out; "*" stays.
    Workspace current() const;
    // Reads the file and applies it (its path made absolute). On failure returns false, sets
    // `error` (naming the file, the field and what was expected) and changes nothing.
    bool open(const QString &path, QString *error = nullptr);
    // A workspace from memory (the built-in demo), applied; an empty path is untitled.
    void show(const Workspace &ws, const QString &path);
    // Replaces the streams, rules, destinations, flight recorder and layout with `loaded`'s;
    // `path` empty: untitled. Unmodified afterwards.
    void apply(const Loaded &loaded, const QString &path);
    // File → New workspace: an empty one, after the unsaved-changes question.
    void startNew();

    QString path() const { return m_path; }
    bool isModified() const { return m_modified; }
    void setModified(bool modified);
    // The workspace now shown came from `path` (empty: untitled) and is unmodified.
    void setOpened(const QString &path);
    // A note shown, with Save and Cancel, before the workspace now shown is first saved (the
    // demo says what a saved copy cannot do); cleared by the next setOpened().
    void setSaveNote(const QString &note) { m_saveNote = note; }
    // Writes what `current` gives to `path`, which becomes the workspace's path.
    bool write(const QString &path, QString *error);

    // With dialogs parented to the window. save() and saveAs() return false when nothing
    // was written; maybeSave() false when the user cancelled.
    bool save();
    bool saveAs();
    bool maybeSave();
    // Asks for a file (after maybeSave()) and opens it; a file that does not open is told.
    void chooseAndOpen();
    // Fills `menu` with the recent files; choosing one opens it after maybeSave().
    void fillRecentMenu(QMenu *menu);

    // Secrets typed in the stream dialog: (keychain entry name, value).
    void storeSecrets(const QList<QPair<QString, QString>> &secrets);
    // Reads the keychain entries `streams` refer to.
    void loadSecretsFor(const QVector<StreamConfig> &streams);
    // Reads the keychain entries alert destinations refer to (URL, token, headers).
    void loadNotifySecrets(const QList<NotifyTarget> &targets);
    // Reads the keychain entries agents' passwords refer to.
    void loadAgentSecrets(const QVector<AgentConfig> &agents);

signals:
    // apply(): the old streams are gone, the new ones not yet added.
    void streamsCleared();
    // apply(): the workspace is in place (streams, rules, layout).
    void applied();
    // Something of a loaded workspace was ignored (an unknown key, a bad alert rule).
    void warning(const QString &text);
    void keychainFailed(const QString &entryName, const QString &error);

private:
    // open() with the error in a message box.
    void openOrWarn(const QString &path);
    void onSecretLoaded(const QString &entryName);
    void addRecent(const QString &path);
    void updateTitle();

    QPointer<Engine> m_engine;
    alerts::AlertService *m_alerts = nullptr;
    QMainWindow *m_window = nullptr;
    Layout m_layout;
    KeychainStore *m_keychain = nullptr;
    QString m_path;
    QString m_saveNote;
    bool m_modified = false;
};

} // namespace streamscope::ui
