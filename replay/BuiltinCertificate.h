#pragma once

#include <QByteArray>

namespace streamscope::replay {

// The self-signed certificate (RSA 2048, CN=localhost, SAN IP:127.0.0.1 and DNS:localhost,
// CA:TRUE so that it can be its own trust anchor, valid 2024-01-01 to 2124-01-01) that a
// TLS replay server uses when no files are given. For tests and the demo only: a client
// trusts it with QSslConfiguration::addCaCertificates, never by ignoring errors.
QByteArray builtinCertificatePem();
QByteArray builtinPrivateKeyPem();

} // namespace streamscope::replay
