#include "BinanceSpec.h"

#include "venues/SpecConventions.h"

namespace streamscope::binance {

// Binance market streams: an event {"e":type,"E":time ms,"s":symbol,...} on a raw stream, or
// {"stream":name,"data":event} on a combined one; "data" may be an array of events
// (!ticker@arr), of which the first stands for the batch. Depth diffs carry U/u (spot) and pu
// (futures); trades their id in "a" (aggTrade) or "t" (trade). The serverShutdown notice
// announces a closing connection. Responses are JSON-RPC style ({"result":..,"id":..},
// {"error":..}) or the websocket API's {"id":..,"status":..} envelope.
const DecodeSpec &decodeSpec()
{
    static const DecodeSpec spec = [] {
        DecodeSpec s(depthStreamRules());
        useDepthStreamConventions(s);
        // {"stream":"!serverShutdown": '!' (byte 11) starts only the all-market streams' names.
        // aggTrade and trade: the price "p" of the event, under "data" on a combined stream.
        s.trades = {.eventTypes = {"aggTrade", "trade"}, .event = "data", .price = "p"};
        s.notice = {.eventType = "serverShutdown", .rawPrefix = R"({"stream":"!serverShutdown")", .rawProbe = 11};
        return s;
    }();
    return spec;
}

} // namespace streamscope::binance
