#include "StatusBarController.h"

#include "AlertMonitor.h"
#include "ElidedLabel.h"
#include "Format.h"
#include "HostClock.h"
#include "StreamTableModel.h"
#include "WidgetHelpers.h"

#include <QtWidgets/QLabel>
#include <QtWidgets/QStatusBar>

namespace streamscope::ui {

StatusBarController::StatusBarController(QStatusBar *bar, const StreamTableModel *model,
                                         const alerts::AlertMonitor *alerts, QObject *parent)
    : QObject(parent)
    , m_model(model)
    , m_alerts(alerts)
{
    const auto place = [bar](QLabel *l, const char *name, const QString &tip) {
        l->setObjectName(QLatin1String(name));
        l->setTextFormat(Qt::PlainText);
        l->setToolTip(tip);
        l->setContentsMargins(8, 0, 8, 0);
        bar->addPermanentWidget(l);
        return l;
    };
    const auto make = [place](const char *name, const QString &tip) { return place(new QLabel, name, tip); };
    // The long texts give up width first (cut, the whole text in the tooltip), so that the
    // status bar never makes the window wider than the screen.
    m_streams = new ElidedLabel;
    place(m_streams, "statusStreams", tr("Streams by state"));
    m_alertCount = make("statusAlerts", tr("Active alerts"));
    m_rate = make("statusRate", tr("Messages and bytes per second over all streams"));
    m_clock = make("statusClock", QString());
    m_record = new ElidedLabel;
    place(m_record, "statusRecord", QString());
    m_record->hide();
    m_cpuUse = make("statusCpu", tr("CPU used by StreamScope (engine and window), percent of one core"));
    // The figures change every tick: their labels keep one size (wide enough for the widest
    // figures), so that a new figure repaints its label and lays out nothing.
    m_rate->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_cpuUse->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    reserveFigureWidth(m_rate, tr("%1 msgs/s · %2 KB/s").arg(QStringLiteral("999.9 k"), QStringLiteral("9999.9")));
    reserveFigureWidth(m_cpuUse, tr("CPU %1 %").arg(QStringLiteral("199")));
    reserveFigureWidth(m_clock, tr("clock synced ±%1").arg(QStringLiteral("0.99 ms")));
    reserveFigureWidth(m_alertCount, QStringLiteral("⚠ ") + countNoun(99, tr("alert"), tr("alerts")));
}

void StatusBarController::refresh(const SnapshotHub::Tick &tick)
{
    int counts[256] = {};
    int captures = 0; // open captures: rows, not streams
    for (const StreamTableModel::Row &row : m_model->rows()) {
        if (row.offline)
            ++captures;
        else
            ++counts[quint8(row.snap.state)];
    }
    QStringList parts;
    parts.append(countNoun(quint64(m_model->rows().size() - captures), tr("stream"), tr("streams")));
    for (StreamState s : {StreamState::Live, StreamState::Connecting, StreamState::Subscribing, StreamState::Stalled,
                          StreamState::Degraded, StreamState::Reconnecting, StreamState::Failed, StreamState::Stopped,
                          StreamState::Idle}) {
        if (counts[int(s)])
            parts.append(QStringLiteral("%1 %2").arg(counts[int(s)]).arg(stateName(s)));
    }
    if (captures)
        parts.append(countNoun(quint64(captures), tr("capture"), tr("captures")));
    const QString streams = parts.join(QStringLiteral(" · "));
    if (m_streams->text() != streams)
        m_streams->setText(streams);
    setFigureText(m_rate,
                  tr("%1 msgs/s · %2 KB/s")
                      .arg(formatRate(m_model->totalMsgsPerSec()), formatBytesRate(m_model->totalBytesPerSec())));
    const int alerts = m_alerts->activeCount();
    // Its style first (bold: wider), kept while it is hidden, so that it is set once.
    if (alerts)
        setStyleSheetIfChanged(
            m_alertCount,
            QStringLiteral("color: %1; font-weight: bold;").arg(stateColor(StreamState::Failed, m_dark).name()));
    setFigureText(m_alertCount,
                  alerts ? QStringLiteral("⚠ ") + countNoun(quint64(alerts), tr("alert"), tr("alerts")) : QString());
    m_alertCount->setVisible(alerts > 0);
    int recording = 0;
    quint64 recordedBytes = 0;
    QStringList recordTip;
    for (const StreamTableModel::Row &row : m_model->rows()) {
        if (!row.snap.record.on)
            continue;
        ++recording;
        recordedBytes += row.snap.record.bytesWritten;
        recordTip << QStringLiteral("%1: %2").arg(row.snap.name, row.snap.record.file);
    }
    m_record->setVisible(recording > 0);
    if (recording > 0) {
        const QString text = tr("● recording %1 · %2 MB")
                                 .arg(countNoun(quint64(recording), tr("stream"), tr("streams")))
                                 .arg(double(recordedBytes) / (1024.0 * 1024.0), 0, 'f', 1);
        if (m_record->text() != text)
            m_record->setText(text);
        setStyleSheetIfChanged(m_record,
                               QStringLiteral("color: %1;").arg(stateColor(StreamState::Failed, m_dark).name()));
        m_record->setToolTip(recordTip.join(QLatin1Char('\n')));
    }
    if (tick.kind != SnapshotHub::TickKind::Slow)
        return;
    // Once a second: the kernel's view of this machine's clock, and the CPU since the last second.
    updateClock(HostClockState::read());
    const double cpuPercent = m_cpu.sample();
    if (cpuPercent >= 0.0)
        setFigureText(m_cpuUse, tr("CPU %1 %").arg(QString::number(cpuPercent, 'f', cpuPercent < 10 ? 1 : 0)));
    else
        setFigureText(m_cpuUse, tr("CPU –"));
}

void StatusBarController::updateClock(const HostClockState &clock)
{
    setFigureText(m_clock, hostClockText(clock));
    const bool bad = clock.synchronised.has_value() && !*clock.synchronised;
    setStyleSheetIfChanged(
        m_clock, bad ? QStringLiteral("color: %1;").arg(stateColor(StreamState::Stalled, m_dark).name()) : QString());
    QString tip = tr("This machine's clock, as its kernel sees it: latency is measured against it (docs/clock.md)");
    if (clock.estimatedErrorMs.has_value())
        tip += tr("\nEstimated error %1").arg(formatDurationMs(*clock.estimatedErrorMs));
    if (clock.maximumErrorMs.has_value())
        tip += tr("\nMaximum error %1").arg(formatDurationMs(*clock.maximumErrorMs));
    m_clock->setToolTip(tip);
}

} // namespace streamscope::ui
