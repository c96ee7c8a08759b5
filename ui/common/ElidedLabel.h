#pragma once

// A one-line plain-text label that gives up width before the window does: it asks the layout
// for only a few characters' width as its minimum, and when it gets less than its text needs
// it draws the text cut with "…" and shows the whole text in its tooltip. text() stays the
// whole text; its text and its tooltip are shown as plain text, never as markup (plainToolTip). The status bar's long labels use it, so that a long status never makes the
// window wider than a laptop's screen.
// GUI thread only.

#include <QtWidgets/QLabel>

namespace streamscope::ui {

class ElidedLabel : public QLabel {
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget *parent = nullptr);

    // Less room than the text needs: it is drawn cut.
    bool isElided() const;
    QSize minimumSizeHint() const override;

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
};

} // namespace streamscope::ui
