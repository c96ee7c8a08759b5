#include "Utf8Validator.h"

#include <simdjson.h>

namespace streamscope {

bool isValidUtf8(const char *data, qsizetype len) noexcept
{
    return len <= 0 || simdjson::validate_utf8(data, std::size_t(len));
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
