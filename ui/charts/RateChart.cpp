#include "RateChart.h"

#include "AxisTicks.h"
#include "ChartStyle.h"

#include "StreamHistory.h"

#include <QtCharts/QCategoryAxis>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QGraphicsLayout>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QToolButton>
#include <QtWidgets/QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace streamscope::ui {

namespace {
double niceCeiling(double v)
{
    if (v <= 10.0)
        return 10.0;
    const double magnitude = std::pow(10.0, std::floor(std::log10(v)));
    for (double step : {1.0, 2.0, 2.5, 5.0, 10.0}) {
        if (v <= step * magnitude)
            return step * magnitude;
    }
    return 10.0 * magnitude;
}
// The time axis over lo .. hi seconds, a tick every round number of seconds (1, 2, 5, 10, 15,
// 30 s, 1, 2, 5, 10 min), five to seven of them from 0: a capture of 45 s read "7 s, 22 s"
// with a fixed count of ticks.
void setTimeRange(QValueAxis *axis, int lo, int hi)
{
    const int span = std::max(1, hi - lo);
    int step = 600;
    for (int s : {1, 2, 5, 10, 15, 30, 60, 120, 300, 600}) {
        if (span / s <= 6) {
            step = s;
            break;
        }
    }
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTickInterval(step);
    axis->setRange(lo, hi);
}

} // namespace

RateChart::RateChart(QWidget *parent)
    : QWidget(parent)
{
    m_chart = createPlainChart();

    m_axisX = new QValueAxis;
    m_axisX->setObjectName(QStringLiteral("timeAxis"));
    m_axisX->setLabelFormat(QStringLiteral("%d s"));
    setTimeRange(m_axisX, -60, 0);
    // Both rate axes are labelled by AxisTicks: round steps, "1k" and "1M" rather than printf's
    // "1e+06"; on the log axis the series carry log10 of their rates (fitToAxis).
    m_axisY = new QCategoryAxis;
    m_axisY->setObjectName(QStringLiteral("rateAxis"));
    m_axisY->setTitleText(tr("msgs/s"));
    m_chart->addAxis(m_axisX, Qt::AlignBottom);
    m_chart->addAxis(m_axisY, Qt::AlignLeft);
    m_shownAxisY = m_axisY;
    m_logAxisY = new QCategoryAxis(this); // added to the chart when chosen
    m_logAxisY->setObjectName(QStringLiteral("rateLogAxis"));
    m_logAxisY->setTitleText(tr("msgs/s (log)"));
    m_yMax = 10.0;
    setLinearTicks(m_axisY, m_yMax, axisNumber);
    setLogTicks(m_logAxisY, std::log10(kLogFloor), std::log10(m_yMax), axisNumber);

    m_total = new QLineSeries;
    m_total->setName(tr("All streams"));
    m_chart->addSeries(m_total);
    m_total->attachAxis(m_axisX);
    m_total->attachAxis(m_axisY);
    for (int i = 0; i < kMaxStreams; ++i) {
        auto *s = new QLineSeries;
        m_chart->addSeries(s);
        s->attachAxis(m_axisX);
        s->attachAxis(m_axisY);
        s->setVisible(false);
        m_series.push_back(s);
    }
    setSeriesPens();
    m_buffer.reserve(StreamHistory::kCapacity);

    m_view = new QChartView(m_chart);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(160);

    m_scopeBox = new QComboBox;
    m_scopeBox->addItem(tr("All and selected"), int(Scope::Both));
    m_scopeBox->addItem(tr("All streams"), int(Scope::AllOnly));
    m_scopeBox->addItem(tr("Selected streams"), int(Scope::SelectedOnly));
    m_scopeBox->setToolTip(tr("Which rates to plot"));
    m_log = new QToolButton;
    m_log->setText(tr("Log"));
    m_log->setObjectName(QStringLiteral("rateLogScale"));
    m_log->setCheckable(true);
    m_log->setToolTip(tr("A logarithmic rate axis: slow and fast streams side by side"));
    m_pause = new QToolButton;
    m_pause->setText(tr("Pause"));
    m_pause->setCheckable(true);
    m_pause->setToolTip(tr("Freeze this chart; recording goes on"));

    auto *bar = new QHBoxLayout;
    m_title = new QLabel(tr("<b>Message rate</b> — last 10 minutes"));
    m_title->setObjectName(QStringLiteral("rateChartTitle"));
    bar->addWidget(m_title);
    bar->addStretch();
    bar->addWidget(m_scopeBox);
    bar->addWidget(m_log);
    bar->addWidget(m_pause);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 0);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    m_note = new QLabel;
    m_note->setObjectName(QStringLiteral("rateChartNote"));
    m_note->setTextFormat(Qt::PlainText);
    m_note->hide();
    layout->addWidget(m_note);

    connect(m_scopeBox, &QComboBox::currentIndexChanged, this, &RateChart::settingsChanged);
    connect(m_log, &QToolButton::toggled, this, [this](bool on) {
        // The series move to the other vertical axis; the range is set again on refresh.
        QAbstractAxis *next = on ? static_cast<QAbstractAxis *>(m_logAxisY) : m_axisY;
        if (next == m_shownAxisY)
            return;
        QList<QAbstractSeries *> all(m_series.begin(), m_series.end());
        all.prepend(m_total);
        swapVerticalAxis(m_chart, m_shownAxisY, next, all, this);
        m_shownAxisY = next;
        // The points drawn so far onto the new axis (a paused chart is not refreshed).
        for (QAbstractSeries *series : all) {
            auto *line = static_cast<QLineSeries *>(series);
            QList<QPointF> points = line->points();
            for (QPointF &p : points)
                p.setY(on ? std::log10(std::max(p.y(), kLogFloor)) : std::pow(10.0, p.y()));
            line->replace(points);
        }
        setVerticalRange(m_yMax > 0 ? m_yMax : 10.0);
        emit settingsChanged();
    });
    connect(m_pause, &QToolButton::toggled, this, [this](bool on) {
        m_pause->setText(on ? tr("Resume") : tr("Pause"));
        emit settingsChanged();
    });
}

void RateChart::fitToAxis()
{
    // The log axis is linear in log10 of the rate; it has no 0: a silent second is drawn on
    // its floor.
    if (!isLogScale())
        return;
    for (QPointF &p : m_buffer)
        p.setY(std::log10(std::max(p.y(), kLogFloor)));
}

void RateChart::setVerticalRange(double top)
{
    m_yMax = top;
    if (isLogScale())
        setLogTicks(m_logAxisY, std::log10(kLogFloor), std::ceil(std::log10(top)), axisNumber);
    else
        setLinearTicks(m_axisY, top, axisNumber);
}

bool RateChart::isLogScale() const
{
    return m_log->isChecked();
}

void RateChart::setLogScale(bool on)
{
    m_log->setChecked(on);
}

bool RateChart::isPaused() const
{
    return m_pause->isChecked();
}

void RateChart::setPaused(bool paused)
{
    m_pause->setChecked(paused);
}

RateChart::Scope RateChart::scope() const
{
    return Scope(m_scopeBox->currentData().toInt());
}

void RateChart::setScope(Scope scope)
{
    const int i = m_scopeBox->findData(int(scope));
    if (i >= 0)
        m_scopeBox->setCurrentIndex(i);
}

QString RateChart::scopeName(Scope scope)
{
    switch (scope) {
    case Scope::AllOnly: return QStringLiteral("all");
    case Scope::SelectedOnly: return QStringLiteral("selected");
    case Scope::Both:
    case Scope::Unknown: break;
    }
    return QStringLiteral("both");
}

RateChart::Scope RateChart::scopeFromName(const QString &name)
{
    if (name == QLatin1String("all"))
        return Scope::AllOnly;
    if (name == QLatin1String("selected"))
        return Scope::SelectedOnly;
    return Scope::Both;
}

void RateChart::setStreams(const QList<QPair<StreamId, QString>> &selected)
{
    m_selected = selected.mid(0, kMaxStreams);
    const qsizetype hidden = selected.size() - m_selected.size();
    m_note->setText(
        hidden > 0 ? tr("Showing the first %1 of the %2 selected streams.").arg(m_selected.size()).arg(selected.size())
                   : QString());
    m_note->setVisible(hidden > 0);
}

QString RateChart::note() const
{
    return m_note->text();
}

QString RateChart::legendName(const QString &streamName)
{
    return streamName.size() <= kMaxLegendChars ? streamName : streamName.left(kMaxLegendChars - 1) + QChar(0x2026);
}

void RateChart::setDark(bool dark)
{
    m_chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    m_chart->setBackgroundRoundness(0);
    QPen pen(dark ? QColor(0xe6, 0xe6, 0xe6) : QColor(0x24, 0x29, 0x2f));
    pen.setWidthF(2.0);
    m_total->setPen(pen);
    setSeriesPens();
}

void RateChart::setSeriesPens()
{
    // One colour per selected stream, told apart at a glance in both themes (Tableau 10's
    // first six).
    static const QColor kColours[kMaxStreams] = {QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e),
                                                 QColor(0x2c, 0xa0, 0x2c), QColor(0xd6, 0x27, 0x28),
                                                 QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b)};
    for (int i = 0; i < kMaxStreams; ++i) {
        QPen pen(kColours[i]);
        pen.setWidthF(1.5);
        m_series[size_t(i)]->setPen(pen);
    }
}

void RateChart::setOffline(const QString &name, const QVector<double> &rates, int binSeconds)
{
    m_offline.clear();
    m_offlineName = name;
    for (qsizetype i = 0; i < rates.size(); ++i) {
        // Each bin drawn flat over its seconds.
        m_offline.append(QPointF(double(i * binSeconds), rates[i]));
        m_offline.append(QPointF(double((i + 1) * binSeconds), rates[i]));
    }
    m_title->setText(m_offline.isEmpty() ? tr("<b>Message rate</b> — last 10 minutes")
                                         : tr("<b>Message rate</b> — the capture's own time span"));
    m_scopeBox->setEnabled(m_offline.isEmpty());
    m_xSpan = -1; // the axes anew
    m_yMax = -1;
}

void RateChart::refresh(const StreamHistory &history)
{
    if (!m_offline.isEmpty()) {
        // One series: the capture's, over its own span; nothing of the live streams.
        m_total->setVisible(false);
        for (const auto &marker : m_chart->legend()->markers(m_total))
            marker->setVisible(false);
        double yMax = 0.0;
        for (int i = 0; i < kMaxStreams; ++i) {
            QLineSeries *s = m_series[size_t(i)];
            s->setVisible(i == 0);
            for (QLegendMarker *marker : m_chart->legend()->markers(s))
                marker->setVisible(i == 0);
        }
        m_buffer = m_offline;
        for (const QPointF &p : std::as_const(m_buffer))
            yMax = std::max(yMax, p.y());
        fitToAxis();
        m_series[0]->setName(legendName(m_offlineName));
        m_series[0]->replace(m_buffer);
        const int span = std::max(1, int(std::ceil(m_offline.last().x())));
        if (span != m_xSpan) {
            m_xSpan = span;
            setTimeRange(m_axisX, 0, span);
        }
        const double top = niceCeiling(yMax * 1.1);
        if (top != m_yMax)
            setVerticalRange(top);
        return;
    }
    if (isPaused())
        return;
    const Scope sc = scope();
    double yMax = 0.0;

    const bool showTotal = sc != Scope::SelectedOnly;
    m_total->setVisible(showTotal);
    m_total->setName(tr("All streams"));
    if (showTotal) {
        double m = 0.0;
        history.totalPoints(m_buffer, &m);
        fitToAxis();
        m_total->replace(m_buffer);
        yMax = std::max(yMax, m);
    }
    const bool showSelected = sc != Scope::AllOnly;
    for (int i = 0; i < kMaxStreams; ++i) {
        QLineSeries *s = m_series[size_t(i)];
        const bool used = showSelected && i < m_selected.size();
        if (s->isVisible() != used)
            s->setVisible(used);
        // Hidden series keep no legend entry.
        const auto markers = m_chart->legend()->markers(s);
        for (QLegendMarker *marker : markers)
            marker->setVisible(used);
        if (!used)
            continue;
        if (const QString name = legendName(m_selected[i].second); s->name() != name)
            s->setName(name);
        double m = 0.0;
        history.streamPoints(m_selected[i].first, m_buffer, &m);
        fitToAxis();
        s->replace(m_buffer);
        yMax = std::max(yMax, m);
    }

    const int span = std::max(60, std::min(StreamHistory::kCapacity, ((history.sampleCount() + 59) / 60) * 60));
    if (span != m_xSpan) {
        m_xSpan = span;
        setTimeRange(m_axisX, -span, 0);
    }
    const double top = niceCeiling(yMax * 1.1);
    if (top != m_yMax)
        setVerticalRange(top);
}

} // namespace streamscope::ui
