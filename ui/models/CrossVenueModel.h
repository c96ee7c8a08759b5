#pragma once

// The Cross-venue pane's rows (docs/user-guide.md, "Cross-venue"): one instrument across the
// venues that keep its order book or send its trades, one row per instrument and stream, grouped
// by instrument. Columns: the instrument (its normalised name, on the group's first row), the
// stream and its venue, the venue's own spelling, mid, last trade price, best bid and ask, the
// deviation of its price (mid, else last) from the median of the other venues' (bps), the
// deviation of its last from the others' lasts (bps), the spread between the venues (bps, the
// group's first row), latency p50, age of the last data message, and the flag ("apart",
// "frozen"). A flagged row's cells carry
// FlaggedRole and are drawn with a warning background.
//
// Fed once a second from alerts::CrossVenueMonitor (AlertService::crossVenueUpdated): the rows
// are reset only when the set of (instrument, stream) pairs changed, otherwise one
// dataChanged for the whole table.
//
// Thread contract: GUI thread only.

#include "CrossVenueMonitor.h"

#include <QtCore/QAbstractTableModel>

namespace streamscope::ui {

class CrossVenueModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        ColInstrument = 0,
        ColStream,
        ColVenue,
        ColSymbol,
        ColMid,
        ColLast,
        ColBid,
        ColAsk,
        ColDeviation,
        ColLastDeviation,
        ColSpread,
        ColLatency,
        ColAge,
        ColFlag,
        ColumnCount
    };
    enum Role {
        FlaggedRole = Qt::UserRole + 1, // bool: the row's stream is flagged for the instrument
        SortRole,                       // the raw value (double, qint64 or text)
    };

    explicit CrossVenueModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void setInstruments(const QVector<alerts::CrossVenueInstrument> &instruments);
    int instrumentCount() const { return int(m_instruments); }
    int flaggedCount() const;

private:
    struct Row {
        const alerts::CrossVenueInstrument *instrument = nullptr;
        alerts::CrossVenueQuote quote;
        bool first = false; // the group's first row
    };
    QVector<alerts::CrossVenueInstrument> m_data;
    QVector<Row> m_rows;
    qsizetype m_instruments = 0;
};

} // namespace streamscope::ui
