// Betfair's replay scenario: market change messages over lines, with the specials of a change
// stream (heartbeat, SUB_IMAGE with three best offers a side, RESUB_DELTA, status 503, con=true,
// a segmented change).
// Compiled into StreamScope::VenueScenarios (Qt Core only): includes nothing of the engine.

#include "ScenarioKit.h"

namespace streamscope::betfair {

namespace {

using scenario::kBaseTimeMs;
using scenario::PoolMessage;
using scenario::ScenarioBuilder;

PoolMessage mcm(ScenarioBuilder &b, quint64 i)
{
    b.raw(R"({"op":"mcm","id":2,"clk":")").clk().raw(R"(","pt":)").timeMs(kBaseTimeMs + i, true);
    b.raw(R"(,"mc":[{"id":"1.2345","rc":[{"id":47972,"ltp":)").odds().raw("}]}]}");
    return b.take();
}

void specials(ScenarioBuilder &b, scenario::ScenarioSpecials &out)
{
    out.changeStream = true;
    b.raw(R"({"op":"mcm","id":2,"clk":")").clk().raw(R"(","pt":)").timeMs(kBaseTimeMs, true);
    b.raw(R"(,"ct":"HEARTBEAT"})");
    out.heartbeat = b.take();
    b.raw(R"({"op":"mcm","id":2,"initialClk":"xAeGqeqzBsQHkdq8uQbEB9jygrkG","clk":")").clk();
    b.raw(R"(","conflateMs":0,"heartbeatMs":)").heartbeatMs().raw(R"(,"pt":)").timeMs(kBaseTimeMs, true);
    b.raw(R"(,"ct":"SUB_IMAGE","mc":[{"id":"1.2345","img":true,"rc":[{"id":47972,)");
    b.raw(R"("batb":[[0,2.5,120.0],[1,2.48,80.0],[2,2.46,45.5]],)");
    b.raw(R"("batl":[[0,2.52,95.0],[1,2.54,60.0],[2,2.56,30.25]]}]}]})");
    out.subImage = b.take();
    b.raw(R"({"op":"mcm","id":2,"initialClk":"xAeGqeqzBsQHkdq8uQbEB9jygrkG","clk":")").clk();
    b.raw(R"(","conflateMs":0,"heartbeatMs":)").heartbeatMs().raw(R"(,"pt":)").timeMs(kBaseTimeMs, true);
    b.raw(R"(,"ct":"RESUB_DELTA","mc":[{"id":"1.2345","rc":[{"id":47972,"ltp":2.52}]}]})");
    out.resubDelta = b.take();
    b.raw(R"({"op":"mcm","id":2,"clk":")").clk().raw(R"(","status":503,"pt":)").timeMs(kBaseTimeMs, true);
    b.raw(R"(,"mc":[{"id":"1.2345","rc":[{"id":47972,"ltp":2.54}]}]})");
    out.status503 = b.take();
    b.raw(R"({"op":"mcm","id":2,"clk":")").clk().raw(R"(","pt":)").timeMs(kBaseTimeMs, true);
    b.raw(R"(,"mc":[{"id":"1.2345","con":true,"rc":[{"id":47972,"ltp":2.56}]}]})");
    out.conflated = b.take();
    const char *parts[3] = {"SEG_START", "SEG", "SEG_END"};
    for (int k = 0; k < 3; ++k) {
        b.raw(R"({"op":"mcm","id":2,"clk":")").clk().raw(R"(","segmentType":")").raw(parts[k]);
        b.raw(R"(","pt":)").timeMs(kBaseTimeMs, true);
        b.raw(R"(,"mc":[{"id":"1.2345","rc":[{"id":47972,"ltp":2.58}]}]})");
        out.segments[k] = b.take();
    }
    b.raw(R"({"op":"mcm","id":2,"clk":"AEYAVAA7","pt":17000000,"mc":[{"id":"1.2345")");
    out.badJson = b.take();
}

} // namespace

std::vector<scenario::ScenarioDefinition> scenarios()
{
    return {{"betfair_mcm", 200000, &mcm, &specials}};
}

// No server-time endpoint.
std::vector<scenario::ServerTimeRoute> serverTimes()
{
    return {};
}

} // namespace streamscope::betfair
