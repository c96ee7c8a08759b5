#include "Theme.h"

#include "Format.h"
#include "OutlinedIndicatorStyle.h"

#include <QtGui/QPalette>
#include <QtGui/QStyleHints>
#include <QtWidgets/QApplication>
#include <QtWidgets/QStyle>
#include <QtWidgets/QStyleFactory>

namespace streamscope::ui {

namespace {
struct Original {
    bool captured = false;
    QString style;
    QPalette palette;
};
Original &original()
{
    static Original o;
    if (!o.captured && qApp) {
        o.captured = true;
        o.style = QApplication::style() ? QApplication::style()->name() : QString();
        o.palette = QApplication::palette();
    }
    return o;
}
Theme::Mode g_mode = Theme::Mode::System;

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x1f, 0x23, 0x28);
    const QColor base(0x16, 0x1a, 0x1e);
    const QColor text(0xe6, 0xe8, 0xea);
    const QColor disabled(0x7d, 0x85, 0x90);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x1c, 0x21, 0x26));
    p.setColor(QPalette::ToolTipBase, QColor(0x2d, 0x33, 0x3b));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x2a, 0x2f, 0x36));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    p.setColor(QPalette::Light, QColor(0x3a, 0x40, 0x48));
    p.setColor(QPalette::Midlight, QColor(0x32, 0x38, 0x40));
    p.setColor(QPalette::Mid, QColor(0x24, 0x29, 0x2f));
    p.setColor(QPalette::Dark, QColor(0x10, 0x13, 0x16));
    p.setColor(QPalette::Shadow, QColor(0x05, 0x06, 0x07));
    p.setColor(QPalette::Highlight, QColor(0x2f, 0x6f, 0xd1));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x58, 0xa6, 0xff));
    p.setColor(QPalette::Disabled, QPalette::Text, disabled);
    p.setColor(QPalette::Disabled, QPalette::WindowText, disabled);
    p.setColor(QPalette::Disabled, QPalette::ButtonText, disabled);
    return p;
}
} // namespace

Theme::Mode Theme::mode()
{
    return g_mode;
}

QString Theme::modeName(Mode mode)
{
    switch (mode) {
    case Mode::Light: return QStringLiteral("light");
    case Mode::Dark: return QStringLiteral("dark");
    case Mode::System:
    case Mode::Unknown: break;
    }
    return QStringLiteral("system");
}

Theme::Mode Theme::modeFromName(const QString &name)
{
    if (name == QLatin1String("light"))
        return Mode::Light;
    if (name == QLatin1String("dark"))
        return Mode::Dark;
    return Mode::System;
}

bool Theme::apply(Mode mode)
{
    const Original &o = original();
    g_mode = mode == Mode::Unknown ? Mode::System : mode;
    switch (g_mode) {
    case Mode::Dark:
        QApplication::setStyle(new OutlinedIndicatorStyle(QStyleFactory::create(QStringLiteral("Fusion"))));
        QApplication::setPalette(darkPalette());
        break;
    case Mode::Light:
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(QApplication::style()->standardPalette());
        break;
    case Mode::System:
    case Mode::Unknown: {
        bool systemDark = false;
#if QT_VERSION >= QT_VERSION_CHECK(6, 5, 0)
        systemDark = QGuiApplication::styleHints()->colorScheme() == Qt::ColorScheme::Dark;
#endif
        if (!o.style.isEmpty())
            QApplication::setStyle(systemDark ? new OutlinedIndicatorStyle(QStyleFactory::create(o.style))
                                              : QStyleFactory::create(o.style));
        QApplication::setPalette(systemDark ? darkPalette() : o.palette);
        break;
    }
    }
    return isDarkPalette();
}

} // namespace streamscope::ui
