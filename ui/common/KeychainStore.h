#pragma once

// The OS keychain through qtkeychain, for the secrets that workspaces refer to as
// "keychain:NAME" (Betfair app key and session, API keys). Reads and writes are
// asynchronous; every value read or written is also handed to the engine's SecretStore,
// which resolves references when a session connects. Values never leave this class
// except into SecretStore. GUI thread only.

#include <QtCore/QObject>
#include <QtCore/QSet>

namespace streamscope::ui {

class KeychainStore : public QObject {
    Q_OBJECT
public:
    static constexpr const char *kService = "StreamScope";
    static constexpr const char *kPrefix = "keychain:";

    explicit KeychainStore(QObject *parent = nullptr);

    static bool isKeychainRef(const QString &ref);
    static QString nameOf(const QString &ref); // "keychain:bf-key" -> "bf-key"

    // Reads every name not read yet; loaded() (or failed()) follows for each.
    void load(const QStringList &names);
    // Stores `value` under `name` and gives it to SecretStore at once.
    void store(const QString &name, const QString &value);

signals:
    void loaded(const QString &name);
    void failed(const QString &name, const QString &error);

private:
    QSet<QString> m_requested;
};

} // namespace streamscope::ui
