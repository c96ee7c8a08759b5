#include "ReceivedMessage.h"

namespace streamscope {

void ReceivedMessage::convertHead(qsizetype bytes)
{
    // Room for all of it at once: converting the rest later must not move the head.
    char *start = m_buffer.reserve(std::size_t(m_length) * 3);
    m_converted = narrowAscii(m_units, bytes, start);
    // An ASCII text has as many UTF-8 bytes as UTF-16 units: its size is known without
    // converting the rest.
    if (m_converted == bytes && isAscii(m_units + bytes, m_length - bytes)) {
        m_view = MessageView{start, bytes, m_length, true};
        m_state = State::Head;
        return;
    }
    convertRest();
}

} // namespace streamscope
