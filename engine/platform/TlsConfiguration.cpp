#include "TlsConfiguration.h"

#include "InputFile.h"

#include <QtNetwork/QSslCertificate>

namespace streamscope {

QSslConfiguration tlsConfiguration(const StreamConfig &config, QString *error)
{
    QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
    ssl.setPeerVerifyMode(QSslSocket::VerifyPeer);
    if (!config.caFile.isEmpty()) {
        // Read on each connect (a renewed CA is picked up), on the stream's worker thread: a
        // regular file within a bound, so a FIFO or a device cannot hold the worker.
        InputFile::Limits limits;
        limits.maxBytes = InputFile::kMaxPemBytes;
        limits.timeout = InputFile::kSmallFileTimeout;
        QString why;
        const std::optional<QByteArray> pem = InputFile::readAll(config.caFile, limits, &why);
        const QList<QSslCertificate> cas = pem ? QSslCertificate::fromData(*pem, QSsl::Pem) : QList<QSslCertificate>();
        if (!pem && error)
            *error = QStringLiteral("tls.ca_file: %1").arg(why);
        else if (cas.isEmpty() && error)
            *error = QStringLiteral("no certificate could be read from tls.ca_file %1").arg(config.caFile);
        ssl.addCaCertificates(cas);
    }
    return ssl;
}

} // namespace streamscope
