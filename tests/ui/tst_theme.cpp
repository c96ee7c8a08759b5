// The dark theme: an unchecked check box and radio button stand out from the window (their
// outline has at least 3:1 contrast with it, the WCAG minimum for a control's boundary), as
// drawn in the Alert rules and Add stream dialogs; the light theme is Fusion's own.

#include "../common/TestRegistry.h"
#include "Theme.h"

#include <QtGui/QImage>
#include <QtTest/QTest>
#include <QtWidgets/QApplication>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QRadioButton>
#include <QtWidgets/QStyle>
#include <QtWidgets/QStyleOptionButton>

#include <cmath>

using namespace streamscope::ui;

namespace {

double luminance(QColor c)
{
    const auto channel = [](double v) {
        v /= 255.0;
        return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * channel(c.red()) + 0.7152 * channel(c.green()) + 0.0722 * channel(c.blue());
}

double contrast(QColor a, QColor b)
{
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

// The strongest contrast with the window colour along the middle row of the indicator of
// `button` (unchecked), drawn on its own.
template<typename Button>
double indicatorContrast(QStyle::SubElement indicator)
{
    Button button(QStringLiteral("on a sequence gap"));
    button.resize(button.sizeHint());
    const QImage image = button.grab().toImage();
    QStyleOptionButton option;
    option.initFrom(&button);
    const QRect r = button.style()->subElementRect(indicator, &option, &button);
    const QColor window = button.palette().color(QPalette::Window);
    const qreal dpr = image.devicePixelRatio();
    double best = 1.0;
    for (int x = r.left() - 1; x <= r.center().x(); ++x)
        best = std::max(best, contrast(image.pixelColor(QPoint(int(x * dpr), int(r.center().y() * dpr))), window));
    return best;
}

} // namespace

class tst_Theme : public QObject {
    Q_OBJECT
private slots:
    void cleanupTestCase() { Theme::apply(Theme::Mode::System); }

    void darkIndicatorsStandOut()
    {
        QVERIFY(Theme::apply(Theme::Mode::Dark));
        const double box = indicatorContrast<QCheckBox>(QStyle::SE_CheckBoxIndicator);
        const double radio = indicatorContrast<QRadioButton>(QStyle::SE_RadioButtonIndicator);
        QVERIFY2(box >= 3.0, qPrintable(QStringLiteral("check box outline %1:1").arg(box, 0, 'f', 2)));
        QVERIFY2(radio >= 3.0, qPrintable(QStringLiteral("radio button outline %1:1").arg(radio, 0, 'f', 2)));
        // Light: Fusion's own outline, readable already.
        QVERIFY(!Theme::apply(Theme::Mode::Light));
        QVERIFY(indicatorContrast<QCheckBox>(QStyle::SE_CheckBoxIndicator) >= 3.0);
    }
};

STREAMSCOPE_TEST_MAIN(tst_Theme)
#include "tst_theme.moc"
