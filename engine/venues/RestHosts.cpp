#include "RestHosts.h"

namespace streamscope {

QUrl mappedRestBase(const QUrl &stream, std::span<const RestHost> known)
{
    const QString host = stream.host().toLower();
    QUrl u;
    for (const RestHost &h : known) {
        if (host == QLatin1String(h.stream)) {
            u.setScheme(QStringLiteral("https"));
            u.setHost(QLatin1String(h.rest));
            return u;
        }
    }
    u.setScheme(stream.scheme() == QLatin1String("wss") ? QStringLiteral("https") : QStringLiteral("http"));
    u.setHost(stream.host());
    u.setPort(stream.port());
    return u;
}

QUrl restBase(const StreamConfig &config, std::span<const RestHost> known)
{
    return config.restUrl.isEmpty() ? mappedRestBase(config.url, known) : config.restUrl;
}

QUrl restUrl(const QUrl &base, const QString &path)
{
    QUrl u = base;
    QString prefix = base.path();
    while (prefix.endsWith(QLatin1Char('/')))
        prefix.chop(1);
    u.setPath(prefix + path);
    u.setQuery(QString());
    u.setFragment(QString());
    return u;
}

} // namespace streamscope
