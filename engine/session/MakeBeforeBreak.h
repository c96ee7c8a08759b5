#pragma once

// The bookkeeping of a make-before-break rollover of one connection: which connection is
// replaced by which, and the overlap de-duplication (OverlapDeduper) that
// counts every message once while both deliver. The replacement takes over when the old
// connection has caught up with it, when the old one closes, or when the overlap has
// lasted the configured maximum since the replacement delivered; the table is dropped once it
// has settled. A replacement that fails is retried after a delay that doubles with each
// failure in a row, so that a venue refusing new connections is not asked on every tick. It
// decides; the session opens, retires and reports connections.
//
// Thread contract: the session's worker only. accept() and checksSequence() are on the hot
// path while an overlap lasts. Times are the session's monotonic ms.

#include "venues/OverlapDeduper.h"

#include <QtCore/QtGlobal>

#include <optional>

namespace streamscope {

struct DecodedFields;

class MakeBeforeBreak {
public:
    enum class Step : quint8 { None = 0, SwitchOver, Settled };

    bool inProgress() const { return m_toId != 0; }
    bool overlapping() const { return m_dedupe.active(); }
    bool switched() const { return m_dedupe.switched(); }
    int fromId() const { return m_fromId; }
    int toId() const { return m_toId; }

    // Before the replacement opens, so that its first message is de-duplicated already.
    void prepare() { m_dedupe.begin(); }
    void begin(int fromId, int toId);
    // Back to no rollover (finished, or the connections dropped).
    void reset();
    // The replacement failed: back to no rollover, and the next may start retryBaseMs ·
    // 2^(failures in a row − 1) later, at most retryMaxMs.
    void abandon(qint64 nowMs, qint64 retryBaseMs, qint64 retryMaxMs);
    // Whether a rollover may start now: none failed within its retry delay.
    bool mayStart(qint64 nowMs) const { return !m_retryAtMs || nowMs >= *m_retryAtMs; }

    // Whether a data message of connection `linkId` counts (false: a duplicate). `fields`
    // is null when the stream does not decode.
    bool accept(int linkId, const DecodedFields *fields, qint64 nowMs);
    // While two connections overlap their sequences interleave: only one is checked.
    bool checksSequence(int linkId) const { return !m_dedupe.active() || m_dedupe.switched() || linkId == m_fromId; }

    // After each message while overlapping: switch when the old connection caught up.
    Step afterMessage() const;
    // On the housekeeping tick: switch when the overlap lasted overlapMaxMs since the new
    // connection delivered its first data (or came up, at `toConnectedMs`; none while it is
    // not up), or settle overlapMaxMs after the switch.
    Step onTick(qint64 nowMs, qint64 overlapMaxMs, std::optional<qint64> toConnectedMs) const;
    // The replacement takes over; the old connection is being retired.
    void switchOver(qint64 nowMs);

private:
    OverlapDeduper m_dedupe;
    int m_fromId = 0;
    int m_toId = 0;
    std::optional<qint64> m_firstDataMs; // first data message on the new connection
    qint64 m_switchedMs = 0;
    int m_failures = 0;                // replacements failed in a row
    std::optional<qint64> m_retryAtMs; // after a failure: when the next may start
};

} // namespace streamscope
