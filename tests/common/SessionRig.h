#pragma once

// A stream session without sockets, for the tests of the session and of its parts: a clock
// the test steps, a fake transport per connection that the test brings up, feeds and drops,
// and a log of the session's events.
//
// Thread contract: everything on the test's thread, which stands for the session's worker.

#include "EventLog.h"
#include "model/StreamSnapshot.h"
#include "protocol/MessageDecoder.h"
#include "session/Clock.h"
#include "session/SessionEvents.h"
#include "session/StreamSession.h"
#include "stats/StreamShared.h"
#include "transport/Transport.h"

#include <QtCore/QPointer>
#include <QtCore/QStringList>

#include <algorithm>
#include <memory>

namespace streamscope::testing {

class ManualClock final : public Clock {
public:
    qint64 monotonicMs() const override { return m_monoMs; }
    qint64 wallUs() const override { return m_wallUs; }

    // Time passes: both clocks advance.
    void advanceMs(qint64 ms)
    {
        m_monoMs += ms;
        m_wallUs += ms * 1000;
    }
    // The wall clock is set (NTP step, a user): only it moves.
    void stepWallMs(qint64 ms) { m_wallUs += ms * 1000; }

private:
    qint64 m_monoMs = 5'000'000;             // an arbitrary origin
    qint64 m_wallUs = 1'780'000'000'000'000; // 2026
};

// A connection that the test drives: it comes up, delivers, pongs and drops on command.
class FakeTransport final : public Transport {
public:
    using Transport::Transport;

    void open() override { opened = true; }
    void abort() override { aborted = true; }
    bool sendText(const QString &text) override
    {
        sent << text;
        return true;
    }
    bool hasPing() const override { return pingable; }
    bool ping() override
    {
        if (!pingable)
            return false;
        ++pings;
        return true;
    }

    void up() { emit connected(); }
    void deliver(const QByteArray &message)
    {
        ReceivedMessage received(message.constData(), message.size(), false, m_buffer);
        m_sink.onMessage(received);
    }
    void pong() { emit pongReceived(); }
    void drop(int closeCode, const QString &reason) { emit disconnected(closeCode, reason); }
    QUrl url() const { return m_config.url; } // the URL this connection was opened with

    bool pingable = true; // false: a line transport, which has no liveness probe
    bool opened = false;
    bool aborted = false;
    int pings = 0;
    QStringList sent;
};

// One session with its fakes. The session is not started: the test calls start().
struct SessionRig {
    explicit SessionRig(const StreamConfig &config)
        : shared(std::make_shared<StreamShared>(1, config))
        , session(shared, config, buffer, decoder, log, clock,
                  [this](const StreamConfig &c, ReceiveBuffer &b, MessageSink &sink) -> Transport * {
                      auto *t = new FakeTransport(c, b, sink);
                      t->pingable = transportsPing;
                      transports << t;
                      return t;
                  })
    {
    }

    FakeTransport *last() const { return transports.isEmpty() ? nullptr : transports.last().data(); }
    int openTransports() const
    {
        return int(std::count_if(transports.begin(), transports.end(),
                                 [](const QPointer<FakeTransport> &t) { return t && !t->aborted; }));
    }
    StreamSnapshot snapshot() const
    {
        StreamSnapshot s;
        shared->fillSnapshot(s, true);
        return s;
    }
    // Time passes in steps of the worker's housekeeping tick.
    void run(qint64 ms, qint64 stepMs = 100)
    {
        for (qint64 t = 0; t < ms; t += stepMs) {
            clock.advanceMs(std::min(stepMs, ms - t));
            session.tick();
        }
    }
    // A Binance aggregate trade of `symbol` (lower case) whose event time ("E", ms) is the
    // wall clock's now; the trade id tells events apart.
    QByteArray trade(qint64 tradeId, const QString &symbol = QStringLiteral("btcusdt")) const
    {
        return QStringLiteral("{\"stream\":\"%3@aggTrade\",\"data\":{\"e\":\"aggTrade\",\"E\":%1,\"s\":\"%4\","
                              "\"a\":%2,\"p\":\"1.0\",\"q\":\"2.0\",\"T\":%1,\"m\":true}}")
            .arg(clock.wallMs())
            .arg(tradeId)
            .arg(symbol, symbol.toUpper())
            .toUtf8();
    }

    bool transportsPing = true; // false: the fakes stand for line transports (tcp/tls)
    ManualClock clock;
    ReceiveBuffer buffer;
    MessageDecoder decoder;
    EventLog log;
    QList<QPointer<FakeTransport>> transports;
    std::shared_ptr<StreamShared> shared;
    StreamSession session;
};

} // namespace streamscope::testing
