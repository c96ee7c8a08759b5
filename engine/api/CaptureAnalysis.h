#pragma once

// A capture file (docs/capture.md) read back as an offline stream: its counts, its latency
// histogram (receive time − the venue's event time, decoded by the engine's own decoder as a
// live stream's are: Binance "E", Betfair "pt"), its message rate second by second over the
// capture's own time span, its events, its order books rebuilt by the live engine's rules
// (CaptureBooks.h), and its last messages for the inspector. What the desktop app's File → Open
// capture shows.
//
// Memory is bounded whatever the capture's size or content: the file is read line by line
// (CaptureReader; a line over 64 MiB is skipped as malformed), the messages kept are the last
// maxMessages within maxMessageBytes (the others are counted in messagesLeftOut), a message
// over 16 MiB is counted but not decoded, the events kept are the first maxEvents (by name
// only past 8 MiB of them), and the rate series has at most kMaxRateBins bins (a longer
// capture gets wider bins).
//
// Thread contract: analyzeCapture() runs on any thread (a worker thread in the app: it reads
// the whole file); it touches nothing shared. The result is a plain value.

#include "BookStatus.h"
#include "LatencySnapshot.h"
#include "RedactedUrl.h"
#include "StreamRecords.h"
#include "StreamTypes.h"

#include <QtCore/QString>
#include <QtCore/QVector>

#include <atomic>
#include <functional>

namespace streamscope {

struct CaptureEvent {
    qint64 timeUs = 0;
    QString name;    // "connected", "closed", "gap", ...
    QByteArray json; // the whole event object as recorded
};

struct CaptureAnalysis {
    static constexpr int kMaxRateBins = 3600;

    bool ok = false;
    QString error; // why it could not be read at all, or why reading stopped early
    QString path;
    QString stream;  // from the first line's "capture" event; the file's name when absent
    RedactedUrl url; // the header's, without secrets (the file may come from anyone)
    QString venueName;
    Venue venue = Venue::Unknown;
    QString mode;
    QString version; // StreamScope's that recorded it

    bool compressed = false;
    bool truncated = false;     // cut short: read up to its last complete block and line
    quint64 malformedLines = 0; // lines that are not capture lines, skipped
    QString firstMalformed;     // "line 12: not valid base64"

    qint64 firstUs = 0; // the first and last line's times
    qint64 lastUs = 0;
    quint64 messages = 0;
    quint64 bytes = 0;
    quint64 binaryMessages = 0;
    quint64 parseErrors = 0; // messages that are not valid JSON (parsed captures)
    quint64 gaps = 0;        // gap events
    quint64 reconnects = 0;  // reconnect events
    LatencySnapshot latency; // every message with a plausible event time
    QVector<double> rate;    // messages per second in each bin, from firstUs
    int rateBinSeconds = 1;

    // The order books rebuilt from the capture (CaptureBooks.h), one per instrument, as the live
    // stream's were; empty when its stream keeps none.
    QVector<BookStatus> books;

    // The first maxEvents (the "capture" line included), and the rebuilt books' events ("book",
    // "book_desync") among them at their recorded times.
    QVector<CaptureEvent> events;
    quint64 eventsLeftOut = 0;
    QVector<InspectedMessage> lastMessages; // oldest first
    quint64 messagesLeftOut = 0;            // messages not in lastMessages (older ones)

    double spanSeconds() const { return lastUs > firstUs ? double(lastUs - firstUs) / 1e6 : 0.0; }
};

struct CaptureAnalysisOptions {
    int maxMessages = 5000;                      // the inspector's usual capacity
    qint64 maxMessageBytes = 64LL * 1024 * 1024; // the kept messages' text, at most
    int maxEvents = 20000;
    std::function<void(int percent)> progress; // from the reading thread, at most every percent
    const std::atomic<bool> *cancel = nullptr; // set: stops early (error says so)
};

CaptureAnalysis analyzeCapture(const QString &path, const CaptureAnalysisOptions &options = {});

} // namespace streamscope
