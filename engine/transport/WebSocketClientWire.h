#pragma once

// RFC 6455's wire constants, named, and the frames a client writes: what the native websocket
// transport (NativeWebSocketTransport), its frame reader and its handshake share.
//
// Thread contract: constants and pure functions, any thread.

#include <QtCore/QByteArray>
#include <QtCore/QByteArrayView>

namespace streamscope::ws {

// First byte of a frame (§5.2).
constexpr quint8 kFin = 0x80;
constexpr quint8 kRsvBits = 0x70; // RSV1..3: only an extension may set them, and we negotiate none
constexpr quint8 kOpcodeBits = 0x0f;
// Second byte.
constexpr quint8 kMaskBit = 0x80; // a client masks every frame; a server must not (§5.1)
constexpr quint8 kLengthBits = 0x7f;
constexpr quint8 kLength16 = 126; // the length follows in 2 bytes
constexpr quint8 kLength64 = 127; // the length follows in 8 bytes, top bit clear

enum Opcode : quint8 {
    kOpContinuation = 0x0,
    kOpText = 0x1,
    kOpBinary = 0x2,
    kOpClose = 0x8,
    kOpPing = 0x9,
    kOpPong = 0xa,
};
constexpr bool isControl(quint8 opcode)
{
    return opcode & 0x8;
}

// Control frames carry at most 125 bytes and are never fragmented (§5.5); a close frame's
// reason therefore at most 123 after its 2-byte code.
constexpr qsizetype kMaxControlPayload = 125;
constexpr qsizetype kMaxCloseReason = kMaxControlPayload - 2;
// 2 bytes, 8 of length, 4 of mask key.
constexpr qsizetype kMaxHeaderBytes = 14;

// Close codes (§7.4.1).
constexpr quint16 kCloseNormal = 1000;
constexpr quint16 kCloseProtocolError = 1002;
constexpr quint16 kCloseNoStatus = 1005; // never on the wire: a close frame without a code
constexpr quint16 kCloseAbnormal = 1006; // never on the wire: the connection ended without one
constexpr quint16 kCloseInvalidData = 1007;
constexpr quint16 kCloseTooBig = 1009;

// Whether a peer may send `code` in a close frame: the codes RFC 6455 defines for the wire
// (1000-1003, 1007-1011), those IANA registered since (1012-1014: service restart, try again
// later, bad gateway; servers send them when they restart), and the ranges for libraries and
// applications (3000-4999). 1004-1006 and 1015 must never be sent; other codes are reserved.
constexpr bool isValidWireCloseCode(quint16 code)
{
    return (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014) || (code >= 3000 && code <= 4999);
}

// A frame as a client writes it: FIN set, the payload masked with `maskKey` (§5.3), the
// shortest length encoding.
QByteArray clientFrame(quint8 opcode, QByteArrayView payload, quint32 maskKey);
// A close frame with `code` and a reason cut to kMaxCloseReason bytes (at a character's start).
QByteArray clientCloseFrame(quint16 code, QByteArrayView reason, quint32 maskKey);

} // namespace streamscope::ws
