#include "StreamTableModel.h"

#include "Format.h"
#include "PeerText.h"

#include <QtCore/QRegularExpression>
#include <QtCore/QSet>
#include <QtGui/QBrush>
#include <QtGui/QFont>

#include <algorithm>
#include <cmath>
#include <limits>

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
    if (orientation != Qt::Horizontal)
        return {};
    if (role == CsvRole) {
        const QString withUnit = csvHeader(section);
        return withUnit.isEmpty() ? headerData(section, orientation, Qt::DisplayRole) : withUnit;
    }
    if (role == Qt::DisplayRole) {
        switch (section) {
        case ColName: return tr("Stream");
        case ColState: return tr("State");
        case ColRate: return tr("msgs/s");
        case ColKBps: return tr("KB/s");
        case ColMessages: return tr("Messages");
        case ColP50: return tr("p50");
        case ColP99: return tr("p99");
        case ColAge: return tr("Last msg");
        case ColReconnects: return tr("Reconn.");
        case ColGaps: return tr("Gaps");
        case ColParseErrors: return tr("Parse err.");
        case ColResults: return tr("Results");
        case ColErrors: return tr("Errors");
        case ColBacklog: return tr("Backlog");
        case ColActions: return QString();
        default: break;
        }
    } else if (role == Qt::ToolTipRole) {
        switch (section) {
        case ColName: return tr("Stream name; hover a row for its URL and state");
        case ColState: return tr("Connection state; hover a row for the reason");
        case ColRate: return tr("Messages per second over the last second");
        case ColKBps: return tr("Kilobytes received per second over the last second");
        case ColMessages: return tr("Messages received since the stream was added");
        case ColP50: return tr("Median latency (receive time − event time) over the last 5–10 seconds");
        case ColP99: return tr("99th percentile latency over the last 5–10 seconds");
        case ColAge: return tr("Time since the last message");
        case ColReconnects: return tr("Reconnections since the stream was added");
        case ColGaps: return tr("Sequence gaps detected (depth diff streams)");
        case ColParseErrors: return tr("Messages that could not be decoded");
        case ColResults: return tr("Subscription results routed from the endpoint");
        case ColErrors: return tr("Errors returned by the endpoint");
        case ColBacklog:
            return tr("Bytes received but not read yet (socket and kernel queue) and the time to handle one message");
        case ColActions: return tr("Stop, restart, remove");
        default: break;
        }
    } else if (role == Qt::TextAlignmentRole) {
        if (section >= ColRate && section != ColActions)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant StreamTableModel::displayValue(const Row &r, int column) const
{
    const StreamSnapshot &s = r.snap;
    switch (column) {
    case ColName: return s.name;
    case ColState: return r.offline ? tr("capture") : stateName(s.state);
    case ColRate: return formatRate(r.msgsPerSec);
    case ColKBps: return formatBytesRate(r.bytesPerSec);
    case ColMessages: return formatCount(s.messages);
    case ColP50:
        if (const QString period = periodText(s.freshness); !period.isEmpty())
            return period;
        return formatLatencyMs(r.p50Ms);
    case ColP99: return s.freshness.periodic ? QStringLiteral("–") : formatLatencyMs(r.p99Ms);
    case ColAge:
        if (r.offline)
            return QStringLiteral("–"); // a capture receives nothing now
        return formatAgeMs(s.lastMessageMs > 0 ? std::max<qint64>(0, m_nowMs - s.lastMessageMs) : -1);
    case ColReconnects: return formatCount(s.reconnects);
    case ColGaps: return formatCount(s.gaps);
    case ColParseErrors: return formatCount(s.parseErrors);
    case ColResults: return formatCount(s.results);
    case ColErrors: return formatCount(s.errors);
    case ColBacklog: return backlogText(s.freshness);
    default: break;
    }
    return {};
}

QString StreamTableModel::csvHeader(int column)
{
    switch (column) {
    case ColRate: return tr("msgs/s");
    case ColKBps: return tr("KB/s");
    case ColP50: return tr("p50 (ms)");
    case ColP99: return tr("p99 (ms)");
    case ColAge: return tr("Last msg (s)");
    case ColBacklog: return tr("Backlog (bytes)");
    default: break;
    }
    return {};
}

QString StreamTableModel::csvValue(const Row &r, int column) const
{
    const StreamSnapshot &s = r.snap;
    // QString::number is the C locale's: a dot, no grouping. Three decimals at most.
    const auto plain = [](double v) {
        static const QRegularExpression trailingZeros(QStringLiteral("\\.?0+$"));
        return std::isfinite(v) ? QString::number(v, 'f', 3).remove(trailingZeros) : QString();
    };
    switch (column) {
    case ColName: return s.name;
    case ColState: return displayValue(r, column).toString();
    case ColRate: return plain(r.msgsPerSec);
    case ColKBps: return plain(r.bytesPerSec / 1024.0);
    case ColMessages: return QString::number(s.messages);
    // A periodic stream has no latency percentile (the table shows its period instead).
    case ColP50: return s.freshness.periodic ? QString() : plain(r.p50Ms);
    case ColP99: return s.freshness.periodic ? QString() : plain(r.p99Ms);
    case ColAge:
        return r.offline || s.lastMessageMs <= 0
            ? QString()
            : plain(double(std::max<qint64>(0, m_nowMs - s.lastMessageMs)) / 1000.0);
    case ColReconnects: return QString::number(s.reconnects);
    case ColGaps: return QString::number(s.gaps);
    case ColParseErrors: return QString::number(s.parseErrors);
    case ColResults: return QString::number(s.results);
    case ColErrors: return QString::number(s.errors);
    case ColBacklog: return s.freshness.unreadBytes < 0 ? QString() : QString::number(s.freshness.unreadBytes);
    default: break;
    }
    return {};
}

QString StreamTableModel::periodText(const FreshnessEstimate &f)
{
    if (!f.periodic || f.periodMs < 0)
        return {};
    return tr("every %1 ms ±%2").arg(qRound64(f.periodMs)).arg(qRound64(std::max(0.0, f.periodJitterMs)));
}

QString StreamTableModel::backlogText(const FreshnessEstimate &f)
{
    if (f.unreadBytes < 0)
        return QStringLiteral("–");
    QString text = f.unreadBytes < 1024 ? tr("%1 B").arg(f.unreadBytes) : tr("%1 KiB").arg(f.unreadBytes / 1024);
    if (f.processingUs >= 0)
        text += tr(", %1 µs/msg").arg(f.processingUs, 0, 'f', f.processingUs < 10 ? 1 : 0);
    return text;
}

QVariant StreamTableModel::sortValue(const Row &r, int column) const
{
    const StreamSnapshot &s = r.snap;
    switch (column) {
    case ColName: return s.name;
    case ColState: return int(s.state);
    case ColRate: return r.msgsPerSec;
    case ColKBps: return r.bytesPerSec;
    case ColMessages: return s.messages;
    // A periodic stream shows its period under p50 and nothing under p99: it sorts by those.
    case ColP50:
        if (s.freshness.periodic)
            return s.freshness.periodMs;
        return std::isfinite(r.p50Ms) ? r.p50Ms : -1.0;
    case ColP99: return !s.freshness.periodic && std::isfinite(r.p99Ms) ? r.p99Ms : -1.0;
    case ColAge: return s.lastMessageMs > 0 ? m_nowMs - s.lastMessageMs : std::numeric_limits<qint64>::max();
    case ColReconnects: return s.reconnects;
    case ColGaps: return s.gaps;
    case ColParseErrors: return s.parseErrors;
    case ColResults: return s.results;
    case ColErrors: return s.errors;
    case ColBacklog: return qint64(s.freshness.unreadBytes);
    default: break;
    }
    return {};
}

QString StreamTableModel::stateToolTip(const Row &r) const
{
    const StreamSnapshot &s = r.snap;
    QString text;
    const qint64 sinceMs = s.stateSinceMs > 0 ? std::max<qint64>(0, m_nowMs - s.stateSinceMs) : -1;
    switch (s.state) {
    case StreamState::Reconnecting:
        if (s.nextRetryAtMs > 0)
            text = tr("Reconnecting in %1").arg(formatAgeMs(std::max<qint64>(0, s.nextRetryAtMs - m_nowMs)));
        else
            text = tr("Reconnecting");
        break;
    case StreamState::Stalled:
        text = tr("Stalled since %1 (%2)").arg(formatTimeMs(s.stateSinceMs), formatAgeMs(sinceMs));
        break;
    case StreamState::Failed: text = tr("Failed"); break;
    default: text = tr("%1 for %2").arg(stateName(s.state), formatAgeMs(sinceMs)); break;
    }
    if (!s.stateReason.isEmpty())
        text += QStringLiteral(": ") + s.stateReason;
    if (s.lastCloseCode != 0)
        text += tr("\nLast close code: %1").arg(s.lastCloseCode);
    const FreshnessEstimate &f = s.freshness;
    if (f.fallingBehind) {
        text += tr("\nFalling behind: latency grows by %1 ms each second").arg(f.latencyTrendMsPerS, 0, 'f', 1);
        if (f.cause == BehindCause::VenueLate)
            text += tr(" (the venue or the network is late: this machine keeps up)");
        else if (f.cause == BehindCause::WeAreSlow)
            text += f.unreadBytes >= 0
                ? tr(" (this machine is slow: its worker was busy %1 % of the last second, %2 bytes wait unread)")
                      .arg(qRound(f.workerBusyShare * 100))
                      .arg(f.unreadBytes)
                : tr(" (this machine is slow: its worker was busy %1 % of the last second)")
                      .arg(qRound(f.workerBusyShare * 100));
    }
    if (f.usualGapMs >= 0)
        text += tr("\nUsual gap between messages: %1 (learned)").arg(formatAgeMs(f.usualGapMs));
    if (!r.alert.isEmpty())
        text += tr("\nAlert: %1").arg(r.alert);
    return text;
}

QVariant StreamTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &r = m_rows[index.row()];
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole: return displayValue(r, column);
    case SortRole: return sortValue(r, column);
    case StreamIdRole: return r.snap.id;
    case StateRole: return int(r.snap.state);
    case AlertRole: return r.alert;
    case RecordingRole: return r.snap.record.on;
    case OfflineRole: return r.offline;
    case CsvRole: return csvValue(r, column);
    case Qt::ToolTipRole:
        if (column == ColState || column == ColName) {
            QString tip = stateToolTip(r);
            if (column == ColName) {
                tip = r.snap.url.toString() + QLatin1Char('\n') + tip;
                const RecordStatus &rec = r.snap.record;
                if (rec.on)
                    tip += tr("\nRecording to %1: %2 MB, %3 messages since %4")
                               .arg(rec.file)
                               .arg(double(rec.bytesWritten) / (1024.0 * 1024.0), 0, 'f', 1)
                               .arg(formatCount(rec.messages), formatTimeMs(rec.sinceMs));
                if (rec.on && rec.dropped)
                    tip += tr("; %1 not recorded").arg(formatCount(rec.dropped));
                if (rec.on && !rec.error.isEmpty())
                    tip += tr("\nRecording error: %1").arg(rec.error);
            }
            return tip;
        }
        if ((column == ColP50 || column == ColP99) && r.snap.freshness.periodic) {
            const FreshnessEstimate &f = r.snap.freshness;
            QString tip = tr("Periodic stream: its event time ends an interval, so receive time − event time holds "
                             "the interval; no latency alarm applies to it.");
            if (f.periodMs >= 0)
                tip += tr("\nPeriod %1 ms (median spacing of its event times), jitter ±%2 ms (median distance from "
                          "it)")
                           .arg(f.periodMs, 0, 'f', 1)
                           .arg(f.periodJitterMs, 0, 'f', 1);
            else
                tip += tr("\nPeriod: measuring");
            tip += tr("\nLatency p50 %1, p99 %2").arg(formatLatencyMs(r.p50Ms), formatLatencyMs(r.p99Ms));
            return tip;
        }
        if (column == ColBacklog) {
            const FreshnessEstimate &f = r.snap.freshness;
            const auto bytes = [this](qint64 n) { return n >= 0 ? tr("%1 bytes").arg(n) : tr("unknown"); };
            return tr("Unread now: %1; most in the last 10 s: %2\nHandling one message: %3\nInspector drops: %4")
                .arg(bytes(f.unreadBytes), bytes(f.unreadBytesPeak))
                .arg(f.processingUs >= 0 ? tr("%1 µs (1 in 64 timed)").arg(f.processingUs, 0, 'f', 1) : tr("unknown"))
                .arg(formatCount(r.snap.inspectorDrops));
        }
        if (column == ColP50 || column == ColP99) {
            QString tip = r.latencyCorrected ? tr("Corrected for the venue's clock: %1").arg(clockText(r.snap.clock))
                                             : tr("Raw: receive time − event time");
            if (!isRunning(r.snap.state) && !std::isnan(r.p99Ms))
                tip += tr("\nThe last 5–10 seconds before the stream stopped");
            if (!r.snap.clock.note.isEmpty())
                tip += QLatin1Char('\n') + r.snap.clock.note;
            return tip;
        }
        if (column == ColParseErrors && !r.snap.lastParseError.isEmpty())
            return tr("Last: %1\n%2").arg(r.snap.lastParseError, peerText(r.snap.lastBadMessage, 300));
        if (!r.alert.isEmpty())
            return tr("Alert: %1").arg(r.alert);
        return {};
    case Qt::DecorationRole:
        // A red dot before the name: the stream records (amber when its recording has errors).
        if (column == ColName && r.snap.record.on)
            return r.snap.record.error.isEmpty() ? QColor(0xd7, 0x3a, 0x49) : QColor(0xe3, 0x8b, 0x06);
        return {};
    case Qt::ForegroundRole:
        if (column == ColState)
            return QBrush(stateColor(r.snap.state, m_dark));
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
        if (column >= ColRate && column != ColActions)
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

void StreamTableModel::emitChanged(const QVector<int> &changedRows)
{
    // changedRows is ascending: one signal per contiguous block.
    int first = -1;
    int last = -1;
    for (int r : changedRows) {
        if (first >= 0 && r == last + 1) {
            last = r;
            continue;
        }
        if (first >= 0)
            emit dataChanged(index(first, 0), index(last, ColumnCount - 1), kChangedRoles);
        first = last = r;
    }
    if (first >= 0)
        emit dataChanged(index(first, 0), index(last, ColumnCount - 1), kChangedRoles);
}

void StreamTableModel::emitAgeChanged(const QVector<StreamSnapshot> &read)
{
    // A row without a new reading (an agent's between its answers) still ages: its "Last msg"
    // column moves on with the clock, in one signal per contiguous block.
    if (read.size() == m_rows.size())
        return; // every row was read
    QSet<StreamId> fresh;
    fresh.reserve(read.size());
    for (const StreamSnapshot &s : read)
        fresh.insert(s.id);
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

void StreamTableModel::apply(const QVector<StreamSnapshot> &snaps, const QList<StreamId> &removedIds, qint64 nowMs)
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

    QVector<int> changed;
    changed.reserve(m_rows.size());
    QVector<const StreamSnapshot *> added;
    for (const StreamSnapshot &s : snaps) {
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
        const bool differs = old.state != s.state || old.stateReason != s.stateReason || old.messages != s.messages
            || old.reconnects != s.reconnects || old.gaps != s.gaps || old.parseErrors != s.parseErrors
            || old.results != s.results || old.errors != s.errors || old.name != s.name || old.record.on != s.record.on
            || old.record.error != s.record.error || old.lastMessageMs > 0 || rate != row.msgsPerSec
            || brate != row.bytesPerSec;
        const LatencySnapshot keep = std::move(row.snap.latency);
        row.snap = s;
        row.snap.latency = std::move(keep);
        row.msgsPerSec = row.offline ? m_fixed.value(s.id).msgsPerSec : rate;
        row.bytesPerSec = row.offline ? m_fixed.value(s.id).bytesPerSec : brate;
        if (differs)
            changed.append(r);
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
    emitAgeChanged(snaps);
}

void StreamTableModel::updateLatency(const QVector<StreamSnapshot> &snaps, qint64 steadyMs)
{
    QVector<int> changed;
    for (const StreamSnapshot &s : snaps) {
        const int r = rowOf(s.id);
        const bool corrected = m_corrected && !s.latencyCorrected.buckets.isEmpty();
        // Nothing to window yet (no histogram taken, or every raw latency negative).
        if (r < 0 || (corrected ? s.latencyCorrected : s.latency).buckets.isEmpty() || m_rows[r].offline)
            continue;
        Row &row = m_rows[r];
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
            changed.append(r);
        }
        row.snap.latency = s.latency;
    }
    std::sort(changed.begin(), changed.end());
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
    emitChanged({r});
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
    emitChanged({r});
}

void StreamTableModel::setAlert(StreamId id, const QString &text)
{
    const int r = rowOf(id);
    if (r < 0 || m_rows[r].alert == text)
        return;
    m_rows[r].alert = text;
    emitChanged({r});
}

} // namespace streamscope::ui
