#include "SecretStore.h"

#include "UrlSecrets.h"

#include <QtCore/QHash>
#include <QtCore/QMutex>
#include <QtCore/QMutexLocker>
#include <QtCore/QRegularExpression>
#include <QtCore/QStringList>

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
    return isSecretReference(value);
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

bool SecretStore::isCredentialName(const QString &name)
{
    return isSecretName(name);
}

bool SecretStore::isLiteralCredential(const QString &name, const QString &value)
{
    return isCredentialName(name) && !value.isEmpty() && !isReference(value);
}

QUrl SecretStore::resolveQuery(const QUrl &url, QString *unresolved)
{
    if (!url.hasQuery())
        return url;
    // Piece by piece on the encoded query, so that every parameter that is not a reference
    // reaches the server byte for byte as written; '&' and ';' both separate parameters, as
    // findUrlSecret() reads them.
    // Each piece keeps the separator before it, so that joining them gives the query back.
    static const QRegularExpression kBeforeSeparator(QStringLiteral("(?=[&;])"));
    QStringList pieces = url.query(QUrl::FullyEncoded).split(kBeforeSeparator);
    bool changed = false;
    for (QString &piece : pieces) {
        const qsizetype start = piece.startsWith(QLatin1Char('&')) || piece.startsWith(QLatin1Char(';')) ? 1 : 0;
        const qsizetype eq = piece.indexOf(QLatin1Char('='));
        if (eq < 0)
            continue;
        const QString value = QUrl::fromPercentEncoding(piece.mid(eq + 1).toLatin1());
        if (!isReference(value))
            continue;
        bool ok = true;
        const QString secret = resolve(value, &ok);
        if (!ok && unresolved && unresolved->isEmpty())
            *unresolved = QStringLiteral("%1 (%2)").arg(
                QUrl::fromPercentEncoding(piece.mid(start, eq - start).toLatin1()), value);
        piece = piece.left(eq + 1) + QString::fromLatin1(QUrl::toPercentEncoding(secret));
        changed = true;
    }
    if (!changed)
        return url;
    QUrl out = url;
    out.setQuery(pieces.join(QString()), QUrl::StrictMode);
    return out;
}

} // namespace streamscope
