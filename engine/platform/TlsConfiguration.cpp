#include "TlsConfiguration.h"

#include <QtNetwork/QSslCertificate>

namespace streamscope {

QSslConfiguration tlsConfiguration(const StreamConfig &config, QString *error)
{
    QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
    ssl.setPeerVerifyMode(QSslSocket::VerifyPeer);
    if (!config.caFile.isEmpty()) {
        const QList<QSslCertificate> cas = QSslCertificate::fromPath(config.caFile, QSsl::Pem);
        if (cas.isEmpty() && error)
            *error = QStringLiteral("no certificate could be read from tls.ca_file %1").arg(config.caFile);
        ssl.addCaCertificates(cas);
    }
    return ssl;
}

} // namespace streamscope
