#pragma once

// Resolves secret references used in stream configurations: "env:NAME" reads the
// environment, "keychain:NAME" reads values that the UI fetched from the OS keychain and
// handed over with setKeychainValue(). Anything else is taken literally. Secrets live only
// in memory; nothing here writes them anywhere.
//
// Thread contract: all functions are thread-safe (the sessions resolve on their workers).

#include <QtCore/QString>
#include <QtCore/QUrl>

namespace streamscope {

class SecretStore {
public:
    static bool isReference(const QString &value);
    // The secret's value; `ok` false when a reference names something that is not set.
    static QString resolve(const QString &value, bool *ok = nullptr);
    static void setKeychainValue(const QString &name, const QString &value);

    // Whether a header or URL query parameter of this name carries a credential, so that its
    // value must be a reference: any name containing "token", "secret", "key", "auth",
    // "cookie", "password" or "signature" (case-insensitive), which covers Authorization,
    // Proxy-Authorization, Cookie, X-MBX-APIKEY, X-Authentication, X-Api-Key, ?token=, ?apiKey=.
    static bool isCredentialName(const QString &name);
    // A credential whose value is a literal secret (not empty, not env:/keychain:).
    static bool isLiteralCredential(const QString &name, const QString &value);
    // The name of the first query parameter of `url` that holds a literal credential; empty
    // when there is none.
    static QString literalQueryCredential(const QUrl &url);
    // `url` without what must never be shown, reported or written: its password and its query
    // parameters that hold literal credentials. References stay: they name, not hold, secrets.
    static QUrl redacted(const QUrl &url);
    // `url` with the references in its query resolved, for the request itself only. When one is
    // not set, `unresolved` gets "parameter (reference)".
    static QUrl resolveQuery(const QUrl &url, QString *unresolved = nullptr);
};

} // namespace streamscope
