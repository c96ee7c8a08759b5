target_sources(streamscope_engine PRIVATE
    stats/LatencyHistogram.h stats/LatencyHistogram.cpp
    stats/RelaxedCounter.h
    stats/StreamCounters.h
)
