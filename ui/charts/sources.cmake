# ui/charts: our wrappers of Qt Charts (rate, latency histogram, sparklines) and their shared style.
target_sources(streamscope_ui PRIVATE
    charts/DepthChart.h charts/DepthChart.cpp
    charts/AxisTicks.h charts/AxisTicks.cpp
    charts/ChartStyle.h
    charts/LatencyChart.h charts/LatencyChart.cpp
    charts/LatencyWindows.h charts/LatencyWindows.cpp
    charts/RateChart.h charts/RateChart.cpp
    charts/Sparkline.h charts/Sparkline.cpp
)
