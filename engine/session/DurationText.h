#pragma once

// A duration as the session's events and state reasons write it: "2.5 s", "45 s".

#include <QtCore/QString>

namespace streamscope {

inline QString secondsText(qint64 ms)
{
    return QString::number(double(ms) / 1000.0, 'f', ms < 10000 ? 1 : 0) + QStringLiteral(" s");
}

} // namespace streamscope
