#pragma once

// The websocket wire constants (RFC 6455) that the replay server writes and reads by hand:
// ReplayConnection, WebSocketFrameParser and FrameSet, and the benchmark's wire-level
// client and paced sender. They write frames themselves rather than through a websocket
// library because they must also send what a correct peer never would (reserved bits,
// invalid UTF-8, oversized messages) and must serialize frames ahead of time.
//
// Thread contract: constants only.

#include <QtGlobal>

namespace streamscope::replay {

// The server proves the upgrade by hashing the client's Sec-WebSocket-Key with this GUID
// (RFC 6455 §4.2.2): Sec-WebSocket-Accept = base64(SHA-1(key + kHandshakeGuid)).
constexpr char kHandshakeGuid[] = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

// The most a client's HTTP upgrade request may take before the server drops the connection.
constexpr qsizetype kMaxHandshakeBytes = 16 * 1024;

// First header byte: FIN, three reserved bits, then the opcode in the low four bits.
constexpr quint8 kFin = 0x80;
constexpr quint8 kRsv1 = 0x40;
constexpr quint8 kRsv2 = 0x20;
constexpr quint8 kRsv3 = 0x10;
constexpr quint8 kRsvBits = kRsv1 | kRsv2 | kRsv3;
constexpr quint8 kOpcodeBits = 0x0f;

constexpr quint8 kOpContinuation = 0x0;
constexpr quint8 kOpText = 0x1;
constexpr quint8 kOpBinary = 0x2;
constexpr quint8 kOpClose = 0x8;
constexpr quint8 kOpPing = 0x9;
constexpr quint8 kOpPong = 0xA;
// Opcodes 0x8-0xF are control frames (RFC 6455 §5.5): never fragmented, at most
// kMaxInlineLength bytes of payload.
constexpr quint8 kOpControlBit = 0x8;

// Second header byte: MASK, then a 7-bit payload length. Every client-to-server frame is
// masked with a 4-byte key that follows the length; a server never masks (§5.3).
constexpr quint8 kMask = 0x80;
constexpr quint8 kLengthBits = 0x7f;
constexpr int kMaskKeySize = 4;

// The 7-bit length is the payload length itself up to 125; the two values above it are
// markers, because 7 bits cannot hold a real message size (§5.2): 126 means the length
// follows as 16 bits, 127 as 64 bits, both in network byte order. A control frame must fit
// the 7 bits, hence its 125-byte limit.
constexpr quint8 kMaxInlineLength = 125;
constexpr quint8 kLength16Marker = 126;
constexpr quint8 kLength64Marker = 127;
constexpr quint64 kMaxLength16 = 0xffff;

// Close codes (§7.4.1) the replay server sends or checks.
constexpr quint16 kCloseNormal = 1000;
constexpr quint16 kCloseGoingAway = 1001;
constexpr quint16 kCloseProtocolError = 1002;
// Never on the wire: what a close frame without a code stands for (§7.1.5).
constexpr quint16 kCloseNoStatus = 1005;
constexpr quint16 kCloseTooBig = 1009;

} // namespace streamscope::replay
