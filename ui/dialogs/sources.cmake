# ui/dialogs: the add / edit stream dialog with its pages; the alert rules, alert destinations, connect-to-agent
# and flight recorder dialogs.
target_sources(streamscope_ui PRIVATE
    dialogs/BetfairPage.h dialogs/BetfairPage.cpp
    dialogs/BinancePage.h dialogs/BinancePage.cpp
    dialogs/BinanceStreamBuilder.h dialogs/BinanceStreamBuilder.cpp
    dialogs/AlertRulesDialog.h dialogs/AlertRulesDialog.cpp
    dialogs/ConnectAgentDialog.h dialogs/ConnectAgentDialog.cpp
    dialogs/FlightRecorderDialog.h dialogs/FlightRecorderDialog.cpp
    dialogs/GenericPage.h dialogs/GenericPage.cpp
    dialogs/InstrumentAliasDialog.h dialogs/InstrumentAliasDialog.cpp
    dialogs/NotifyDialog.h dialogs/NotifyDialog.cpp
    dialogs/StreamDialog.h dialogs/StreamDialog.cpp
    dialogs/VenuePage.h dialogs/VenuePage.cpp
)
