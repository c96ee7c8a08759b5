#include "StreamTableModel.h"

#include "Format.h"
#include "StreamCells.h"
#include "WidgetHelpers.h"

#include <QtCore/QSet>
#include <QtGui/QBrush>
#include <QtGui/QFont>

#include <algorithm>
#include <cmath>

namespace streamscope::ui {

namespace {
constexpr qint64 kRateWindowNs = 1'000'000'000;
const QList<int> kChangedRoles = {Qt::DisplayRole,
                                  Qt::ToolTipRole,
                                  Qt::DecorationRole,
                                  Qt::ForegroundRole,
                                  Qt::BackgroundRole,
                                  StreamTableModel::SortRole,
                                  StreamTableModel::StateRole,
                                  StreamTableModel::RecordingRole,
                                  StreamTableModel::AlertRole};
} // namespace

StreamTableModel::StreamTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

int StreamTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int StreamTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

Qt::ItemFlags StreamTableModel::flags(const QModelIndex &index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemNeverHasChildren;
}

StreamId StreamTableModel::idAt(int row) const
{
    return row >= 0 && row < m_rows.size() ? m_rows[row].snap.id : kInvalidStreamId;
}

const StreamTableModel::Row *StreamTableModel::row(StreamId id) const
{
    const int r = rowOf(id);
    return r >= 0 ? &m_rows[r] : nullptr;
}

double StreamTableModel::totalMsgsPerSec() const
{
    double sum = 0.0;
    for (const Row &r : m_rows)
        sum += r.offline ? 0.0 : r.msgsPerSec; // a capture's rate is not received now
    return sum;
}

double StreamTableModel::totalBytesPerSec() const
{
    double sum = 0.0;
    for (const Row &r : m_rows)
        sum += r.offline ? 0.0 : r.bytesPerSec;
    return sum;
}

void StreamTableModel::setDarkTheme(bool dark)
{
    if (dark == m_dark)
        return;
    m_dark = dark;
    if (!m_rows.isEmpty())
        emit dataChanged(index(0, 0), index(int(m_rows.size()) - 1, ColumnCount - 1),
                         {Qt::ForegroundRole, Qt::BackgroundRole});
}

QVariant StreamTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    return orientation == Qt::Horizontal ? StreamCells::header(section, role) : QVariant();
}

QVariant StreamTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &r = m_rows[index.row()];
    const int column = index.column();
    const StreamCells cells(m_nowMs);
    switch (role) {
    case Qt::DisplayRole: return cells.display(r, column);
    case SortRole: return cells.sort(r, column);
    case StreamIdRole: return r.snap.id;
    case StateRole: return int(r.snap.state);
    case AlertRole: return r.alert;
    case RecordingRole: return r.snap.record.on;
    case OfflineRole: return r.offline;
    case CsvRole: return cells.csv(r, column);
    case Qt::ToolTipRole: {
        // Names, URLs, paths and a peer's error texts: shown as they are, never as markup.
        const QVariant tip = cells.toolTip(r, column);
        return tip.isValid() ? QVariant(plainToolTip(tip.toString())) : tip;
    }
    case Qt::DecorationRole:
        // A red dot before the name: the stream records (amber when its recording has errors).
        if (column == ColName && r.snap.record.on)
            return r.snap.record.error.isEmpty() ? QColor(0xd7, 0x3a, 0x49) : QColor(0xe3, 0x8b, 0x06);
        return {};
    case Qt::ForegroundRole:
        if (column == ColState)
            return QBrush(stateColor(r.snap.state, m_dark));
        if (column == ColBook && !r.snap.books.isEmpty())
            return QBrush(bookStateColor(StreamCells::bookSummary(r.snap.books).worst, m_dark));
        return {};
    case Qt::BackgroundRole:
        if (!r.alert.isEmpty())
            return QBrush(m_dark ? QColor(120, 30, 30, 140) : QColor(255, 205, 205));
        return {};
    case Qt::FontRole:
        if (column == ColState || column == ColName) {
            QFont f;
            f.setBold(column == ColState);
            return f;
        }
        return {};
    case Qt::TextAlignmentRole:
        if (column >= ColRate && column != ColActions && column != ColBook)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    default: break;
    }
    return {};
}

void StreamTableModel::reindex()
{
    m_rowOf.clear();
    m_rowOf.reserve(m_rows.size());
    for (int i = 0; i < m_rows.size(); ++i)
        m_rowOf.insert(m_rows[i].snap.id, i);
}

void StreamTableModel::emitRowChanged(int row)
{
    emit dataChanged(index(row, 0), index(row, ColumnCount - 1), kChangedRoles);
}

void StreamTableModel::emitChanged(const QVector<ChangedRow> &changedRows)
{
    // changedRows is ascending: one signal per block of contiguous changed rows and per
    // contiguous run of the columns that changed in any of them, so that a view repaints only
    // the cells whose figures may have moved (a thousand rows' rates: three columns, not
    // sixteen). The columns are merged over the block: rows whose rate moved beside rows whose
    // rate did not still make one block, not one per row (a signal costs the proxy and both
    // views far more than repainting a visible cell that did not change).
    const auto emitBlock = [this](int first, int last, Columns columns) {
        for (int c = 0; c < ColumnCount; ++c) {
            if (!(columns & columnBit(c)))
                continue;
            int end = c;
            while (end + 1 < ColumnCount && (columns & columnBit(end + 1)))
                ++end;
            emit dataChanged(index(first, c), index(last, end), kChangedRoles);
            c = end;
        }
    };
    int first = -1;
    int last = -1;
    Columns columns = 0;
    for (const ChangedRow &changed : changedRows) {
        if (first >= 0 && changed.row == last + 1) {
            last = changed.row;
            columns |= changed.columns;
            continue;
        }
        if (first >= 0)
            emitBlock(first, last, columns);
        first = last = changed.row;
        columns = changed.columns;
    }
    if (first >= 0)
        emitBlock(first, last, columns);
}

void StreamTableModel::emitAgeChanged(const QList<const StreamSnapshot *> &read)
{
    // A row without a new reading (an agent's between its answers) still ages: its "Last msg"
    // column moves on with the clock, in one signal per contiguous block.
    if (read.size() == m_rows.size())
        return; // every row was read
    QSet<StreamId> fresh;
    fresh.reserve(read.size());
    for (const StreamSnapshot *s : read)
        fresh.insert(s->id);
    const auto ages = [&](int r) {
        return !fresh.contains(m_rows[r].snap.id) && !m_rows[r].offline && m_rows[r].snap.lastMessageMs > 0;
    };
    for (int r = 0; r < m_rows.size(); ++r) {
        if (!ages(r))
            continue;
        int last = r;
        while (last + 1 < m_rows.size() && ages(last + 1))
            ++last;
        emit dataChanged(index(r, ColAge), index(last, ColAge), {Qt::DisplayRole, SortRole});
        r = last;
    }
}

void StreamTableModel::update(const QVector<StreamSnapshot> &snaps, qint64 nowMs)
{
    QSet<StreamId> present;
    present.reserve(snaps.size());
    for (const StreamSnapshot &s : snaps)
        present.insert(s.id);
    QList<StreamId> removed;
    for (const Row &row : std::as_const(m_rows))
        if (!present.contains(row.snap.id))
            removed.append(row.snap.id);
    apply(snaps, removed, nowMs);
}

void StreamTableModel::apply(const QVector<StreamSnapshot> &snaps, const QList<StreamId> &removed, qint64 nowMs)
{
    m_readings.clear();
    for (const StreamSnapshot &s : snaps)
        m_readings.append(&s);
    applyReadings(removed, nowMs);
}

void StreamTableModel::apply(const QVector<StreamSnapshot> &all, const QList<qsizetype> &changed,
                             const QList<StreamId> &removed, qint64 nowMs)
{
    m_readings.clear();
    for (qsizetype i : changed)
        m_readings.append(&all.at(i));
    applyReadings(removed, nowMs);
}

void StreamTableModel::applyReadings(const QList<StreamId> &removedIds, qint64 nowMs)
{
    m_nowMs = nowMs;

    // Removed streams, in contiguous blocks from the end.
    QSet<StreamId> removed(removedIds.cbegin(), removedIds.cend());
    for (int i = int(m_rows.size()) - 1; i >= 0 && !removed.isEmpty();) {
        if (!removed.contains(m_rows[i].snap.id)) {
            --i;
            continue;
        }
        int first = i;
        while (first > 0 && removed.contains(m_rows[first - 1].snap.id))
            --first;
        beginRemoveRows(QModelIndex(), first, i);
        for (int k = first; k <= i; ++k)
            m_fixed.remove(m_rows[k].snap.id);
        m_rows.remove(first, i - first + 1);
        endRemoveRows();
        i = first - 1;
    }
    if (m_rowOf.size() != m_rows.size())
        reindex();

    QVector<ChangedRow> changed;
    changed.reserve(m_rows.size());
    QVector<const StreamSnapshot *> added;
    for (const StreamSnapshot *reading : std::as_const(m_readings)) {
        const StreamSnapshot &s = *reading;
        const int r = rowOf(s.id);
        if (r < 0) {
            added.append(&s);
            continue;
        }
        Row &row = m_rows[r];
        const StreamSnapshot &old = row.snap;
        // Rate over the last second from the sample ring.
        // A snapshot seen before (a remote agent's, polled once a second) adds no sample.
        const bool fresh = row.sampleCount == 0 || row.samples[size_t(row.sampleCount - 1)].ns != s.takenAtNs;
        if (fresh && row.sampleCount == int(row.samples.size())) {
            std::rotate(row.samples.begin(), row.samples.begin() + 1, row.samples.end());
            --row.sampleCount;
        }
        if (fresh)
            row.samples[size_t(row.sampleCount++)] = {s.takenAtNs, s.messages, s.bytes};
        int base = 0;
        while (base + 1 < row.sampleCount - 1 && s.takenAtNs - row.samples[size_t(base + 1)].ns >= kRateWindowNs)
            ++base;
        const Row::Sample &a = row.samples[size_t(base)];
        // A stream that no longer runs receives nothing: 0 at once, not a rate fading over a second.
        const bool runs = isRunning(s.state);
        const double rate = alerts::ratePerSecond(a.messages, a.ns, s.messages, s.takenAtNs, runs);
        const double brate = alerts::ratePerSecond(a.bytes, a.ns, s.bytes, s.takenAtNs, runs);
        const Columns columns = changedColumns(old, s, rate != row.msgsPerSec, brate != row.bytesPerSec);
        const LatencySnapshot keep = std::move(row.snap.latency);
        row.snap = s;
        row.snap.latency = std::move(keep);
        row.msgsPerSec = row.offline ? m_fixed.value(s.id).msgsPerSec : rate;
        row.bytesPerSec = row.offline ? m_fixed.value(s.id).bytesPerSec : brate;
        if (columns)
            changed.append({r, columns});
    }
    emitChanged(changed);

    if (!added.isEmpty()) {
        const int first = int(m_rows.size());
        beginInsertRows(QModelIndex(), first, first + int(added.size()) - 1);
        for (const StreamSnapshot *s : added) {
            Row row;
            row.snap = *s;
            row.snap.latency = LatencySnapshot();
            row.firstSeenMs = nowMs;
            row.samples[0] = {s->takenAtNs, s->messages, s->bytes};
            row.sampleCount = 1;
            m_rowOf.insert(s->id, int(m_rows.size()));
            m_rows.append(std::move(row));
        }
        endInsertRows();
    }
    emitAgeChanged(m_readings);
}

StreamTableModel::Columns StreamTableModel::changedColumns(const StreamSnapshot &old, const StreamSnapshot &s,
                                                           bool rateMoved, bool byteRateMoved)
{
    // What shows in every cell of the row, or beside its figures: the name (and its record
    // dot), the state's colour and reason, the row's buttons, the book column.
    if (old.state != s.state || old.stateReason != s.stateReason || old.name != s.name || old.record.on != s.record.on
        || old.record.error != s.record.error || !StreamCells::sameBookStates(old.books, s.books))
        return kAllColumns;
    Columns columns = 0;
    const auto mark = [&columns](bool moved, int column) { columns |= moved ? columnBit(column) : 0; };
    mark(rateMoved, ColRate);
    mark(byteRateMoved, ColKBps);
    mark(old.messages != s.messages, ColMessages);
    mark(old.lastMessageMs > 0 || s.lastMessageMs > 0, ColAge); // its age moves with the clock
    mark(old.reconnects != s.reconnects, ColReconnects);
    mark(old.gaps != s.gaps, ColGaps);
    mark(old.parseErrors != s.parseErrors, ColParseErrors);
    mark(old.results != s.results, ColResults);
    mark(old.errors != s.errors, ColErrors);
    if (columns) {
        // Figures read from the freshness estimate, which moves with the others: the backlog,
        // and a periodic stream's period and jitter in place of its latency.
        columns |= columnBit(ColBacklog);
        if (old.freshness.periodic || s.freshness.periodic)
            columns |= columnBit(ColP50) | columnBit(ColP99);
    }
    return columns;
}

void StreamTableModel::updateLatency(const QVector<StreamSnapshot> &snaps, qint64 steadyMs,
                                     const std::function<bool(StreamId)> &due)
{
    QVector<ChangedRow> changed;
    m_latencyRows = 0;
    for (const StreamSnapshot &s : snaps) {
        if (due && !due(s.id))
            continue;
        const int r = rowOf(s.id);
        const bool corrected = m_corrected && !s.latencyCorrected.buckets.isEmpty();
        // Nothing to window yet (no histogram taken, or every raw latency negative).
        if (r < 0 || (corrected ? s.latencyCorrected : s.latency).buckets.isEmpty() || m_rows[r].offline)
            continue;
        Row &row = m_rows[r];
        ++m_latencyRows;
        if (corrected != row.latencyCorrected) { // another histogram: its own window
            row.latencyCorrected = corrected;
            row.latWindow = alerts::LatencyWindow();
        }
        row.latWindow.update(corrected ? s.latencyCorrected : s.latency, isRunning(row.snap.state), steadyMs);
        const double p50 = row.latWindow.p50Ms();
        const double p99 = row.latWindow.p99Ms();
        const auto same = [](double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; };
        if (!same(p50, row.p50Ms) || !same(p99, row.p99Ms)) {
            row.p50Ms = p50;
            row.p99Ms = p99;
            changed.append({r, columnBit(ColP50) | columnBit(ColP99)});
        }
        row.snap.latency = s.latency;
    }
    std::sort(changed.begin(), changed.end(), [](const ChangedRow &a, const ChangedRow &b) { return a.row < b.row; });
    emitChanged(changed);
}

const LatencySnapshot &StreamTableModel::shownLatency(const Row &row, const StreamSnapshot &s)
{
    return row.latencyCorrected ? s.latencyCorrected : s.latency;
}

void StreamTableModel::applyState(StreamId id, StreamState state, const QString &reason)
{
    const int r = rowOf(id);
    if (r < 0)
        return;
    Row &row = m_rows[r];
    if (row.snap.state == state && row.snap.stateReason == reason)
        return;
    row.snap.state = state;
    row.snap.stateReason = reason;
    row.snap.stateSinceMs = m_nowMs;
    if (!isRunning(state)) { // it receives nothing now: 0 at once, not at the next refresh
        row.msgsPerSec = 0.0;
        row.bytesPerSec = 0.0;
    }
    emitRowChanged(r);
}

void StreamTableModel::setOfflineFigures(StreamId id, double msgsPerSec, double bytesPerSec, double p50Ms, double p99Ms)
{
    const int r = rowOf(id);
    if (r < 0)
        return;
    m_fixed.insert(id, {msgsPerSec, bytesPerSec, p50Ms, p99Ms});
    Row &row = m_rows[r];
    row.offline = true;
    row.msgsPerSec = msgsPerSec;
    row.bytesPerSec = bytesPerSec;
    row.p50Ms = p50Ms;
    row.p99Ms = p99Ms;
    row.snap.latency = LatencySnapshot();
    emitRowChanged(r);
}

void StreamTableModel::setAlert(StreamId id, const QString &text)
{
    const int r = rowOf(id);
    if (r < 0 || m_rows[r].alert == text)
        return;
    m_rows[r].alert = text;
    emitRowChanged(r);
}

} // namespace streamscope::ui
