#pragma once

// Resolves secret references used in stream configurations: "env:NAME" reads the
// environment, "keychain:NAME" reads values that the UI fetched from the OS keychain and
// handed over with setKeychainValue(). Anything else is taken literally. Secrets live only
// in memory; nothing here writes them anywhere.
//
// Thread contract: all functions are thread-safe (the sessions resolve on their workers).

#include <QtCore/QString>

namespace streamscope {

class SecretStore {
public:
    static bool isReference(const QString &value);
    // The secret's value; `ok` false when a reference names something that is not set.
    static QString resolve(const QString &value, bool *ok = nullptr);
    static void setKeychainValue(const QString &name, const QString &value);
};

} // namespace streamscope
