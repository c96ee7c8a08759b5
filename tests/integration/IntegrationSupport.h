#pragma once

// Shared helpers for the loopback integration tests: stream configurations pointed at a
// replay server on 127.0.0.1 and waits on engine state.

#include "../common/TimeFactor.h"
#include "Engine.h"
#include "ReplayServer.h"

#include <QtTest/QtTest>

namespace streamscope::testing {

inline StreamConfig wsStream(const QString &name, quint16 port, const QString &pathAndQuery)
{
    StreamConfig c;
    c.name = name;
    c.venue = Venue("binance");
    c.url = QUrl(QStringLiteral("ws://127.0.0.1:%1/%2").arg(port).arg(pathAndQuery));
    c.reconnectBaseMs = 50;
    c.reconnectMaxMs = 200;
    c.stallTimeoutMs = 60000;
    return c;
}

inline StreamState stateOf(const Engine &engine, StreamId id)
{
    return engine.snapshot(id).state;
}

inline quint64 messagesOf(const Engine &engine, StreamId id)
{
    return engine.snapshot(id).messages;
}

} // namespace streamscope::testing

#define WAIT_STATE(engine, id, st, timeoutMs)                                                                          \
    QTRY_COMPARE_WITH_TIMEOUT(streamscope::testing::stateOf(engine, id), st,                                           \
                              (timeoutMs)*streamscope::testing::timeFactor())
