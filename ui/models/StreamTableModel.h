#pragma once

// One row per engine stream: state, rates, latency percentiles, counters and alert state.
//
// Fed by the SnapshotHub's ticks on the GUI thread: apply() ten times a second with the new
// readings, updateLatency() with the snapshots due on that tick (a tenth of the rows each tick: each
// row once a second), which then carry latency. Rates and
// percentiles are derived here from the difference of snapshots (the engine keeps only
// monotonic totals). Changes are announced in batches: one dataChanged per contiguous
// block of changed rows and contiguous run of the columns that changed in them (a view then
// repaints only those cells), beginInsertRows only for new streams, never a reset per tick.
// data() only formats values already computed (StreamCells).

#include "StreamFigures.h"
#include "StreamSnapshot.h"

#include <QtCore/QAbstractTableModel>
#include <QtCore/QHash>
#include <QtCore/QVector>

#include <array>
#include <functional>

namespace streamscope::ui {

class StreamTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        ColName = 0,
        ColState,
        ColRate,
        ColKBps,
        ColMessages,
        ColP50,
        ColP99,
        ColAge,
        ColReconnects,
        ColGaps,
        ColParseErrors,
        ColResults,
        ColErrors,
        ColActions,
        // After the buttons, so that a layout saved before it keeps its columns; hidden by
        // default (docs/freshness.md, "Backpressure").
        ColBacklog,
        // Also after the buttons for the same reason: the order books' states (docs/books.md).
        ColBook,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1, // numeric value for sorting
        StreamIdRole,
        StateRole,     // int(StreamState)
        AlertRole,     // alert text, empty when none
        RecordingRole, // bool: the stream records (the row's record button)
        OfflineRole,   // bool: an open capture's row, not a running stream (fixed figures)
        // For a spreadsheet (CSV, copied rows): a cell's plain value, numbers with a dot and no
        // unit or thousands separator, empty for none; a header's name with its unit.
        CsvRole,
    };

    // Derived per-stream values, also read by the alerts and the status bar.
    struct Row {
        StreamSnapshot snap;
        double msgsPerSec = 0.0;
        double bytesPerSec = 0.0;
        double p50Ms = qQNaN();
        double p99Ms = qQNaN();
        qint64 firstSeenMs = 0;
        QString alert;
        // Rate samples: the last ~1.1 s of (takenAtNs, messages, bytes), oldest first.
        struct Sample {
            qint64 ns = 0;
            quint64 messages = 0;
            quint64 bytes = 0;
        };
        std::array<Sample, 12> samples{};
        int sampleCount = 0;
        // The percentile window (5–10 s), computed as headless mode computes it for the alerts.
        alerts::LatencyWindow latWindow;
        bool latencyCorrected = false; // the window is of the corrected histogram
        bool offline = false;          // setOfflineFigures(): an open capture's fixed figures
    };

    explicit StreamTableModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;

    // Ten times a second: the new readings (new streams among them, appended in their order)
    // and the streams that went. A row without a new reading keeps its figures; its "Last msg"
    // age moves on with `nowMs`.
    void apply(const QVector<StreamSnapshot> &snaps, const QList<StreamId> &removed, qint64 nowMs);
    // The same with the new readings given as their positions in `all` (ascending), as the
    // SnapshotHub hands them on: no reading is copied but into its row.
    void apply(const QVector<StreamSnapshot> &all, const QList<qsizetype> &changed, const QList<StreamId> &removed,
               qint64 nowMs);
    // The same from every stream's snapshot: streams absent from `snaps` are removed.
    void update(const QVector<StreamSnapshot> &snaps, qint64 nowMs);
    // Once a second for each row, with latency; `steadyMs` is a monotonic clock for the windows.
    // Only the snapshots `due` accepts (all without it) are windowed.
    void updateLatency(const QVector<StreamSnapshot> &snaps, qint64 steadyMs,
                       const std::function<bool(StreamId)> &due = {});
    // The rows the last updateLatency() windowed.
    int latencyRowsLastUpdate() const { return m_latencyRows; }
    // A state change reported by the engine between two ticks: shown at once.
    void applyState(StreamId id, StreamState state, const QString &reason);
    void setAlert(StreamId id, const QString &text);
    // An open capture's row (File → Open capture): its rate, p50 and p99 are the capture's own,
    // fixed, its state reads "capture" and its age nothing. Kept while the row lives.
    void setOfflineFigures(StreamId id, double msgsPerSec, double bytesPerSec, double p50Ms, double p99Ms);

    int rowOf(StreamId id) const { return m_rowOf.value(id, -1); }
    StreamId idAt(int row) const;
    const Row *row(StreamId id) const;
    const QVector<Row> &rows() const { return m_rows; }
    double totalMsgsPerSec() const;
    double totalBytesPerSec() const;
    void setDarkTheme(bool dark);
    // p50/p99 of the latency corrected for the venue's clock (docs/clock.md) where an offset is
    // known, raw elsewhere; the windows start afresh where the choice changes.
    void setLatencyCorrected(bool on) { m_corrected = on; }
    bool latencyCorrected() const { return m_corrected; }
    // The cumulative histogram the row's p50/p99 come from (raw or corrected).
    static const LatencySnapshot &shownLatency(const Row &row, const StreamSnapshot &s);

private:
    // A set of columns, one bit each (1 << column).
    using Columns = quint32;
    static_assert(ColumnCount <= 32);
    static constexpr Columns columnBit(int column) { return Columns(1) << column; }
    static constexpr Columns kAllColumns = (Columns(1) << ColumnCount) - 1;
    struct ChangedRow {
        int row = 0;
        Columns columns = 0;
    };
    // The cells a new reading changes in its row; none when nothing it shows moved.
    static Columns changedColumns(const StreamSnapshot &old, const StreamSnapshot &s, bool rateMoved,
                                  bool byteRateMoved);
    void emitRowChanged(int row); // every column
    void emitChanged(const QVector<ChangedRow> &changedRows);
    // The age column of the rows not in `read` (see apply()).
    void emitAgeChanged(const QList<const StreamSnapshot *> &read);
    void applyReadings(const QList<StreamId> &removed, qint64 nowMs); // m_readings
    void reindex();

    QVector<Row> m_rows;
    QHash<StreamId, int> m_rowOf;
    QList<const StreamSnapshot *> m_readings; // apply()'s, kept for its storage
    struct Fixed {
        double msgsPerSec = 0.0;
        double bytesPerSec = 0.0;
        double p50Ms = qQNaN();
        double p99Ms = qQNaN();
    };
    QHash<StreamId, Fixed> m_fixed; // setOfflineFigures()
    qint64 m_nowMs = 0;
    int m_latencyRows = 0; // rows the last updateLatency() windowed
    bool m_dark = false;
    bool m_corrected = false;
};

} // namespace streamscope::ui
