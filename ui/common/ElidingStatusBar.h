#pragma once

// The main window's status bar: its temporary message (showMessage(): a saved file, an alert,
// a recording's folder) gives up width to the permanent figures beside it the way ElidedLabel
// does. QStatusBar cuts a message that does not fit mid-word at the first figure; this one
// draws it cut with "…" in the room left of the figures, and shows the whole message as the
// tooltip of that room, as plain text (plainToolTip). Everything else is QStatusBar's.
// GUI thread only.

#include <QtWidgets/QStatusBar>

namespace streamscope::ui {

class ElidingStatusBar : public QStatusBar {
    Q_OBJECT
public:
    explicit ElidingStatusBar(QWidget *parent = nullptr);

    // Where the temporary message is drawn: left of the visible permanent widgets.
    QRect messageRect() const;
    // The temporary message as drawn (cut with "…" when it does not fit); empty when none.
    QString shownMessage() const;

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
};

} // namespace streamscope::ui
