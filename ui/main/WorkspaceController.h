#pragma once

// The main window's workspace file: its path and modified flag (shown in the window
// title), open / save / save as with their file dialogs, the unsaved-changes question,
// the recent-files list (QSettings) and its menu, and the hand-over of secrets: those a
// workspace refers to are read from the OS keychain, those typed in the stream dialog are
// stored there, and a stream restarts once a secret it waited for arrives.
// read() and fromMemory() parse a workspace's alert rules once; the window applies the
// result (streams, rules, layout) without parsing them again.
//
// Thread contract: GUI thread only. Owns the KeychainStore; owns neither the window nor
// the engine (held by QPointer: the engine may go first).

#include "AlertRule.h"
#include "StreamConfig.h"
#include "Workspace.h"

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

    // `current` gives what Save writes: the window's streams, rules and layout now.
    WorkspaceController(streamscope::Engine *engine, QMainWindow *window, std::function<Workspace()> current);

    // Reads a file; false and `error` (naming the file, the field and what was expected)
    // when the file or one of its alert rules is bad.
    static bool read(const QString &path, Loaded &out, QString *error);
    // A workspace built in memory (the demo): bad alert rules are dropped with a warning.
    static Loaded fromMemory(const Workspace &ws);

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
    // Asks for a file (after maybeSave()) and emits openRequested().
    void chooseAndOpen();
    // Fills `menu` with the recent files; choosing one emits openRequested() after maybeSave().
    void fillRecentMenu(QMenu *menu);

    // Secrets typed in the stream dialog: (keychain entry name, value).
    void storeSecrets(const QList<QPair<QString, QString>> &secrets);
    // Reads the keychain entries `streams` refer to.
    void loadSecretsFor(const QVector<StreamConfig> &streams);
    // Reads the keychain entries alert destinations refer to (URL, token, headers).
    void loadNotifySecrets(const QList<NotifyTarget> &targets);

signals:
    void openRequested(const QString &path);
    void keychainFailed(const QString &entryName, const QString &error);

private:
    void onSecretLoaded(const QString &entryName);
    void addRecent(const QString &path);
    void updateTitle();

    QPointer<Engine> m_engine;
    QMainWindow *m_window = nullptr;
    std::function<Workspace()> m_current;
    KeychainStore *m_keychain = nullptr;
    QString m_path;
    QString m_saveNote;
    bool m_modified = false;
};

} // namespace streamscope::ui
