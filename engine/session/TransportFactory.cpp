#include "TransportFactory.h"

#include "transport/LineTransport.h"
#include "transport/NativeWebSocketTransport.h"
#include "transport/WebSocketTransport.h"

namespace streamscope {

TransportFactory networkTransports()
{
    return [](const StreamConfig &config, ReceiveBuffer &buffer, MessageSink &sink) -> Transport * {
        if (config.isLineProtocol())
            return new LineTransport(config, buffer, sink);
        if (config.transport == WebSocketClient::Native)
            return new NativeWebSocketTransport(config, buffer, sink);
        return new WebSocketTransport(config, buffer, sink);
    };
}

} // namespace streamscope
