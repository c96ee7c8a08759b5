#pragma once

// The main window's status bar: streams by state, active alerts, the total message and byte
// rates, this machine's clock, what is being recorded and the CPU the process uses. Refreshed
// on every tick of the SnapshotHub from the stream table's rows; the host clock and the CPU
// are read on slow ticks only (once a second), which the tick's kind says.
//
// Thread contract: GUI thread only. Owns its labels (children of the status bar) and the CPU
// meter; reads the table and the alert monitor, which it does not own.

#include "CpuMeter.h"
#include "SnapshotHub.h"

#include <QtCore/QObject>

class QLabel;
class QStatusBar;

namespace streamscope {
struct HostClockState;
}
namespace streamscope::alerts {
class AlertMonitor;
}

namespace streamscope::ui {

class ElidedLabel;
class StreamTableModel;

class StatusBarController : public QObject {
    Q_OBJECT
public:
    // Adds its labels to `bar`, in the order they are shown.
    StatusBarController(QStatusBar *bar, const StreamTableModel *model, const alerts::AlertMonitor *alerts,
                        QObject *parent = nullptr);

    void refresh(const SnapshotHub::Tick &tick);
    // The colours of the alert, recording and clock texts follow the palette.
    void setDark(bool dark) { m_dark = dark; }

private:
    void updateClock(const HostClockState &clock);

    const StreamTableModel *m_model = nullptr;
    const alerts::AlertMonitor *m_alerts = nullptr;
    CpuMeter m_cpu;
    ElidedLabel *m_streams = nullptr; // the longest: cut first when the window is narrow
    QLabel *m_alertCount = nullptr;
    QLabel *m_rate = nullptr;
    QLabel *m_clock = nullptr;
    ElidedLabel *m_record = nullptr;
    QLabel *m_cpuUse = nullptr;
    bool m_dark = false;
};

} // namespace streamscope::ui
