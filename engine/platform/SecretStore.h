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

    // Whether a header or URL parameter of this name carries a credential, so that its value
    // must be a reference: the one list of secret names (isSecretName, UrlSecrets.h), which
    // covers Authorization, Proxy-Authorization, Cookie, X-MBX-APIKEY, X-Authentication,
    // X-Api-Key, ?token=, ?apiKey=, ?pwd=. Where a URL carries a secret is findUrlSecret()'s to
    // say, and RedactedUrl is the URL without it.
    static bool isCredentialName(const QString &name);
    // A credential whose value is a literal secret (not empty, not env:/keychain:).
    static bool isLiteralCredential(const QString &name, const QString &value);
    // `url` with the references in its query resolved (parameters separated by '&' or ';'), for
    // the request itself only. When one is not set, `unresolved` gets "parameter (reference)".
    static QUrl resolveQuery(const QUrl &url, QString *unresolved = nullptr);
};

} // namespace streamscope
