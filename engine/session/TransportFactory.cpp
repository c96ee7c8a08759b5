#include "TransportFactory.h"

#include "transport/LineTransport.h"
#include "transport/WebSocketTransport.h"

namespace streamscope {

TransportFactory networkTransports()
{
    return [](const StreamConfig &config, MessageDecoder &decoder, MessageSink &sink) -> Transport * {
        if (config.isLineProtocol())
            return new LineTransport(config, decoder, sink);
        return new WebSocketTransport(config, decoder, sink);
    };
}

} // namespace streamscope
