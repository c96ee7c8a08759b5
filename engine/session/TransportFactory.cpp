#include "TransportFactory.h"

#include "transport/LineTransport.h"
#include "transport/NativeWebSocketTransport.h"
#include "transport/WebSocketTransport.h"

namespace streamscope {

TransportFactory networkTransports()
{
    // STREAMSCOPE_WEBSOCKET=native runs every ws/wss stream on the native client whatever its
    // "transport" says: to run a whole test suite or a deployment against it (architecture.md).
    const bool allNative = qEnvironmentVariable("STREAMSCOPE_WEBSOCKET") == QLatin1String("native");
    return [allNative](const StreamConfig &config, ReceiveBuffer &buffer, MessageSink &sink) -> Transport * {
        if (config.isLineProtocol())
            return new LineTransport(config, buffer, sink);
        if (allNative || config.transport == WebSocketClient::Native)
            return new NativeWebSocketTransport(config, buffer, sink);
        return new WebSocketTransport(config, buffer, sink);
    };
}

} // namespace streamscope
