#pragma once

// Makes the transport of one connection: a websocket for ws/wss URLs (QtWebSockets, or our own
// framing when the stream's "transport" is "native"), a CRLF line socket for tcp/tls. Injected into sessions so that session tests can hand them a transport that
// needs no socket.
//
// Thread contract: called on the session's worker; the transport lives there.

#include <functional>

namespace streamscope {

class MessageSink;
class ReceiveBuffer;
class Transport;
struct StreamConfig;

// The caller owns the transport (it is deleted later, never while one of its signals runs).
using TransportFactory = std::function<Transport *(const StreamConfig &, ReceiveBuffer &, MessageSink &)>;

TransportFactory networkTransports();

} // namespace streamscope
