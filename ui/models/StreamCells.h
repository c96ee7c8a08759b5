#pragma once

// What each column of the stream table shows for one row: the text, the spreadsheet value, the
// sort key and the tooltip of a cell, and the column headers. StreamTableModel::data() asks it
// for the roles that are formatting only.
//
// Thread contract: plain value type, used on the GUI thread.

#include "StreamTableModel.h"

#include <QtCore/QCoreApplication>

namespace streamscope::ui {

class StreamCells {
    Q_DECLARE_TR_FUNCTIONS(StreamTableModel)
public:
    using Row = StreamTableModel::Row;

    // `nowMs`: the wall time that ages ("Last msg", "Stalled for") are counted to.
    explicit StreamCells(qint64 nowMs)
        : m_nowMs(nowMs)
    {
    }

    // A header's DisplayRole, ToolTipRole, TextAlignmentRole and CsvRole.
    static QVariant header(int column, int role);
    QVariant display(const Row &r, int column) const;
    // The CsvRole: a plain value, numbers with a dot and no unit or grouping, empty for none.
    QString csv(const Row &r, int column) const;
    QVariant sort(const Row &r, int column) const;
    QVariant toolTip(const Row &r, int column) const;

    // The widest texts a figure column (State .. Errors) shows for values in its usual range
    // (rates to a million a second, latencies to 99 s, counts to 99 999, 99 999 999 messages),
    // written by the column's own formatter: what its compact width must hold. A periodic
    // stream's "every 1000 ms ±3" is not among p50's (it is cut, whole in the tooltip).
    static QStringList widestFigures(int column);

    // "every 1000 ms ±3" for a periodic stream with a measured period, else empty.
    static QString periodText(const FreshnessEstimate &f);
    // "12 KiB" unread bytes and the time to handle a message, for the Backlog column.
    static QString backlogText(const FreshnessEstimate &f);

    // The Book column: how many of a stream's order books are in each state, and the worst.
    struct BookSummary {
        int total = 0;
        int count[6] = {}; // by int(BookState)
        BookState worst = BookState::Unknown;
        // The worst state with its count ("crossed 1"), or "synced 3/3"; empty without books.
        QString text() const;
        // Worst first when sorted descending; -1 without books.
        qint64 sortKey() const;
        // "3 books: 2 synced, 1 crossed" and the books that are not synced, by name.
        QString toolTip(const QVector<BookStatus> &books) const;
    };
    static BookSummary bookSummary(const QVector<BookStatus> &books);
    // Whether two readings' books differ in what the column shows.
    static bool sameBookStates(const QVector<BookStatus> &a, const QVector<BookStatus> &b);

private:
    static QString csvHeader(int column);
    QString stateToolTip(const Row &r) const;

    qint64 m_nowMs;
};

} // namespace streamscope::ui
