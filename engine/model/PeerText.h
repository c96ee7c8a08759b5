#pragma once

// Text that came from a peer (a message's bytes, a close reason, a venue's error message),
// made safe to show: on a terminal, in a log, in a tooltip. Control characters are written
// as visible escapes, so a server cannot clear the screen, set the window title, move the
// cursor or reorder what is shown:
//   - C0 (U+0000..U+001F, including tab, line feed and carriage return): \t \n \r, else \xNN
//   - DEL (U+007F): \x7f; C1 (U+0080..U+009F): \u0080..\u009f
//   - bidirectional controls (U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069) and
//     the line and paragraph separators (U+2028, U+2029): \uNNNN
//   - bytes that are not UTF-8, and lone surrogates: \xNN, \uNNNN
// A backslash is left as it is, so escaping text twice changes nothing. Text longer than
// `maxChars` (of the result; -1: no limit) is cut before an escape or character that would
// cross the limit and ends in "…".
//
// Thread contract: pure functions, any thread.

#include <QtCore/QByteArrayView>
#include <QtCore/QString>
#include <QtCore/QStringView>

namespace streamscope {

QString peerText(QByteArrayView utf8, qsizetype maxChars = -1);
QString peerText(QStringView text, qsizetype maxChars = -1);
// The same; text that needs nothing is returned shared, without a copy.
QString peerText(const QString &text, qsizetype maxChars = -1);
inline QString peerText(const QByteArray &utf8, qsizetype maxChars = -1)
{
    return peerText(QByteArrayView(utf8), maxChars);
}
// True when peerText(text) would change nothing but a cut.
bool isPeerTextSafe(QStringView text);

} // namespace streamscope
