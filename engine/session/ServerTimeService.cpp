#include "ServerTimeService.h"

#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>
#include <QtNetwork/QNetworkRequest>

namespace streamscope {

ServerTimeService::ServerTimeService(const Clock &clock)
    : m_clock(clock)
{
}

ServerTimeService::~ServerTimeService() = default;

void ServerTimeService::init()
{
    if (m_manager)
        return;
    m_manager = std::make_unique<QNetworkAccessManager>();
    m_manager->setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
    // The first HTTP request starts the manager's thread (see the header): one to a loopback
    // port that nothing serves (tcpmux, port 1), refused at once, never sent anywhere.
    QNetworkRequest warmUp(QUrl(QStringLiteral("http://127.0.0.1:1/")));
    warmUp.setTransferTimeout(1000);
    QNetworkReply *reply = m_manager->get(warmUp);
    QObject::connect(reply, &QNetworkReply::finished, reply, &QObject::deleteLater);
}

void ServerTimeService::shutdown()
{
    m_probes.clear();
    m_manager.reset();
}

std::shared_ptr<ServerTimeProbe> ServerTimeService::probe(const QUrl &url, ServerTimeReader reader,
                                                          const QSslConfiguration &tls, const QString &tlsKey)
{
    init();
    // Streams of two venues that ask one URL read its answers each in their own shape.
    const QString key =
        url.toString() + QLatin1Char('\n') + tlsKey + QLatin1Char('\n') + QString::number(quintptr(reader), 16);
    if (auto existing = m_probes.value(key).lock())
        return existing;
    auto created = std::make_shared<ServerTimeProbe>(url, reader, tls, m_clock, *m_manager);
    // Forget expired entries now and then, so the table stays as small as the live probes.
    for (auto it = m_probes.begin(); it != m_probes.end();)
        it = it->expired() ? m_probes.erase(it) : std::next(it);
    m_probes.insert(key, created);
    return created;
}

} // namespace streamscope
