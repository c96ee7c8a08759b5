#include "DepthLadderModel.h"

#include <QtGui/QFont>

#include <algorithm>

namespace streamscope::ui {

DepthLadderModel::DepthLadderModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

int DepthLadderModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : 2 * kLevels;
}

int DepthLadderModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DepthLadderModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case ColBid: return tr("Bid size");
        case ColPrice: return tr("Price");
        case ColAsk: return tr("Ask size");
        default: break;
        }
    } else if (role == Qt::ToolTipRole) {
        switch (section) {
        case ColBid: return tr("Quantity bid at the price; the bar is its share of the largest size shown");
        case ColPrice: return tr("The top %1 asks above the top %1 bids; the spread lies between them").arg(kLevels);
        case ColAsk: return tr("Quantity asked at the price; the bar is its share of the largest size shown");
        default: break;
        }
    } else if (role == Qt::TextAlignmentRole) {
        return QVariant(section == ColBid       ? Qt::AlignRight | Qt::AlignVCenter
                            : section == ColAsk ? Qt::AlignLeft | Qt::AlignVCenter
                                                : Qt::AlignHCenter | Qt::AlignVCenter);
    }
    return {};
}

const DepthLevel *DepthLadderModel::levelAt(int row) const
{
    if (row < 0 || row >= 2 * kLevels)
        return nullptr;
    if (isBidRow(row)) {
        const int rank = row - kLevels;
        return rank < m_depth.bids.size() ? &m_depth.bids[rank] : nullptr;
    }
    const int rank = kLevels - 1 - row;
    return rank < m_depth.asks.size() ? &m_depth.asks[rank] : nullptr;
}

double DepthLadderModel::flashOf(const DepthLevel &level, bool bid) const
{
    const auto it = m_changedAt[bid ? 0 : 1].constFind(level.price);
    if (it == m_changedAt[bid ? 0 : 1].cend())
        return 0.0;
    const qint64 age = m_nowMs - *it;
    return age >= kFlashMs || age < 0 ? 0.0 : 1.0 - double(age) / double(kFlashMs);
}

QVariant DepthLadderModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int row = index.row();
    const int column = index.column();
    const bool bid = isBidRow(row);
    const DepthLevel *level = levelAt(row);
    // The size of a level shows on its own side; the other side's cell of the row is empty.
    const bool ownSide = (bid && column == ColBid) || (!bid && column == ColAsk);
    switch (role) {
    case Qt::DisplayRole:
        if (!level)
            return {};
        if (column == ColPrice)
            return depthText(level->price);
        return ownSide ? depthText(level->qty) : QVariant();
    case BarRole: return level && ownSide && m_maxQty > 0.0 ? double(level->qty) / m_maxQty : 0.0;
    case FlashRole: return level && ownSide ? flashOf(*level, bid) : 0.0;
    case SideRole: return bid ? 0 : 1;
    case PriceRole: return level ? QVariant(level->price) : QVariant();
    case Qt::TextAlignmentRole: return headerData(column, Qt::Horizontal, role);
    case Qt::FontRole:
        if (column == ColPrice && (row == bestAskRow() || row == bestBidRow())) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::ToolTipRole:
        if (!level)
            return {};
        return tr("%1 %2 at %3 (rank %4 of %5)")
            .arg(bid ? tr("Bid") : tr("Ask"), depthText(level->qty), depthText(level->price))
            .arg(bid ? row - kLevels + 1 : kLevels - row)
            .arg(bid ? m_depth.bidLevels : m_depth.askLevels);
    default: break;
    }
    return {};
}

void DepthLadderModel::setDepth(const BookDepth &depth, qint64 nowMs)
{
    const bool sameBook = m_hasDepth && depth.stream == m_depth.stream && depth.instrument == m_depth.instrument;
    m_nowMs = nowMs;
    if (!sameBook) {
        m_changedAt[0].clear();
        m_changedAt[1].clear();
    }
    const auto mark = [&](const QVector<DepthLevel> &before, const QVector<DepthLevel> &after, int side) {
        QHash<qint64, qint64> &changed = m_changedAt[side];
        QHash<qint64, qint64> prior;
        prior.reserve(before.size());
        for (const DepthLevel &l : before)
            prior.insert(l.price, l.qty);
        QHash<qint64, qint64> kept;
        kept.reserve(after.size());
        for (const DepthLevel &l : after) {
            const auto was = prior.constFind(l.price);
            if (sameBook && (was == prior.cend() || *was != l.qty))
                kept.insert(l.price, nowMs);
            else if (const auto at = changed.constFind(l.price); at != changed.cend())
                kept.insert(l.price, *at);
        }
        changed.swap(kept); // levels no longer shown forget their flash
    };
    mark(m_depth.bids, depth.bids, 0);
    mark(m_depth.asks, depth.asks, 1);
    m_depth = depth;
    if (m_depth.bids.size() > kLevels)
        m_depth.bids.resize(kLevels);
    if (m_depth.asks.size() > kLevels)
        m_depth.asks.resize(kLevels);
    m_hasDepth = true;
    m_maxQty = 0.0;
    for (const QVector<DepthLevel> *side : {&m_depth.bids, &m_depth.asks})
        for (const DepthLevel &l : *side)
            m_maxQty = std::max(m_maxQty, double(l.qty));
    emitAll({Qt::DisplayRole, Qt::ToolTipRole, BarRole, FlashRole, PriceRole});
}

bool DepthLadderModel::advance(qint64 nowMs)
{
    const int before = flashing();
    m_nowMs = nowMs;
    if (before > 0)
        emitAll({FlashRole});
    return flashing() > 0;
}

int DepthLadderModel::flashing() const
{
    int n = 0;
    for (const QHash<qint64, qint64> &side : m_changedAt)
        for (qint64 at : side)
            n += m_nowMs - at < kFlashMs ? 1 : 0;
    return n;
}

void DepthLadderModel::clear()
{
    m_depth = BookDepth();
    m_hasDepth = false;
    m_maxQty = 0.0;
    m_changedAt[0].clear();
    m_changedAt[1].clear();
    emitAll({Qt::DisplayRole, Qt::ToolTipRole, BarRole, FlashRole, PriceRole});
}

void DepthLadderModel::emitAll(const QList<int> &roles)
{
    emit dataChanged(index(0, 0), index(2 * kLevels - 1, ColumnCount - 1), roles);
}

} // namespace streamscope::ui
