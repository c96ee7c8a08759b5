#pragma once

// The dark theme's style: the style it wraps (Fusion), with the indicators of check boxes,
// radio buttons and checkable items outlined in a grey readable on a dark palette. Fusion
// outlines them in the window colour darkened, near black on a dark window: an unchecked box
// or radio button could not be told from the background. The outline is drawn only when the
// palette the indicator is drawn with is a dark one.
//
// Thread contract: GUI thread, as every style. Owns the style it wraps (QProxyStyle).

#include <QtWidgets/QProxyStyle>

namespace streamscope::ui {

class OutlinedIndicatorStyle : public QProxyStyle {
    Q_OBJECT
public:
    explicit OutlinedIndicatorStyle(QStyle *base);

    void drawPrimitive(PrimitiveElement element, const QStyleOption *option, QPainter *painter,
                       const QWidget *widget = nullptr) const override;
};

} // namespace streamscope::ui
