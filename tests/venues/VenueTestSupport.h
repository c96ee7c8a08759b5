#pragma once

// Helpers for the venue tests, on top of the integration tests' helpers: stream
// configurations pointed at a replay server on 127.0.0.1 and waits on engine state.

#include "../integration/IntegrationSupport.h"

namespace streamscope::testing {

inline StreamConfig binanceStream(quint16 port, const QString &pathAndQuery)
{
    return wsStream(QStringLiteral("binance"), port, pathAndQuery);
}

inline StreamSnapshot snap(const Engine &engine, StreamId id)
{
    return engine.snapshot(id);
}

} // namespace streamscope::testing
