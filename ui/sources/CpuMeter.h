#pragma once

// CPU used by this process (engine workers and GUI together) as a percentage of one core,
// from the difference of two readings of the process's CPU time. Sampled once a second by
// the status bar. Any thread, not shared.

#include <QtCore/QElapsedTimer>

namespace streamscope::ui {

class CpuMeter {
public:
    CpuMeter();
    // Percent of one core since the previous call (100 = one core busy); -1 if unknown.
    double sample();

private:
    static qint64 processCpuUs();
    qint64 m_lastCpuUs = 0;
    QElapsedTimer m_wall;
};

} // namespace streamscope::ui
