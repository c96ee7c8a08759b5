#include "SecretStore.h"

#include <QtCore/QHash>
#include <QtCore/QMutex>
#include <QtCore/QMutexLocker>

namespace streamscope {

namespace {
QMutex g_mutex;
QHash<QString, QString> &keychainValues()
{
    static QHash<QString, QString> values;
    return values;
}
const QString kEnv = QStringLiteral("env:");
const QString kKeychain = QStringLiteral("keychain:");
} // namespace

bool SecretStore::isReference(const QString &value)
{
    return value.startsWith(kEnv) || value.startsWith(kKeychain);
}

QString SecretStore::resolve(const QString &value, bool *ok)
{
    if (ok)
        *ok = true;
    if (value.startsWith(kEnv)) {
        const QByteArray name = value.mid(kEnv.size()).toLocal8Bit();
        if (!qEnvironmentVariableIsSet(name.constData())) {
            if (ok)
                *ok = false;
            return {};
        }
        return qEnvironmentVariable(name.constData());
    }
    if (value.startsWith(kKeychain)) {
        QMutexLocker lock(&g_mutex);
        const auto it = keychainValues().constFind(value.mid(kKeychain.size()));
        if (it == keychainValues().constEnd()) {
            if (ok)
                *ok = false;
            return {};
        }
        return *it;
    }
    return value;
}

void SecretStore::setKeychainValue(const QString &name, const QString &value)
{
    QMutexLocker lock(&g_mutex);
    keychainValues().insert(name, value);
}

} // namespace streamscope
