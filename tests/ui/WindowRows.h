#pragma once

// A stream's row in the main window's table, by the stream's name: what the window tests of
// agents read.

#include "MainWindow.h"
#include "StreamTableModel.h"

#include <QtCore/QString>

namespace streamscope::testing {

// The row named `name`, or null if the table has none.
inline const ui::StreamTableModel::Row *rowNamed(ui::MainWindow &w, const QString &name)
{
    for (const ui::StreamTableModel::Row &r : w.streamModel()->rows())
        if (r.snap.name == name)
            return &r;
    return nullptr;
}

} // namespace streamscope::testing
