// The stream table's row buttons as drawn: on the dark theme the record button's idle "○" is
// as strong as the other buttons' icons, not a faint outline.

#include "../common/TestRegistry.h"
#include "StreamActionDelegate.h"
#include "StreamTableModel.h"
#include "Theme.h"

#include <QtGui/QImage>
#include <QtGui/QPainter>
#include <QtGui/QStandardItemModel>
#include <QtTest/QTest>
#include <QtWidgets/QApplication>
#include <QtWidgets/QStyleOptionViewItem>
#include <QtWidgets/QTableView>

#include <algorithm>
#include <cmath>

using namespace streamscope;
using namespace streamscope::ui;

namespace {

// WCAG relative luminance and contrast ratio.
double luminance(QRgb rgb)
{
    const auto channel = [](int c) {
        const double v = c / 255.0;
        return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * channel(qRed(rgb)) + 0.7152 * channel(qGreen(rgb)) + 0.0722 * channel(qBlue(rgb));
}

double contrast(QRgb a, QRgb b)
{
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

// The strongest contrast of any pixel within `r` against the background.
double strongest(const QImage &image, const QRect &r, QRgb background)
{
    double best = 1.0;
    for (int y = r.top(); y <= r.bottom(); ++y)
        for (int x = r.left(); x <= r.right(); ++x)
            best = std::max(best, contrast(image.pixel(x, y), background));
    return best;
}

} // namespace

class tst_StreamActionDelegate : public QObject {
    Q_OBJECT
private slots:
    void recordButtonShowsOnTheDarkTheme();
};

void tst_StreamActionDelegate::recordButtonShowsOnTheDarkTheme()
{
    QVERIFY(Theme::apply(Theme::Mode::Dark));
    QStandardItemModel model(1, 1);
    QStandardItem *item = model.item(0, 0);
    if (!item) {
        item = new QStandardItem;
        model.setItem(0, 0, item);
    }
    item->setData(int(StreamState::Live), StreamTableModel::StateRole);
    item->setData(1u, StreamTableModel::StreamIdRole);
    item->setData(false, StreamTableModel::RecordingRole);
    QTableView view;
    view.setModel(&model);
    StreamActionDelegate delegate;

    const QRect cell(0, 0, StreamActionDelegate::columnWidth(), 28);
    QImage image(cell.size(), QImage::Format_ARGB32_Premultiplied);
    const QColor background = QApplication::palette().color(QPalette::Base);
    image.fill(background);
    QStyleOptionViewItem option;
    option.initFrom(&view);
    option.rect = cell;
    option.palette = QApplication::palette();
    option.widget = &view;
    option.state &= ~QStyle::State_MouseOver;
    {
        QPainter painter(&image);
        delegate.paint(&painter, option, model.index(0, 0));
    }
    const double record =
        strongest(image, StreamActionDelegate::buttonRect(cell, StreamActionDelegate::kRecordButton), background.rgb());
    const double restart = strongest(image, StreamActionDelegate::buttonRect(cell, 1), background.rgb());
    QVERIFY2(restart > 3.0, qPrintable(QString::number(restart))); // the reference is drawn at all
    // As strong as its neighbour, and at least the 3:1 that WCAG asks of a control.
    QVERIFY2(record >= 0.9 * restart && record >= 3.0,
             qPrintable(QStringLiteral("record %1, restart %2").arg(record).arg(restart)));
}

STREAMSCOPE_TEST_MAIN(tst_StreamActionDelegate)
#include "tst_streamactiondelegate.moc"
