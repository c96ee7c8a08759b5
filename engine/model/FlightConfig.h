#pragma once

// The flight recorder (docs/capture.md, "Flight recorder"): every stream keeps its last
// minutes compressed in memory, within one memory cap shared by all streams, and writes them
// to a capture file on demand (a user's "Save the last 5 minutes", an alert that fires). What
// the workspace's top-level "flight_recorder" object and `--flight-recorder` ask for, and
// what a snapshot shows of it. Plain values.

#include <QtCore/QString>

namespace streamscope {

struct FlightConfig {
    static constexpr int kDefaultMinutes = 5;
    static constexpr int kDefaultMemoryMb = 256;
    static constexpr int kDefaultSaveEveryS = 60;

    bool enabled = false;
    int minutes = kDefaultMinutes;            // how much of each stream is kept
    int memoryMb = kDefaultMemoryMb;          // the cap over all streams' compressed history
    QString dir;                              // where saves go; empty: the application chooses
    int alertSaveEveryS = kDefaultSaveEveryS; // an alert saves a stream at most this often

    bool operator==(const FlightConfig &o) const
    {
        return enabled == o.enabled && minutes == o.minutes && memoryMb == o.memoryMb && dir == o.dir
            && alertSaveEveryS == o.alertSaveEveryS;
    }
    bool operator!=(const FlightConfig &o) const { return !(*this == o); }
};

// What a snapshot shows of a stream's flight recorder.
struct FlightStatus {
    bool on = false;
    quint64 memoryBytes = 0; // compressed history plus the text not yet compressed
    qint64 heldMs = 0;       // the time span held, first to last message
    quint64 messagesHeld = 0;
    quint64 evictedAgeMessages = 0; // older than the configured minutes
    quint64 evictedCapMessages = 0; // evicted early to keep the memory cap
    quint64 dropped = 0;            // not kept: the hand-off buffer was full
    quint64 droppedEvents = 0;      // events (connected, closed, gap, ...) not kept, likewise
    quint64 savedFiles = 0;
    QString lastFile; // the last file saved
    quint64 saveErrors = 0;
    QString error;        // the last save error, empty if none
    qint64 keepMs = 0;    // the time kept (the configured minutes)
    quint64 capBytes = 0; // the memory cap over all streams
};

} // namespace streamscope
