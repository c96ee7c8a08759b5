#pragma once

// Freshness of a stream's data, on the session's monotonic clock: no data message for the
// stall timeout since the connection set came up or since the last data message means the
// stream is stalled — "no data since subscribing" when none came at all. A stream whose
// messages keep arriving but carry no data (only responses, pongs) stalls too.
//
// Thread contract: the session's worker only. dataSeen() is on the hot path: one store, no
// clock read; the tick timestamps what was seen (observe()), so freshness is known to
// within one tick (100 ms).

#include <QtCore/QtGlobal>

namespace streamscope {

class StallWatchdog {
public:
    struct Verdict {
        bool stalled = false;
        bool neverData = false; // no data message since the connection came up
        qint64 silentMs = 0;    // since the last data message, or since connecting
    };

    void connected(qint64 nowMs)
    {
        m_connectedMs = nowMs;
        m_anyData = false;
        m_dataSeen = false;
    }
    void dataSeen() { m_dataSeen = true; }
    // On the tick, before check(): data seen since the last tick counts as of now. Returns
    // whether there was any.
    bool observe(qint64 nowMs)
    {
        if (!m_dataSeen)
            return false;
        m_lastDataMs = nowMs;
        m_anyData = true;
        m_dataSeen = false;
        return true;
    }

    Verdict check(qint64 nowMs, qint64 stallTimeoutMs) const
    {
        Verdict v;
        v.neverData = !m_anyData;
        v.silentMs = nowMs - (m_anyData ? m_lastDataMs : m_connectedMs);
        v.stalled = v.silentMs > stallTimeoutMs;
        return v;
    }

private:
    qint64 m_connectedMs = 0;
    qint64 m_lastDataMs = 0;
    bool m_anyData = false;
    bool m_dataSeen = false;
};

} // namespace streamscope
