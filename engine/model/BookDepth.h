#pragma once

// The top levels of one local order book at one instant: what the depth ladder shows
// (docs/books.md, "The depth ladder"). Asked for with Engine::requestBookDepth(), copied on the
// stream's worker and handed back queued (Engine::bookDepthReady). A plain value type.
//
// Prices and quantities are exact: integers of 10^-8 (kDepthUnit), as the book keeps them
// (engine/book/FixedPoint.h); depthText() writes one as a decimal without trailing zeros.

#include "BookStatus.h"
#include "StreamTypes.h"

#include <QtCore/QMetaType>
#include <QtCore/QString>
#include <QtCore/QVector>

namespace streamscope {

inline constexpr qint64 kDepthUnit = 100'000'000; // "1" is this many units
inline constexpr int kDepthDecimals = 8;

struct DepthLevel {
    qint64 price = 0; // units of 10^-8
    qint64 qty = 0;
    bool operator==(const DepthLevel &) const = default;
};

struct BookDepth {
    static constexpr int kMaxLevels = 50; // a side, whatever is asked

    StreamId stream = kInvalidStreamId;
    QString instrument;
    quint64 requestId = 0; // Engine::requestBookDepth()'s answer
    // The stream keeps a book of this instrument; false: the other fields are empty (the stream
    // went, keeps no books, or has no such instrument yet).
    bool found = false;
    BookState state = BookState::Unknown;
    qint64 updateId = 0; // the venue's update id of the last diff applied (Binance "u")
    // How long ago the book last changed (its update id moved), on the worker's clock, within a
    // housekeeping tick (100 ms); -1 not since it was made.
    qint64 ageMs = -1;
    int bidLevels = 0; // the whole book's, not only those copied
    int askLevels = 0;
    QVector<DepthLevel> bids; // best first
    QVector<DepthLevel> asks; // best first
};

// `v` as a decimal without trailing zeros: "27123.45", "0.001", "5".
inline QString depthText(qint64 v)
{
    const bool negative = v < 0;
    const quint64 a = negative ? quint64(0) - quint64(v) : quint64(v);
    QString s = QString::number(a / quint64(kDepthUnit));
    if (const quint64 frac = a % quint64(kDepthUnit); frac != 0) {
        QString f = QString::number(frac).rightJustified(kDepthDecimals, QLatin1Char('0'));
        while (f.endsWith(QLatin1Char('0')))
            f.chop(1);
        s += QLatin1Char('.') + f;
    }
    return negative ? QLatin1Char('-') + s : s;
}

} // namespace streamscope

Q_DECLARE_METATYPE(streamscope::BookDepth)
