#include "CrossVenueModel.h"

#include "Format.h"
#include "PeerText.h"
#include "ValueFormat.h"

#include <QtGui/QBrush>
#include <QtGui/QColor>

#include <cmath>

namespace streamscope::ui {

namespace {

QString bpsText(double v, bool sign)
{
    if (!std::isfinite(v))
        return QStringLiteral("–");
    if (std::abs(v) < 0.05)
        v = 0.0; // no "-0.0"
    return (sign && v > 0 ? QStringLiteral("+") : QString()) + QString::number(v, 'f', 1);
}

} // namespace

CrossVenueModel::CrossVenueModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

int CrossVenueModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int CrossVenueModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CrossVenueModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case ColInstrument: return tr("Instrument");
        case ColStream: return tr("Stream");
        case ColVenue: return tr("Venue");
        case ColSymbol: return tr("Symbol");
        case ColMid: return tr("Mid");
        case ColLast: return tr("Last");
        case ColBid: return tr("Bid");
        case ColAsk: return tr("Ask");
        case ColDeviation: return tr("Δ bps");
        case ColLastDeviation: return tr("Last Δ");
        case ColSpread: return tr("Spread bps");
        case ColLatency: return tr("p50");
        case ColAge: return tr("Age");
        case ColFlag: return tr("Flag");
        default: break;
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case ColLast: return tr("The price of the stream's last trade of the instrument");
        case ColDeviation:
            return tr("The stream's price (its mid; its last trade without a book) minus the median of the other "
                      "venues' prices, in basis points");
        case ColLastDeviation:
            return tr("The stream's last trade price minus the median of the other venues' last trade prices, in "
                      "basis points");
        case ColLatency: return tr("The stream's latency p50 over the last seconds");
        case ColSpread:
            return tr("Highest minus lowest price (mid, else last trade) over the venues, in basis points of their "
                      "median");
        case ColAge: return tr("Since the stream's last data message");
        case ColFlag:
            return tr("apart: far from the other venues' median for a while; frozen: its price stopped while "
                      "the others moved");
        default: break;
        }
    }
    return {};
}

QVariant CrossVenueModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const Row &row = m_rows[index.row()];
    const alerts::CrossVenueQuote &q = row.quote;
    const bool flagged = q.flag != alerts::CrossVenueFlag::None;
    if (role == FlaggedRole)
        return flagged;
    if (role == Qt::BackgroundRole)
        return flagged ? QVariant(QBrush(QColor(0xf5, 0xb0, 0x41, 0x70))) : QVariant();
    if (role == Qt::TextAlignmentRole)
        return index.column() >= ColMid && index.column() <= ColAge ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                                                    : QVariant();
    if (role == SortRole) {
        switch (index.column()) {
        case ColInstrument: return row.instrument->instrument;
        case ColStream: return q.streamName;
        case ColVenue: return q.venue;
        case ColSymbol: return q.symbol;
        case ColMid: return q.mid;
        case ColLast: return q.last;
        case ColBid: return q.bestBid;
        case ColAsk: return q.bestAsk;
        case ColDeviation: return q.deviationBps;
        case ColLastDeviation: return q.lastDeviationBps;
        case ColSpread: return row.instrument->spreadBps;
        case ColLatency: return q.latencyMs;
        case ColAge: return q.ageMs;
        case ColFlag: return QString::fromLatin1(alerts::crossVenueFlagName(q.flag));
        default: return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case ColInstrument: return row.first ? row.instrument->instrument : QString();
    case ColStream: return peerText(q.streamName);
    case ColVenue: return q.venue;
    case ColSymbol: return peerText(q.symbol);
    case ColMid: return formatPrice(q.mid);
    case ColLast: return formatPrice(q.last);
    case ColBid: return formatPrice(q.bestBid);
    case ColAsk: return formatPrice(q.bestAsk);
    case ColDeviation: return bpsText(q.deviationBps, true);
    case ColLastDeviation: return bpsText(q.lastDeviationBps, true);
    case ColSpread: return row.first ? bpsText(row.instrument->spreadBps, false) : QString();
    case ColLatency: return alerts::formatLatencyMs(q.latencyMs);
    case ColAge: return q.ageMs < 0 ? QStringLiteral("–") : alerts::formatAgeMs(q.ageMs);
    case ColFlag:
        switch (q.flag) {
        case alerts::CrossVenueFlag::Apart: return tr("⚠ apart");
        case alerts::CrossVenueFlag::Frozen: return tr("⚠ frozen %1").arg(alerts::formatAgeMs(q.unchangedMs));
        case alerts::CrossVenueFlag::None: break;
        }
        return QString();
    default: return {};
    }
}

void CrossVenueModel::setInstruments(const QVector<alerts::CrossVenueInstrument> &instruments)
{
    const auto sameShape = [&] {
        qsizetype r = 0;
        for (const auto &inst : instruments) {
            for (const auto &q : inst.quotes) {
                if (r >= m_rows.size() || m_rows[r].instrument->instrument != inst.instrument
                    || m_rows[r].quote.stream != q.stream)
                    return false;
                ++r;
            }
        }
        return r == m_rows.size();
    }();
    if (!sameShape)
        beginResetModel();
    m_data = instruments;
    m_rows.clear();
    for (const auto &inst : std::as_const(m_data)) {
        bool first = true;
        for (const auto &q : inst.quotes) {
            m_rows.append(Row{&inst, q, first});
            first = false;
        }
    }
    m_instruments = m_data.size();
    if (!sameShape)
        endResetModel();
    else if (!m_rows.isEmpty())
        emit dataChanged(index(0, 0), index(int(m_rows.size()) - 1, ColumnCount - 1));
}

int CrossVenueModel::flaggedCount() const
{
    int n = 0;
    for (const Row &r : m_rows)
        n += r.quote.flag != alerts::CrossVenueFlag::None ? 1 : 0;
    return n;
}

} // namespace streamscope::ui
