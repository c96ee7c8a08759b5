#include "MatchHighlightDelegate.h"

#include "InspectorModel.h"

#include <QtGui/QPainter>
#include <QtGui/QTextLayout>
#include <QtWidgets/QApplication>
#include <QtWidgets/QStyle>

#include <algorithm>
#include <cmath>

namespace streamscope::ui {

MatchHighlightDelegate::MatchHighlightDelegate(const InspectorModel *model, QObject *parent)
    : QStyledItemDelegate(parent)
    , m_model(model)
{
}

QColor MatchHighlightDelegate::matchBackground(const QPalette &palette)
{
    const bool dark = palette.color(QPalette::Base).lightness() < 128;
    return dark ? QColor(0x8a, 0x6d, 0x00) : QColor(0xff, 0xe0, 0x66);
}

void MatchHighlightDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                                   const QModelIndex &index) const
{
    const QString text = index.data(Qt::DisplayRole).toString();
    const QVector<InspectorModel::Span> spans = m_model ? m_model->matchSpans(text) : QVector<InspectorModel::Span>();
    if (spans.isEmpty()) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    opt.text.clear(); // the background, selection and focus as usual; the text below
    const QWidget *widget = option.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);

    const QRect rect = style->subElementRect(QStyle::SE_ItemViewItemText, &opt, widget).adjusted(3, 0, -3, 0);
    QTextLayout layout(text, opt.font);
    QList<QTextLayout::FormatRange> formats;
    QTextCharFormat match;
    match.setBackground(matchBackground(opt.palette));
    match.setForeground(opt.palette.color(QPalette::Text));
    for (const InspectorModel::Span &s : spans)
        formats.append({s.start, s.length, match});
    layout.setFormats(formats);
    layout.beginLayout();
    QTextLine line = layout.createLine();
    if (line.isValid())
        line.setNumColumns(int(text.size())); // one line: a preview never wraps
    layout.endLayout();

    painter->save();
    const bool selected = opt.state & QStyle::State_Selected;
    painter->setPen(opt.palette.color(selected ? QPalette::HighlightedText : QPalette::Text));
    const qreal y = rect.top() + (rect.height() - (line.isValid() ? line.height() : 0.0)) / 2.0;
    // The first match out of sight: the text from a few characters before it, after a "…".
    qreal shift = 0.0;
    if (line.isValid() && line.cursorToX(spans.front().start + spans.front().length) > rect.width()) {
        const QString ellipsis = QStringLiteral("…");
        const qreal ellipsisWidth = QFontMetricsF(opt.font).horizontalAdvance(ellipsis);
        shift = line.cursorToX(std::max(0, spans.front().start - kContextChars)) - ellipsisWidth;
        painter->setFont(opt.font);
        painter->drawText(QRectF(rect.left(), rect.top(), ellipsisWidth, rect.height()), Qt::AlignVCenter, ellipsis);
        painter->setClipRect(rect.adjusted(int(std::ceil(ellipsisWidth)), 0, 0, 0));
    } else {
        painter->setClipRect(rect);
    }
    layout.draw(painter, QPointF(rect.left() - shift, y));
    painter->restore();
}

} // namespace streamscope::ui
