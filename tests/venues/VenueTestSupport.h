#pragma once

// Helpers for the venue tests: stream configurations pointed at a replay server on
// 127.0.0.1 and waits on engine state.

#include "Engine.h"
#include "ReplayServer.h"

#include <QtTest/QtTest>

namespace streamscope::testing {

inline StreamConfig binanceStream(quint16 port, const QString &pathAndQuery)
{
    StreamConfig c;
    c.name = QStringLiteral("binance");
    c.venue = Venue::Binance;
    c.url = QUrl(QStringLiteral("ws://127.0.0.1:%1/%2").arg(port).arg(pathAndQuery));
    c.reconnectBaseMs = 50;
    c.reconnectMaxMs = 200;
    c.stallTimeoutMs = 60000;
    return c;
}

inline StreamSnapshot snap(const Engine &engine, StreamId id)
{
    return engine.snapshot(id);
}

} // namespace streamscope::testing
