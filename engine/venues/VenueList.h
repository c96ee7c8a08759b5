// The venues StreamScope knows, one line each, in the order they are listed to users:
// STREAMSCOPE_VENUE(folder). The folder engine/venues/<folder>/ holds everything of the venue
// and defines, in namespace streamscope::<folder>:
//   VenueEntry entry();                            its handler, decode spec, presets (VenueRegistry.h)
//   std::vector<ScenarioDefinition> scenarios();   its replay scenarios (venues/scenario/ScenarioKit.h)
//   std::vector<ServerTimeRoute> serverTimes();    its server-time answers, as the replay server gives them
// and lists its sources in <folder>/sources.cmake. Read by the engine's registry
// (VenueRegistry.cpp), the scenario registry (venues/scenario/VenueScenarios.cpp) and CMake
// (venues.cmake). docs/architecture.md, "Adding a venue".
//
// No include guard: each reader defines STREAMSCOPE_VENUE and includes this file.

// clang-format off
STREAMSCOPE_VENUE(binance)
STREAMSCOPE_VENUE(betfair)
STREAMSCOPE_VENUE(okx)
STREAMSCOPE_VENUE(bybit)
STREAMSCOPE_VENUE(hyperliquid)
STREAMSCOPE_VENUE(kraken)
STREAMSCOPE_VENUE(coinbase)
STREAMSCOPE_VENUE(generic)
// clang-format on
