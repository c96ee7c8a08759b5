#pragma once

// The stream controls' icons (start, stop, restart, remove, stop all) drawn in the palette's
// text colour, so that they stay visible in the dark theme, where the platform's stop icon
// is a black square on a black background. GUI thread only.

#include <QtGui/QIcon>
#include <QtWidgets/QStyle>

namespace streamscope::ui {

// `which` from the widget's style, every opaque pixel painted in the application palette's
// text colour (a third opaque for the disabled state).
QIcon controlIcon(QStyle::StandardPixmap which, const QWidget *widget);

} // namespace streamscope::ui
