// A workspace's "agents" (docs/workspace.md, "Agents"): read and written.

#include "WorkspaceReader.h"
#include "model/UrlSecrets.h"
#include "platform/SecretStore.h"

namespace streamscope::workspace_detail {

namespace {

bool readAgent(ObjectReader &r, const QString &file, AgentConfig &a)
{
    const auto name = r.string(QStringLiteral("name"), true);
    if (!name)
        return false;
    if (name->trimmed().isEmpty())
        return r.error(QStringLiteral("name"), QStringLiteral("expected a name, found an empty string"));
    a.name = name->trimmed();
    const auto url = r.string(QStringLiteral("url"), true);
    if (!url)
        return false;
    const QUrl u(*url, QUrl::StrictMode);
    if (!u.isValid() || (u.scheme() != QLatin1String("http") && u.scheme() != QLatin1String("https"))
        || u.host().isEmpty() || u.port() <= 0)
        return r.error(QStringLiteral("url"),
                       QStringLiteral("expected http://HOST:PORT or https://HOST:PORT, found \"%1\"").arg(*url));
    if (!u.userInfo().isEmpty())
        return r.error(QStringLiteral("url"),
                       QStringLiteral("expected a URL without a user or password; give them as \"user\" and "
                                      "\"password\" (a reference)"));
    if (const UrlSecret secret = findUrlSecret(u); secret.found())
        return r.error(QStringLiteral("url"),
                       QStringLiteral("expected a URL without a credential, found %1; "
                                      "secrets are never stored in a workspace")
                           .arg(secret.describe()));
    a.url = u;
    if (const auto user = r.string(QStringLiteral("user"))) {
        if (user->contains(QLatin1Char(':')))
            return r.error(QStringLiteral("user"), QStringLiteral("expected a user name without ':'"));
        a.user = *user;
    }
    if (const auto password = r.string(QStringLiteral("password"))) {
        if (!SecretStore::isReference(*password))
            return r.error(QStringLiteral("password"),
                           QStringLiteral("expected a reference such as \"env:NAME\" or \"keychain:NAME\"; secrets "
                                          "are never stored in a workspace"));
        a.password = *password;
    }
    if (!r.ok())
        return false;
    if (!a.user.isEmpty() && a.password.isEmpty())
        return r.error(QStringLiteral("password"),
                       QStringLiteral("missing, expected a reference such as \"env:NAME\" (\"user\" is given)"));
    if (a.user.isEmpty() && !a.password.isEmpty())
        return r.error(QStringLiteral("user"), QStringLiteral("missing, expected a string (\"password\" is given)"));
    if (!readTls(r, file, a.caFile))
        return false;
    if (!r.ok())
        return false;
    r.warnUnknownKeys();
    return true;
}

} // namespace

bool readAgents(const QJsonArray &array, Workspace::LoadResult &result, const QString &file, QVector<AgentConfig> &out)
{
    QVector<AgentConfig> agents;
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString path = QStringLiteral("agents[%1]").arg(i);
        if (!array.at(i).isObject()) {
            result.error = QStringLiteral("%1: %2: expected an object, found %3")
                               .arg(file, path, ObjectReader::typeName(array.at(i)));
            return false;
        }
        ObjectReader r(array.at(i).toObject(), path, result, file);
        AgentConfig a;
        if (!readAgent(r, file, a))
            return false;
        for (const AgentConfig &other : std::as_const(agents)) {
            if (other.name == a.name)
                return r.error(QStringLiteral("name"),
                               QStringLiteral("expected a unique name, \"%1\" is used twice").arg(a.name));
        }
        agents.append(a);
    }
    out = agents;
    return true;
}

QJsonArray agentsToJson(const QVector<AgentConfig> &agents)
{
    QJsonArray out;
    for (const AgentConfig &a : agents) {
        QJsonObject o{{QStringLiteral("name"), a.name}, {QStringLiteral("url"), a.url.toString()}};
        // A password that is not a reference (none should reach here) is never written.
        if (!a.user.isEmpty() && SecretStore::isReference(a.password)) {
            o.insert(QStringLiteral("user"), a.user);
            o.insert(QStringLiteral("password"), a.password);
        }
        if (!a.caFile.isEmpty())
            o.insert(QStringLiteral("tls"), QJsonObject{{QStringLiteral("ca_file"), a.caFile}});
        out.append(o);
    }
    return out;
}

} // namespace streamscope::workspace_detail
