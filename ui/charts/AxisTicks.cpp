#include "AxisTicks.h"

#include "Format.h"

#include <QtCharts/QCategoryAxis>

#include <cmath>

namespace streamscope::ui {

namespace {

// Up to three significant digits, no trailing zeros, never an exponent.
QString plain(double v)
{
    return withoutTrailingZeros(QString::number(v, 'f', v < 1.0 ? 3 : v < 10.0 ? 2 : v < 100.0 ? 1 : 0));
}

// Replaces the axis's categories: a label at each of `values` (ascending). A category's label
// is drawn at its end value, so the first one starts just below the first value.
void setCategories(QCategoryAxis *axis, double min, double max, const QList<QPair<double, QString>> &values)
{
    for (const QString &label : axis->categoriesLabels())
        axis->remove(label);
    axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    axis->setTruncateLabels(false); // the end labels stand half beyond the plot: shown whole
    axis->setStartValue(min - (max - min) * 1e-6);
    for (const auto &[value, label] : values)
        axis->append(label, value);
    axis->setRange(min, max);
}

} // namespace

QString axisNumber(double v)
{
    const double a = std::abs(v);
    if (a >= 1e9)
        return plain(v / 1e9) + QStringLiteral("G");
    if (a >= 1e6)
        return plain(v / 1e6) + QStringLiteral("M");
    if (a >= 1e3)
        return plain(v / 1e3) + QStringLiteral("k");
    return plain(v);
}

QString axisMs(double ms)
{
    const double a = std::abs(ms);
    if (a >= 1000.0)
        return plain(ms / 1000.0) + QStringLiteral(" s");
    if (a >= 1.0 || a == 0.0)
        return plain(ms) + QStringLiteral(" ms");
    return plain(ms * 1000.0) + QStringLiteral(" µs");
}

void setLogTicks(QCategoryAxis *axis, double lo, double hi, const std::function<QString(double)> &label)
{
    QList<QPair<double, QString>> values;
    for (int e = int(std::ceil(lo - 1e-9)); e <= int(std::floor(hi + 1e-9)); ++e)
        values.append({double(e), label(std::pow(10.0, e))});
    setCategories(axis, lo, hi, values);
}

double setLinearTicks(QCategoryAxis *axis, double top, const std::function<QString(double)> &label)
{
    if (!(top > 0.0))
        top = 1.0;
    const double magnitude = std::pow(10.0, std::floor(std::log10(top)) - 1.0);
    double step = top;
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0, 20.0, 25.0, 50.0, 100.0}) {
        const double s = m * magnitude;
        const double n = top / s;
        if (n <= 6.0 + 1e-9 && std::abs(n - std::round(n)) < 1e-6) {
            step = s;
            break;
        }
    }
    QList<QPair<double, QString>> values;
    for (int i = 0; i * step <= top * (1.0 + 1e-9); ++i)
        values.append({i * step, label(i * step)});
    setCategories(axis, 0.0, top, values);
    return step;
}

} // namespace streamscope::ui
