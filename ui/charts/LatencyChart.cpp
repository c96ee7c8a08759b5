#include "LatencyChart.h"

#include "AxisTicks.h"
#include "ChartStyle.h"
#include "Format.h"

#include <QtCharts/QAreaSeries>
#include <QtCharts/QCategoryAxis>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QGraphicsLayout>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QToolButton>
#include <QtWidgets/QVBoxLayout>

#include <array>
#include <cmath>

namespace streamscope::ui {

namespace {
constexpr int kBinsPerOctave = 2;
constexpr int kBinCount = kBinsPerOctave * 37 + 1;
constexpr double kQuantiles[3] = {0.50, 0.99, 0.999};

int binOf(std::uint64_t lowerUs)
{
    if (lowerUs < 1)
        return 0;
    return std::min(kBinCount - 1, int(std::floor(kBinsPerOctave * std::log2(double(lowerUs)))) + 1);
}
double binLowUs(int b)
{
    return b == 0 ? 0.5 : std::pow(2.0, double(b - 1) / kBinsPerOctave);
}
double binHighUs(int b)
{
    return b == 0 ? 1.0 : std::pow(2.0, double(b) / kBinsPerOctave);
}
} // namespace

LatencyChart::LatencyChart(QWidget *parent)
    : QWidget(parent)
{
    m_chart = createPlainChart();

    // The log axes are linear in log10 of the value (the points carry log10 of theirs),
    // labelled by AxisTicks in human units ("100 µs", "1 s"; "1k", "1M"), not printf's "1e+06".
    m_axisX = new QCategoryAxis;
    m_axisX->setObjectName(QStringLiteral("latencyAxis"));
    m_axisX->setTitleText(tr("latency (log scale)"));
    setLogTicks(m_axisX, -2, 3, axisMs);
    m_axisY = new QValueAxis;
    m_axisY->setLabelFormat(QStringLiteral("%.0f%%"));
    m_axisY->setRange(0, 10);
    m_logAxisY = new QCategoryAxis(this); // added to the chart when chosen
    m_logAxisY->setObjectName(QStringLiteral("countLogAxis"));
    m_logAxisY->setTitleText(tr("messages (log)"));
    setLogTicks(m_logAxisY, std::log10(kLogFloor), 1, axisNumber);
    m_chart->addAxis(m_axisX, Qt::AlignBottom);
    m_chart->addAxis(m_axisY, Qt::AlignLeft);
    m_shownAxisY = m_axisY;

    m_upper = new QLineSeries(this);
    m_area = new QAreaSeries(m_upper);
    m_area->setName(tr("share of messages"));
    m_chart->addSeries(m_area);
    m_area->attachAxis(m_axisX);
    m_area->attachAxis(m_axisY);
    const QColor colours[3] = {QColor(0x2d, 0xa4, 0x4e), QColor(0xe3, 0x8b, 0x06), QColor(0xd7, 0x3a, 0x49)};
    for (int i = 0; i < 3; ++i) {
        m_markers[i] = new QLineSeries;
        QPen pen(colours[i]);
        pen.setWidthF(2.0);
        pen.setStyle(Qt::DashLine);
        m_markers[i]->setPen(pen);
        m_chart->addSeries(m_markers[i]);
        m_markers[i]->attachAxis(m_axisX);
        m_markers[i]->attachAxis(m_axisY);
    }
    m_points.reserve(2 * kBinCount + 2);

    m_view = new QChartView(m_chart);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(160);

    m_title = new QLabel;
    m_title->setTextFormat(Qt::PlainText);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_summary = new QLabel;
    m_summary->setWordWrap(true); // an explanation of negative latencies may be long
    m_summary->setTextFormat(Qt::PlainText);
    m_windowBox = new QComboBox;
    m_windowBox->addItem(tr("Last 10 s"), int(LatencyWindows::Window::Last10s));
    m_windowBox->addItem(tr("Last 60 s"), int(LatencyWindows::Window::Last60s));
    m_windowBox->addItem(tr("Since start"), int(LatencyWindows::Window::SinceStart));
    m_windowBox->setToolTip(tr("Time window of the histogram"));

    m_log = new QToolButton;
    m_log->setText(tr("Log"));
    m_log->setObjectName(QStringLiteral("latencyLogScale"));
    m_log->setCheckable(true);
    m_log->setToolTip(tr("Messages per bucket on a logarithmic axis: the tail's few slow messages become visible"));

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_title);
    bar->addStretch();
    bar->addWidget(m_log);
    bar->addWidget(m_windowBox);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 0);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_summary);

    connect(m_windowBox, &QComboBox::currentIndexChanged, this, [this] {
        redraw();
        emit settingsChanged();
    });
    connect(m_log, &QToolButton::toggled, this, [this](bool on) {
        QAbstractAxis *next = on ? static_cast<QAbstractAxis *>(m_logAxisY) : m_axisY;
        if (next == m_shownAxisY)
            return;
        QList<QAbstractSeries *> all{m_area};
        for (QLineSeries *m : m_markers)
            all.append(m);
        swapVerticalAxis(m_chart, m_shownAxisY, next, all, this);
        m_shownAxisY = next;
        m_yMax = -1; // set the range anew
        redraw();
        emit settingsChanged();
    });
    setStream(kInvalidStreamId, QString());
}

bool LatencyChart::isLogScale() const
{
    return m_log->isChecked();
}

void LatencyChart::setLogScale(bool on)
{
    m_log->setChecked(on);
}

LatencyWindows::Window LatencyChart::window() const
{
    return LatencyWindows::Window(m_windowBox->currentData().toInt());
}

void LatencyChart::setWindow(LatencyWindows::Window w)
{
    const int i = m_windowBox->findData(int(w));
    if (i >= 0)
        m_windowBox->setCurrentIndex(i);
}

void LatencyChart::setDark(bool dark)
{
    m_chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    m_chart->setBackgroundRoundness(0);
    QColor fill = dark ? QColor(0x58, 0xa6, 0xff) : QColor(0x21, 0x8b, 0xff);
    fill.setAlpha(150);
    m_area->setBrush(fill);
    m_area->setPen(QPen(fill.darker(130), 1.0));
    const QColor colours[3] = {QColor(0x2d, 0xa4, 0x4e), QColor(0xe3, 0x8b, 0x06), QColor(0xd7, 0x3a, 0x49)};
    for (int i = 0; i < 3; ++i) {
        QPen pen(colours[i]);
        pen.setWidthF(2.0);
        pen.setStyle(Qt::DashLine);
        m_markers[i]->setPen(pen);
    }
}

void LatencyChart::setStream(StreamId id, const QString &name)
{
    if (id == m_windows.stream() && name == m_name)
        return;
    if (id != m_windows.stream()) {
        m_fixed = false;
        m_fixedHistogram = LatencySnapshot();
        m_windowBox->setEnabled(true);
        m_windows.reset(id);
        m_held = false;
        m_heldFrom = LatencySnapshot();
    }
    m_name = name;
    setSource(m_corrected, m_clock, m_note);
    redraw();
}

void LatencyChart::push(const LatencySnapshot &cumulative, bool running, const LatencySnapshot &heldFrom)
{
    if (m_windows.stream() == kInvalidStreamId || m_fixed)
        return;
    if (!running) {
        if (!m_held) {
            m_held = true;
            m_windows.push(cumulative); // everything up to the stop
            m_heldFrom = heldFrom;
            redraw();
        }
        return;
    }
    if (m_held) {
        m_held = false;
        m_heldFrom = LatencySnapshot();
        m_windows.reset(m_windows.stream());
    }
    m_windows.push(cumulative);
    redraw();
}

void LatencyChart::setSource(bool corrected, const QString &clock, const QString &note)
{
    if (m_fixed)
        return; // a capture's: its title stays
    if (corrected != m_corrected) {
        m_corrected = corrected;
        m_windows.reset(m_windows.stream());
        m_held = false;
        m_heldFrom = LatencySnapshot();
    }
    m_clock = clock;
    m_note = note;
    m_title->setText(m_windows.stream() == kInvalidStreamId ? tr("Latency")
                         : m_corrected                      ? tr("Latency — %1 (corrected)").arg(m_name)
                                                            : tr("Latency — %1").arg(m_name));
    m_title->setToolTip(
        m_corrected ? tr("Receive time + the venue's clock offset − event time (docs/clock.md): %1").arg(m_clock)
                    : tr("Receive time − event time, as this machine's clock reads it"));
}

void LatencyChart::setFixed(const LatencySnapshot &whole, const QString &span)
{
    m_fixed = true;
    m_fixedHistogram = whole;
    m_fixedSpan = span;
    m_held = false;
    m_windowBox->setEnabled(false); // one histogram: the whole capture's
    m_title->setText(tr("Latency — %1 (whole capture)").arg(m_name));
    m_title->setToolTip(tr("Receive time recorded in the capture − the message's event time"));
    redraw();
}

LatencySnapshot LatencyChart::shown() const
{
    if (m_fixed)
        return m_fixedHistogram;
    if (m_held && window() == LatencyWindows::Window::Last10s && !m_heldFrom.buckets.isEmpty()
        && m_windows.samples() > 0)
        return m_windows.window(LatencyWindows::Window::SinceStart).minus(m_heldFrom);
    return m_windows.window(window());
}

void LatencyChart::redraw()
{
    const LatencySnapshot h = shown();
    std::array<std::uint64_t, kBinCount> bins{};
    int first = kBinCount, last = -1;
    for (int i = 0; i < h.buckets.size(); ++i) {
        if (!h.buckets[i])
            continue;
        const int b = binOf(LatencyBuckets::lowerUs(i));
        bins[size_t(b)] += h.buckets[i];
        first = std::min(first, b);
        last = std::max(last, b);
    }

    // Linear: each bucket's share of the messages; log: its count, an empty one on the floor.
    const bool log = isLogScale();
    const double floor = log ? kLogFloor : 0.0;
    // Onto the axes: x is log10 of the latency in ms, y log10 of the count on the log axis.
    const auto at = [log](double ms, double y) {
        return QPointF(std::log10(std::max(ms, 1e-6)), log ? std::log10(y) : y);
    };
    m_points.clear();
    double yMax = 0.0;
    if (last >= 0 && h.count > 0) {
        const double total = double(h.count);
        m_points.append(at(binLowUs(first) / 1000.0, floor));
        for (int b = first; b <= last; ++b) {
            const double n = double(bins[size_t(b)]);
            const double y = log ? std::max(floor, n) : 100.0 * n / total;
            yMax = std::max(yMax, y);
            m_points.append(at(binLowUs(b) / 1000.0, y));
            m_points.append(at(binHighUs(b) / 1000.0, y));
        }
        m_points.append(at(binHighUs(last) / 1000.0, floor));
    }
    m_upper->replace(m_points);
    m_area->setName(log ? tr("messages per bucket") : tr("share of messages"));

    double yTop = 0.0;
    if (log) {
        // Up to the next power of ten above the fullest bucket.
        yTop = std::pow(10.0, std::max(1.0, std::ceil(std::log10(std::max(yMax, 1.0) * 1.5))));
        if (yTop != m_yMax) {
            m_yMax = yTop;
            setLogTicks(m_logAxisY, std::log10(kLogFloor), std::log10(yTop), axisNumber);
        }
    } else {
        // Round ticks: 2, 5, 10 or 25 percent apart, four to six of them.
        double step = 25.0;
        for (double s : {2.0, 5.0, 10.0}) {
            if (yMax * 1.1 <= s * 5.0) {
                step = s;
                break;
            }
        }
        yTop = yMax <= 0.0 ? 10.0 : std::min(100.0, std::max(step * 2.0, std::ceil(yMax * 1.1 / step) * step));
        if (yTop != m_yMax) {
            m_yMax = yTop;
            m_axisY->setRange(0, yTop);
            m_axisY->setTickCount(int(std::lround(yTop / step)) + 1);
        }
    }

    const char *labels[3] = {"p50", "p99", "p99.9"};
    QStringList summary;
    for (int i = 0; i < 3; ++i) {
        if (h.isEmpty()) {
            m_markers[i]->clear();
            m_markers[i]->setName(QLatin1String(labels[i]));
            continue;
        }
        const double ms = h.percentileUs(kQuantiles[i]) / 1000.0;
        m_markers[i]->replace(QList<QPointF>{at(ms, floor), at(ms, yTop)});
        const QString text = QStringLiteral("%1 %2").arg(QLatin1String(labels[i]), formatLatencyMs(ms));
        m_markers[i]->setName(text);
        summary.append(text);
    }

    double xMin = 0.01, xMax = 1000.0;
    if (last >= 0) {
        xMin = std::pow(10.0, std::floor(std::log10(binLowUs(first) / 1000.0)));
        xMax = std::pow(10.0, std::ceil(std::log10(binHighUs(last) / 1000.0)));
        if (xMax <= xMin)
            xMax = xMin * 10.0;
    }
    if (xMin != m_xMin || xMax != m_xMax) {
        m_xMin = xMin;
        m_xMax = xMax;
        setLogTicks(m_axisX, std::log10(xMin), std::log10(xMax), axisMs);
    }

    if (m_windows.stream() == kInvalidStreamId) {
        m_summary->setText(tr("Select a stream to see its latency."));
    } else if (h.isEmpty() && h.negative) {
        m_summary->setText(m_note.isEmpty()
                               ? tr("No latency samples in this window (%1 negative: clock skew)").arg(h.negative)
                               : tr("No latency samples in this window (%1 negative: %2)").arg(h.negative).arg(m_note));
    } else if (h.isEmpty() && h.invalid) {
        m_summary->setText(
            tr("No latency samples in this window (%1 event times not plausible: not between 2000 and 2100)")
                .arg(h.invalid));
    } else if (h.isEmpty()) {
        m_summary->setText(tr("No latency samples in this window (the messages carry no event time, or none arrived)"));
    } else {
        QString text = tr("%1 samples · mean %2 · max %3")
                           .arg(formatCount(h.count), formatLatencyMs(h.meanUs() / 1000.0),
                                formatLatencyMs(double(h.maxUs) / 1000.0));
        if (h.negative && m_corrected) // what is left below zero lies within the offset's uncertainty
            text += tr(" · %1 below zero after the correction (%2)").arg(formatCount(h.negative), m_clock);
        else if (h.negative)
            text += m_note.isEmpty() ? tr(" · %1 negative (clock skew)").arg(formatCount(h.negative))
                                     : tr(" · %1 negative: %2").arg(formatCount(h.negative), m_note);
        if (m_corrected && !h.negative)
            text += tr(" · corrected: %1").arg(m_clock);
        if (h.invalid)
            text += tr(" · %1 event times not plausible").arg(formatCount(h.invalid));
        m_summary->setText(m_fixed      ? tr("%1 · %2").arg(m_fixedSpan, text)
                               : m_held ? tr("Stopped; before the stop: %1").arg(text)
                                        : text);
    }
}

} // namespace streamscope::ui
