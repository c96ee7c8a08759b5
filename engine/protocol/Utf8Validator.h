#pragma once

// Whether bytes are UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF),
// with simdjson's validator (SIMD, chosen for the CPU at run time), for our websocket transport's
// text frames and close reasons. simdjson stays private to protocol/ (docs/architecture.md).
//
// Thread contract: pure functions, any thread.

#include <QtCore/QtGlobal>

namespace streamscope {

bool isValidUtf8(const char *data, qsizetype len) noexcept;

// Where the last code point of `data` that may be incomplete starts: `len` when the bytes end
// with a complete code point (or with bytes no continuation can make valid, which
// isValidUtf8() then refuses), else the offset of the lead byte of the cut one, at most three
// bytes back and never before `from`. Valid UTF-8 split there is two valid halves, so a
// fragmented text can be checked fragment by fragment.
qsizetype completeUtf8Prefix(const char *data, qsizetype from, qsizetype len) noexcept;

} // namespace streamscope
