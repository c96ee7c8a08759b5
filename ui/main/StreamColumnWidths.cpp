#include "StreamColumnWidths.h"

#include "StreamActionDelegate.h"
#include "StreamCells.h"
#include "StreamTableModel.h"

#include <QtWidgets/QHeaderView>
#include <QtWidgets/QStyle>
#include <QtWidgets/QTableView>

#include <algorithm>
#include <iterator>

namespace streamscope::ui::StreamColumnWidths {

QVector<int> widths(const QTableView *table, bool compact)
{
    // In digits of the table's font; p50 has room for a periodic stream's "every 1000 ms ±3".
    constexpr int kUsualDigits[StreamTableModel::ColumnCount] = {24, 11, 8, 8, 10, 14, 8, 8, 7, 6, 8, 7, 6, 0, 16, 13};
    static_assert(std::size(kUsualDigits) == StreamTableModel::ColumnCount);
    // Measured as the table and its header will be drawn: polished by the style (fonts, margins).
    table->ensurePolished();
    table->horizontalHeader()->ensurePolished();
    const QFontMetrics fm = table->fontMetrics();
    const int digit = fm.horizontalAdvance(QLatin1Char('0'));
    QVector<int> out(StreamTableModel::ColumnCount);
    for (int c = 0; c < StreamTableModel::ColumnCount; ++c)
        out[c] = kUsualDigits[c] * digit;
    out[StreamTableModel::ColActions] = StreamActionDelegate::columnWidth();
    if (!compact)
        return out;
    // A cell's text has the item view's margin on both sides and the grid line beside it.
    const int margin = 2 * (table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, table) + 1) + 1;
    const QHeaderView *header = table->horizontalHeader();
    for (int c = StreamTableModel::ColState; c <= StreamTableModel::ColErrors; ++c) {
        int width = header->sectionSizeHint(c); // its title and the sort arrow
        for (const QString &text : StreamCells::widestFigures(c))
            width = std::max(width, fm.horizontalAdvance(text) + margin);
        out[c] = std::min(out[c], width);
    }
    return out;
}

} // namespace streamscope::ui::StreamColumnWidths
