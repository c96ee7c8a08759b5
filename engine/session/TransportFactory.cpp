#include "TransportFactory.h"

#include "transport/LineTransport.h"
#include "transport/NativeWebSocketTransport.h"
#include "transport/WebSocketTransport.h"

namespace streamscope {

TransportFactory networkTransports()
{
    // STREAMSCOPE_WEBSOCKET=qt (or =native) runs every ws/wss stream on that client whatever its
    // "transport" says: to run a whole test suite or a deployment on one client (architecture.md).
    const WebSocketClient all = webSocketClientFromName(qEnvironmentVariable("STREAMSCOPE_WEBSOCKET"));
    return [all](const StreamConfig &config, ReceiveBuffer &buffer, MessageSink &sink) -> Transport * {
        if (config.isLineProtocol())
            return new LineTransport(config, buffer, sink);
        const WebSocketClient client = all == WebSocketClient::Unknown ? config.transport : all;
        if (client == WebSocketClient::Qt)
            return new WebSocketTransport(config, buffer, sink);
        return new NativeWebSocketTransport(config, buffer, sink);
    };
}

} // namespace streamscope
