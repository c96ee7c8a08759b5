#pragma once

// The text of a capture file (docs/capture.md): one record per line,
//   <time> <message>          a message exactly as received (UTF-8 text, no CR or LF)
//   <time>=<base64>           a binary frame, or a message holding a CR or LF
//   <time>#<json object>      an event (connected, closed, reconnect, ...)
// where <time> is the local receive time in UTC, ISO-8601 with microseconds and 'Z'
// ("2026-11-30T22:49:13.123456Z"). The separator right after the time tells the three apart,
// so no message can be mistaken for an event.
//
// Thread contract: pure functions, any thread. The append functions only grow `out`, so a
// reused string allocates nothing once it is large enough.

#include "CaptureReader.h" // kTimeChars, the separators, parseTime(), eventJson(): shared with the readers

#include <QtCore/QByteArray>
#include <QtCore/QString>

#include <cstddef>
#include <string>

namespace streamscope::capture {

constexpr int kFormatVersion = 1;

// Writes the time (kTimeChars characters) at `out`. Times before the epoch are written as
// the epoch; years past 9999 as 9999-12-31T23:59:59.999999Z.
void writeTime(char *out, qint64 epochUs);
QByteArray formatTime(qint64 epochUs);

// Whether a message must be written in base64: a binary frame, or text holding CR or LF.
bool needsBase64(const char *data, std::size_t len, bool binary);
void appendBase64(std::string &out, const char *data, std::size_t len);
// Decodes standard base64 (with padding); false on a character outside the alphabet.
bool decodeBase64(const char *text, std::size_t len, QByteArray *out);

void appendMessageLine(std::string &out, qint64 epochUs, const char *data, std::size_t len, bool binary);
void appendEventLine(std::string &out, qint64 epochUs, const QByteArray &json);
// An event's JSON object is eventJson() (CaptureReader.h).

// The file name of a capture: "<stream>-<UTC yyyyMMddTHHmmss>Z[_N].ndjson[.zst]"; characters
// of the stream's name other than letters, digits, '.', '_' and '-' become '_'.
QString fileName(const QString &stream, qint64 epochUs, int serial, bool compress);

} // namespace streamscope::capture
