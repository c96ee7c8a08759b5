#include "StreamColumnWidths.h"

#include "StreamActionDelegate.h"
#include "StreamCells.h"
#include "StreamTableModel.h"

#include <QtCore/QAbstractItemModel>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QStyle>
#include <QtWidgets/QTableView>

#include <algorithm>
#include <cmath>
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
    // A cell's text has the item view's margin on both sides and the grid line beside it, and
    // a pixel each side for rounding: at 2× a text whose integer advance just fitted was cut.
    const int margin = 2 * (table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, table) + 1) + 1 + 2;
    // The model writes the state in bold (StreamTableModel's Qt::FontRole).
    QFont bold = table->font();
    bold.setBold(true);
    const QFontMetricsF plain(table->font());
    const QFontMetricsF strong(bold);
    // The title with the header's margins; not the sort arrow's room, which one column at a
    // time needs (its title may then be cut, as at the usual widths).
    const QHeaderView *header = table->horizontalHeader();
    const QFontMetricsF title(header->font());
    const int titleMargin = 2 * header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header) + 2;
    for (int c = StreamTableModel::ColState; c <= StreamTableModel::ColErrors; ++c) {
        const QFontMetricsF &text = c == StreamTableModel::ColState ? strong : plain;
        int fit = int(std::ceil(title.horizontalAdvance(table->model()->headerData(c, Qt::Horizontal).toString())))
            + titleMargin;
        for (const QString &figure : StreamCells::widestFigures(c))
            fit = std::max(fit, int(std::ceil(text.horizontalAdvance(figure))) + margin);
        // Compact: what the texts need. Usual: the room in digits, never less than that (a
        // bold "reconnecting" was cut in 11 digits).
        out[c] = compact ? fit : std::max(out[c], fit);
    }
    return out;
}

} // namespace streamscope::ui::StreamColumnWidths
