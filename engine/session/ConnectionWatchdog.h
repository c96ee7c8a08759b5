#pragma once

// Liveness of one connection, on the session's monotonic clock: a connection that does not
// come up within the connect timeout, one that sent no frame (message or pong) for the pong
// timeout, and when the next websocket ping is due. It judges; the session acts.
// The no-frame rule needs a probe that the peer must answer: only a transport with a ping
// (websockets) is declared dead by it. A line stream (tcp/tls) has no ping, so its silence
// says nothing about the connection; its freshness is the StallWatchdog's (and a venue's own
// heartbeat check, such as Betfair's).
//
// Thread contract: the session's worker only. frameSeen() is on the hot path: one store, no
// clock read; the tick timestamps what was seen (observe()), so liveness is known to within
// one tick (100 ms), far below any timeout.

#include "model/StreamConfig.h"

namespace streamscope {

class ConnectionWatchdog {
public:
    enum class Verdict : quint8 { Unknown = 0, Ok, ConnectTimeout, Dead, PingDue };
    // Which keep-alive the connection uses: the transport's ping every ping_interval_ms; the
    // venue's text ping once no frame came for ping_interval_ms (OKX, Hyperliquid); the venue's
    // text ping every ping_interval_ms, whose answer (a Pong message) must come within
    // ping_interval_ms (Bybit). VenueHandler::keepAlivePing(), keepAlivePeriodic().
    enum class KeepAlive : quint8 { TransportPing, TextOnSilence, TextPeriodic };

    void connecting(qint64 nowMs)
    {
        m_connectStartedMs = nowMs;
        m_up = false;
    }
    void connected(qint64 nowMs)
    {
        m_up = true;
        m_frameSeen = false;
        m_pongSeen = false;
        m_awaitingPong = false;
        m_connectedMs = m_lastFrameMs = m_lastPingMs = nowMs;
    }
    void frame(qint64 nowMs)
    {
        m_lastFrameMs = nowMs;
        m_frameSeen = false;
    }
    void frameSeen() { m_frameSeen = true; }
    // The venue's answer to its text keep-alive came (a Pong message).
    void pongSeen() { m_pongSeen = true; }
    // On the tick, before check(): a frame seen since the last tick counts as of now, and a
    // pong answers the ping sent before it.
    void observe(qint64 nowMs)
    {
        if (m_frameSeen)
            frame(nowMs);
        if (m_pongSeen) {
            m_pongSeen = false;
            m_awaitingPong = false;
        }
    }
    void pinged(qint64 nowMs)
    {
        m_lastPingMs = nowMs;
        m_awaitingPong = true;
    }

    // `hasPing`: the transport has a liveness probe (Transport::hasPing()); without one,
    // neither Dead nor PingDue is ever the verdict. With the venue's text keep-alive on silence
    // (OKX "ping"), a ping is due only once no frame came for ping_interval_ms, and one that no
    // frame followed within ping_interval_ms more means a dead connection; with its periodic
    // one (Bybit {"op":"ping"}), a ping is due every ping_interval_ms however busy the
    // connection, and one not answered by a pong within ping_interval_ms means a dead
    // connection, frames or not. The pong timeout holds for every kind of ping.
    Verdict check(qint64 nowMs, const StreamConfig &config, bool hasPing,
                  KeepAlive keepAlive = KeepAlive::TransportPing) const
    {
        if (!m_up)
            return nowMs - m_connectStartedMs > config.connectTimeoutMs ? Verdict::ConnectTimeout : Verdict::Ok;
        if (!hasPing)
            return Verdict::Ok;
        if (config.pongTimeoutMs > 0 && silentMs(nowMs) > config.pongTimeoutMs)
            return Verdict::Dead;
        if (keepAlive == KeepAlive::TextPeriodic) {
            if (config.pingIntervalMs <= 0)
                return Verdict::Ok;
            if (m_awaitingPong)
                return nowMs - m_lastPingMs > config.pingIntervalMs ? Verdict::Dead : Verdict::Ok;
            return nowMs - m_lastPingMs >= config.pingIntervalMs ? Verdict::PingDue : Verdict::Ok;
        }
        if (keepAlive == KeepAlive::TextOnSilence) {
            if (config.pingIntervalMs <= 0)
                return Verdict::Ok;
            if (m_lastPingMs > m_lastFrameMs) // a ping no frame has followed yet
                return nowMs - m_lastPingMs > config.pingIntervalMs ? Verdict::Dead : Verdict::Ok;
            return silentMs(nowMs) >= config.pingIntervalMs ? Verdict::PingDue : Verdict::Ok;
        }
        if (config.pingIntervalMs > 0 && nowMs - m_lastPingMs >= config.pingIntervalMs)
            return Verdict::PingDue;
        return Verdict::Ok;
    }

    qint64 silentMs(qint64 nowMs) const { return nowMs - m_lastFrameMs; }
    // How long the last ping has waited for its pong; -1 when none waits.
    qint64 pongWaitMs(qint64 nowMs) const { return m_awaitingPong ? nowMs - m_lastPingMs : -1; }
    qint64 connectedMs() const { return m_connectedMs; }

private:
    bool m_up = false;
    bool m_frameSeen = false;
    bool m_pongSeen = false;     // since the last tick
    bool m_awaitingPong = false; // a ping went out and no pong has answered it yet
    qint64 m_connectStartedMs = 0;
    qint64 m_connectedMs = 0;
    qint64 m_lastFrameMs = 0;
    qint64 m_lastPingMs = 0;
};

} // namespace streamscope
