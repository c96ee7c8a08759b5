#include "ReceivedMessage.h"

#include "Utf8Encode.h"

namespace streamscope {

MessageView ReceivedMessage::convertHead(qsizetype bytes)
{
    // Room for all of it at once: converting the rest later must not move the head.
    char *start = m_buffer.reserve(std::size_t(m_length) * 3);
    m_converted = narrowAscii(m_units, bytes, start);
    // An ASCII text has as many UTF-8 bytes as UTF-16 units: its size is known without
    // converting the rest.
    if (m_converted == bytes && isAscii(m_units + bytes, m_length - bytes)) {
        m_view = MessageView{start, bytes, m_length, true};
        m_state = State::Head;
        return m_view;
    }
    convertRest();
    return m_view;
}

void ReceivedMessage::convertRest()
{
    char *start = m_buffer.reserve(std::size_t(m_length) * 3);
    // What is converted already is ASCII (narrowAscii stops at the first other unit), so the
    // rest starts at the same offset in bytes as in units.
    char *end = encodeUtf8(*m_encoder, QStringView(m_units + m_converted, m_length - m_converted), start + m_converted);
    m_converted = m_length;
    const qsizetype size = end - start;
    m_view = MessageView{start, size, size, true};
    m_state = State::Whole;
}

} // namespace streamscope
