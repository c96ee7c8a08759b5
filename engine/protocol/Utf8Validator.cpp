#include "Utf8Validator.h"

#include <simdjson.h>

namespace streamscope {

namespace {

// The implementation for this CPU, asked for once: simdjson::validate_utf8() asks for it on every
// call (about 40 instructions a message). Until its first use, simdjson's active implementation
// is a detector that chooses the CPU's and stores it as the active one: a call through it comes
// first, so that what is kept is the chosen one, not the detector.
const simdjson::implementation *chosenImplementation() noexcept
{
    static const simdjson::implementation *const chosen = [] {
        (void)simdjson::get_active_implementation()->name();
        return static_cast<const simdjson::implementation *>(simdjson::get_active_implementation());
    }();
    return chosen;
}

} // namespace

bool isValidUtf8(const char *data, qsizetype len) noexcept
{
    return len <= 0 || chosenImplementation()->validate_utf8(data, std::size_t(len));
}

qsizetype completeUtf8Prefix(const char *data, qsizetype from, qsizetype len) noexcept
{
    // A code point has at most three bytes after its lead byte: look that far back for a lead.
    for (qsizetype i = len - 1; i >= from && i >= len - 3; --i) {
        const auto byte = quint8(data[i]);
        if ((byte & 0xc0) == 0x80)
            continue; // a continuation byte
        qsizetype need = 1;
        if ((byte & 0xe0) == 0xc0)
            need = 2;
        else if ((byte & 0xf0) == 0xe0)
            need = 3;
        else if ((byte & 0xf8) == 0xf0)
            need = 4;
        return i + need > len ? i : len;
    }
    return len;
}

} // namespace streamscope
