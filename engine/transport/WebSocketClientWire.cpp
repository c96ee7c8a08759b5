#include "WebSocketClientWire.h"

#include <QtCore/QtEndian>

namespace streamscope::ws {

QByteArray clientFrame(quint8 opcode, QByteArrayView payload, quint32 maskKey)
{
    const qsizetype len = payload.size();
    QByteArray frame;
    frame.reserve(kMaxHeaderBytes + len);
    frame.append(char(kFin | opcode));
    if (len < kLength16) {
        frame.append(char(kMaskBit | quint8(len)));
    } else if (len <= 0xffff) {
        frame.append(char(kMaskBit | kLength16));
        const quint16 be = qToBigEndian(quint16(len));
        frame.append(reinterpret_cast<const char *>(&be), 2);
    } else {
        frame.append(char(kMaskBit | kLength64));
        const quint64 be = qToBigEndian(quint64(len));
        frame.append(reinterpret_cast<const char *>(&be), 8);
    }
    const quint32 keyBe = qToBigEndian(maskKey);
    const auto *key = reinterpret_cast<const char *>(&keyBe);
    frame.append(key, 4);
    const qsizetype start = frame.size();
    frame.append(payload.data(), len);
    char *out = frame.data() + start;
    for (qsizetype i = 0; i < len; ++i)
        out[i] = char(out[i] ^ key[i & 3]);
    return frame;
}

QByteArray clientCloseFrame(quint16 code, QByteArrayView reason, quint32 maskKey)
{
    qsizetype len = std::min(reason.size(), kMaxCloseReason);
    // Never end in the middle of a character: step back over continuation bytes.
    if (len < reason.size())
        while (len > 0 && (quint8(reason[len]) & 0xc0) == 0x80)
            --len;
    QByteArray payload(2, Qt::Uninitialized);
    qToBigEndian(code, payload.data());
    payload.append(reason.data(), len);
    return clientFrame(kOpClose, payload, maskKey);
}

} // namespace streamscope::ws
