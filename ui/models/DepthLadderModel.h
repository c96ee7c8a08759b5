#pragma once

// The depth ladder's rows (docs/user-guide.md, "Order book"): the top kLevels asks above the top
// kLevels bids, one price level a row, so that the spread always lies between the same two rows
// (kLevels − 1, the best ask, and kLevels, the best bid) and the view never jumps. Columns: the
// bid's size, the price, the ask's size. Each size has a bar (its share of the largest size
// shown) and a level whose size changed, or that is new, flashes for kFlashMs, fading.
//
// Fed with BookDepth copies (Engine::bookDepthReady) a few times a second; a level is compared
// with the previous copy by its price. Rows are fixed: a copy only changes data.
//
// Thread contract: GUI thread only.

#include "BookDepth.h"

#include <QtCore/QAbstractTableModel>
#include <QtCore/QHash>

namespace streamscope::ui {

class DepthLadderModel : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr int kLevels = 20; // a side
    static constexpr qint64 kFlashMs = 1000;

    enum Column { ColBid = 0, ColPrice, ColAsk, ColumnCount };
    enum Role {
        BarRole = Qt::UserRole + 1, // double 0..1: the row's size over the largest size shown; 0 none
        FlashRole,                  // double 0..1: 1 just changed, fading to 0 over kFlashMs
        SideRole,                   // int: 0 a bid's row, 1 an ask's
        PriceRole,                  // qint64: the level's price in 10^-8 units; absent on an empty row
    };

    explicit DepthLadderModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // A new copy of the book at `nowMs` (a monotonic clock): the levels that differ from the last
    // copy of the same instrument flash. The first copy (or another instrument's) flashes nothing.
    void setDepth(const BookDepth &depth, qint64 nowMs);
    // Moves the flashes on to `nowMs`; returns whether any still fades.
    bool advance(qint64 nowMs);
    // No levels, no flashes.
    void clear();

    const BookDepth &depth() const { return m_depth; }
    // The row of the best ask (kLevels − 1) and of the best bid (kLevels).
    static int bestAskRow() { return kLevels - 1; }
    static int bestBidRow() { return kLevels; }
    // The level on `row` (null: an empty row).
    const DepthLevel *levelAt(int row) const;
    bool isBidRow(int row) const { return row >= kLevels; }
    // Flashing now: the levels changed within kFlashMs.
    int flashing() const;

private:
    void emitAll(const QList<int> &roles);
    double flashOf(const DepthLevel &level, bool bid) const;

    BookDepth m_depth;
    bool m_hasDepth = false;
    double m_maxQty = 0.0;
    qint64 m_nowMs = 0;
    QHash<qint64, qint64> m_changedAt[2]; // by side (0 bids, 1 asks): price → when it last changed
};

} // namespace streamscope::ui
