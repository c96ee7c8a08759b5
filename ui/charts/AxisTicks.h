#pragma once

// Axis labels in human units and at round values, for the axes Qt Charts would label with a
// printf format ("1e+06", "0, 3, 5, 8, 10"). A logarithmic axis is drawn as a linear
// QCategoryAxis over log10 of the values (the series carry log10 of theirs), labelled at the
// powers of ten ("0.1", "1k", "1M"; "10 µs", "1 ms", "1 s"); a linear one as a QCategoryAxis
// labelled at round steps. Pure functions on the axis given; GUI thread.

#include <QtCore/QString>

#include <functional>

QT_BEGIN_NAMESPACE
class QCategoryAxis;
QT_END_NAMESPACE

namespace streamscope::ui {

// "0.1", "1", "250", "1k", "2.5k", "10k", "1M": a count or rate as an axis label.
QString axisNumber(double v);
// "10 µs", "100 µs", "1 ms", "100 ms", "1 s", "100 s": a duration in ms as an axis label.
QString axisMs(double ms);

// The axis spans lo .. hi (log10 of the values), labelled at each power of ten between.
void setLogTicks(QCategoryAxis *axis, double lo, double hi, const std::function<QString(double)> &label);
// The axis spans 0 .. top, labelled at round steps (1, 2, 2.5 or 5 × 10^k, four to six of
// them); returns the step.
double setLinearTicks(QCategoryAxis *axis, double top, const std::function<QString(double)> &label);

} // namespace streamscope::ui
