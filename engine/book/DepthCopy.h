#pragma once

// The depth ladder's copy of one book (model/BookDepth.h): its state, update id, level counts
// and the best `levels` of each side, bounded by BookDepth::kMaxLevels. Asked for a few times a
// second by the desktop's ladder while it is shown, never on the hot path.
//
// Thread contract: the stream's worker (the book's thread); `out` is then handed over queued.

#include "BookSync.h"
#include "model/BookDepth.h"

namespace streamscope::book {

static_assert(kDepthUnit == kUnit, "the ladder's units are the book's");

// Fills every field of `out` that the book knows (not stream, requestId, ageMs).
void copyDepth(const BookSync &sync, int levels, BookDepth &out);

} // namespace streamscope::book
