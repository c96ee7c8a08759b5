#include "SecretStore.h"

#include <QtCore/QHash>
#include <QtCore/QMutex>
#include <QtCore/QMutexLocker>
#include <QtCore/QStringList>
#include <QtCore/QUrlQuery>

#include <algorithm>

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

bool SecretStore::isCredentialName(const QString &name)
{
    static const QStringList parts = {QStringLiteral("token"),    QStringLiteral("secret"), QStringLiteral("key"),
                                      QStringLiteral("auth"),     QStringLiteral("cookie"), QStringLiteral("password"),
                                      QStringLiteral("signature")};
    const QString lower = name.trimmed().toLower();
    return std::any_of(parts.begin(), parts.end(), [&](const QString &p) { return lower.contains(p); });
}

bool SecretStore::isLiteralCredential(const QString &name, const QString &value)
{
    return isCredentialName(name) && !value.isEmpty() && !isReference(value);
}

QString SecretStore::literalQueryCredential(const QUrl &url)
{
    if (!url.hasQuery())
        return {};
    for (const auto &[name, value] : QUrlQuery(url).queryItems(QUrl::FullyDecoded))
        if (isLiteralCredential(name, value))
            return name;
    return {};
}

QUrl SecretStore::redacted(const QUrl &url)
{
    QUrl out = url.adjusted(QUrl::RemovePassword);
    if (literalQueryCredential(out).isEmpty())
        return out;
    QUrlQuery query(out);
    for (const auto &[name, value] : query.queryItems(QUrl::FullyDecoded))
        if (isLiteralCredential(name, value))
            query.removeAllQueryItems(name);
    out.setQuery(query);
    return out;
}

QUrl SecretStore::resolveQuery(const QUrl &url, QString *unresolved)
{
    if (!url.hasQuery())
        return url;
    // Piece by piece on the encoded query, so that every parameter that is not a reference
    // reaches the server byte for byte as written.
    QStringList pieces = url.query(QUrl::FullyEncoded).split(QLatin1Char('&'));
    bool changed = false;
    for (QString &piece : pieces) {
        const qsizetype eq = piece.indexOf(QLatin1Char('='));
        if (eq < 0)
            continue;
        const QString value = QUrl::fromPercentEncoding(piece.mid(eq + 1).toLatin1());
        if (!isReference(value))
            continue;
        bool ok = true;
        const QString secret = resolve(value, &ok);
        if (!ok && unresolved && unresolved->isEmpty())
            *unresolved = QStringLiteral("%1 (%2)").arg(QUrl::fromPercentEncoding(piece.left(eq).toLatin1()), value);
        piece = piece.left(eq + 1) + QString::fromLatin1(QUrl::toPercentEncoding(secret));
        changed = true;
    }
    if (!changed)
        return url;
    QUrl out = url;
    out.setQuery(pieces.join(QLatin1Char('&')), QUrl::StrictMode);
    return out;
}

} // namespace streamscope
