#pragma once

// The TLS settings of a stream's connection: peer verification on, plus the stream's extra
// trusted CA (tls.ca_file). Used by the transports and by anyone who opens a socket to the
// same peer as a stream (the benchmark's bare clients). Any thread.

#include "StreamConfig.h"

#include <QtNetwork/QSslConfiguration>

namespace streamscope {

// `error` gets a message when the CA file cannot be read (it is opened by InputFile: a
// regular file of at most InputFile::kMaxPemBytes) or holds no certificate.
QSslConfiguration tlsConfiguration(const StreamConfig &config, QString *error);

} // namespace streamscope
