#pragma once

// UTF-16 → UTF-8 into a caller's buffer, for the text QWebSocket hands over as a QString.
// Market data is ASCII: its UTF-16 code units are narrowed to bytes (32 at a time with AVX2
// where the CPU has it, 16 with SSE2), and only text from the first non-ASCII unit on goes
// through QStringEncoder.

#include <QtCore/QStringEncoder>
#include <QtCore/QStringView>

namespace streamscope {

// Copies code units to bytes while they are below 0x80; returns how many were copied.
qsizetype narrowAscii(const char16_t *src, qsizetype n, char *dst) noexcept;

// True when every code unit is below 0x80 (the UTF-8 of the text is then one byte per unit).
bool isAscii(const char16_t *src, qsizetype n) noexcept;

// Writes `text` as UTF-8 at `out` (room for 3 bytes per code unit); returns the end.
inline char *encodeUtf8(QStringEncoder &encoder, QStringView text, char *out)
{
    const qsizetype ascii = narrowAscii(reinterpret_cast<const char16_t *>(text.utf16()), text.size(), out);
    if (ascii == text.size())
        return out + ascii;
    // The rest starts at a non-ASCII unit, so no surrogate pair is split here.
    return encoder.appendToBuffer(out + ascii, text.mid(ascii));
}

} // namespace streamscope
