#include "StreamCells.h"

#include "Format.h"
#include "PeerText.h"

#include <QtCore/QRegularExpression>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

namespace streamscope::ui {

using Col = StreamTableModel::Column;

QVariant StreamCells::header(int section, int role)
{
    if (role == StreamTableModel::CsvRole) {
        const QString withUnit = csvHeader(section);
        return withUnit.isEmpty() ? header(section, Qt::DisplayRole) : withUnit;
    }
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Col::ColName: return tr("Stream");
        case Col::ColState: return tr("State");
        case Col::ColRate: return tr("msgs/s");
        case Col::ColKBps: return tr("KB/s");
        case Col::ColMessages: return tr("Messages");
        case Col::ColP50: return tr("p50");
        case Col::ColP99: return tr("p99");
        case Col::ColAge: return tr("Last msg");
        case Col::ColReconnects: return tr("Reconn.");
        case Col::ColGaps: return tr("Gaps");
        case Col::ColParseErrors: return tr("Parse err.");
        case Col::ColResults: return tr("Results");
        case Col::ColErrors: return tr("Errors");
        case Col::ColBacklog: return tr("Backlog");
        case Col::ColBook: return tr("Book");
        case Col::ColActions: return QString();
        default: break;
        }
    } else if (role == Qt::ToolTipRole) {
        switch (section) {
        case Col::ColName: return tr("Stream name; hover a row for its URL and state");
        case Col::ColState: return tr("Connection state; hover a row for the reason");
        case Col::ColRate: return tr("Messages per second over the last second");
        case Col::ColKBps: return tr("Kilobytes received per second over the last second");
        case Col::ColMessages: return tr("Messages received since the stream was added");
        case Col::ColP50: return tr("Median latency (receive time − event time) over the last 5–10 seconds");
        case Col::ColP99: return tr("99th percentile latency over the last 5–10 seconds");
        case Col::ColAge: return tr("Time since the last message");
        case Col::ColReconnects: return tr("Reconnections since the stream was added");
        case Col::ColGaps: return tr("Sequence gaps detected (depth diff streams)");
        case Col::ColParseErrors: return tr("Messages that could not be decoded");
        case Col::ColResults: return tr("Subscription results routed from the endpoint");
        case Col::ColErrors: return tr("Errors returned by the endpoint");
        case Col::ColBacklog:
            return tr("Bytes received but not read yet (socket and kernel queue) and the time to handle one message");
        case Col::ColBook:
            return tr("The local order books of a depth stream: the worst state and how many books are in it "
                      "(synced, syncing, resyncing, desynced, crossed); hover a row for every state");
        case Col::ColActions: return tr("Stop, restart, remove");
        default: break;
        }
    } else if (role == Qt::TextAlignmentRole) {
        if (section >= Col::ColRate && section != Col::ColActions && section != Col::ColBook)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant StreamCells::display(const Row &r, int column) const
{
    const StreamSnapshot &s = r.snap;
    switch (column) {
    case Col::ColName: return s.name;
    case Col::ColState: return r.offline ? tr("capture") : stateName(s.state);
    case Col::ColRate: return formatRate(r.msgsPerSec);
    case Col::ColKBps: return formatBytesRate(r.bytesPerSec);
    case Col::ColMessages: return formatCount(s.messages);
    case Col::ColP50:
        if (const QString period = periodText(s.freshness); !period.isEmpty())
            return period;
        return formatLatencyMs(r.p50Ms);
    case Col::ColP99: return s.freshness.periodic ? QStringLiteral("–") : formatLatencyMs(r.p99Ms);
    case Col::ColAge:
        if (r.offline)
            return QStringLiteral("–"); // a capture receives nothing now
        return formatAgeMs(s.lastMessageMs > 0 ? std::max<qint64>(0, m_nowMs - s.lastMessageMs) : -1);
    case Col::ColReconnects: return formatCount(s.reconnects);
    case Col::ColGaps: return formatCount(s.gaps);
    case Col::ColParseErrors: return formatCount(s.parseErrors);
    case Col::ColResults: return formatCount(s.results);
    case Col::ColErrors: return formatCount(s.errors);
    case Col::ColBacklog: return backlogText(s.freshness);
    case Col::ColBook: return bookSummary(s.books).text();
    default: break;
    }
    return {};
}

QString StreamCells::csvHeader(int column)
{
    switch (column) {
    case Col::ColRate: return tr("msgs/s");
    case Col::ColKBps: return tr("KB/s");
    case Col::ColP50: return tr("p50 (ms)");
    case Col::ColP99: return tr("p99 (ms)");
    case Col::ColAge: return tr("Last msg (s)");
    case Col::ColBacklog: return tr("Backlog (bytes)");
    default: break;
    }
    return {};
}

QString StreamCells::csv(const Row &r, int column) const
{
    const StreamSnapshot &s = r.snap;
    // QString::number is the C locale's: a dot, no grouping. Three decimals at most.
    const auto plain = [](double v) {
        static const QRegularExpression trailingZeros(QStringLiteral("\\.?0+$"));
        return std::isfinite(v) ? QString::number(v, 'f', 3).remove(trailingZeros) : QString();
    };
    switch (column) {
    case Col::ColName: return s.name;
    case Col::ColState: return display(r, column).toString();
    case Col::ColRate: return plain(r.msgsPerSec);
    case Col::ColKBps: return plain(r.bytesPerSec / 1024.0);
    case Col::ColMessages: return QString::number(s.messages);
    // A periodic stream has no latency percentile (the table shows its period instead).
    case Col::ColP50: return s.freshness.periodic ? QString() : plain(r.p50Ms);
    case Col::ColP99: return s.freshness.periodic ? QString() : plain(r.p99Ms);
    case Col::ColAge:
        return r.offline || s.lastMessageMs <= 0
            ? QString()
            : plain(double(std::max<qint64>(0, m_nowMs - s.lastMessageMs)) / 1000.0);
    case Col::ColReconnects: return QString::number(s.reconnects);
    case Col::ColGaps: return QString::number(s.gaps);
    case Col::ColParseErrors: return QString::number(s.parseErrors);
    case Col::ColResults: return QString::number(s.results);
    case Col::ColErrors: return QString::number(s.errors);
    case Col::ColBacklog: return s.freshness.unreadBytes < 0 ? QString() : QString::number(s.freshness.unreadBytes);
    case Col::ColBook: return bookSummary(s.books).text();
    default: break;
    }
    return {};
}

QStringList StreamCells::widestFigures(int column)
{
    switch (column) {
    case Col::ColState: {
        QStringList out{tr("capture")};
        for (StreamState st : {StreamState::Idle, StreamState::Connecting, StreamState::Subscribing, StreamState::Live,
                               StreamState::Stalled, StreamState::Reconnecting, StreamState::Stopped,
                               StreamState::Failed, StreamState::Degraded})
            out << stateName(st);
        return out;
    }
    case Col::ColRate: return {formatRate(9.9), formatRate(9999.0), formatRate(999'900.0)};
    case Col::ColKBps: return {formatBytesRate(9.99 * 1024.0), formatBytesRate(9999.9 * 1024.0)};
    case Col::ColMessages: return {formatCount(99'999'999)};
    case Col::ColP50:
    case Col::ColP99:
        return {formatLatencyMs(0.99), formatLatencyMs(99.9), formatLatencyMs(999.0), formatLatencyMs(99'990.0)};
    case Col::ColAge: return {formatAgeMs(9'900), formatAgeMs(119'000), formatAgeMs(7'199'000), formatAgeMs(-1)};
    case Col::ColReconnects:
    case Col::ColGaps:
    case Col::ColParseErrors:
    case Col::ColResults:
    case Col::ColErrors: return {formatCount(99'999)};
    default: break;
    }
    return {};
}

QString StreamCells::periodText(const FreshnessEstimate &f)
{
    if (!f.periodic || f.periodMs < 0)
        return {};
    return tr("every %1 ms ±%2").arg(qRound64(f.periodMs)).arg(qRound64(std::max(0.0, f.periodJitterMs)));
}

QString StreamCells::backlogText(const FreshnessEstimate &f)
{
    if (f.unreadBytes < 0)
        return QStringLiteral("–");
    QString text = f.unreadBytes < 1024 ? tr("%1 B").arg(f.unreadBytes) : tr("%1 KiB").arg(f.unreadBytes / 1024);
    if (f.processingUs >= 0)
        text += tr(", %1 µs/msg").arg(f.processingUs, 0, 'f', f.processingUs < 10 ? 1 : 0);
    return text;
}

namespace {
// Worst last: the column shows the worst state a book of the stream is in.
int bookSeverity(BookState s)
{
    switch (s) {
    case BookState::Synced: return 1;
    case BookState::Syncing: return 2;
    case BookState::Resyncing: return 3;
    case BookState::Desynced: return 4;
    case BookState::Crossed: return 5;
    case BookState::Unknown: break;
    }
    return 0;
}

constexpr BookState kBookStates[] = {BookState::Synced, BookState::Syncing, BookState::Resyncing, BookState::Desynced,
                                     BookState::Crossed};
constexpr int kNamedBooks = 5; // books named in the tooltip, of those not synced
} // namespace

StreamCells::BookSummary StreamCells::bookSummary(const QVector<BookStatus> &books)
{
    BookSummary out;
    for (const BookStatus &b : books) {
        const int state = int(b.state);
        if (state < 0 || state >= int(std::size(out.count)))
            continue;
        ++out.count[state];
        ++out.total;
        if (bookSeverity(b.state) > bookSeverity(out.worst))
            out.worst = b.state;
    }
    return out;
}

QString StreamCells::BookSummary::text() const
{
    if (total == 0 || worst == BookState::Unknown)
        return {};
    const QString name = QString::fromLatin1(bookStateName(worst));
    if (worst == BookState::Synced)
        return QStringLiteral("%1 %2/%3").arg(name).arg(count[int(worst)]).arg(total);
    return QStringLiteral("%1 %2").arg(name).arg(count[int(worst)]);
}

qint64 StreamCells::BookSummary::sortKey() const
{
    if (total == 0)
        return -1;
    return qint64(bookSeverity(worst)) * 100'000 + count[int(worst)];
}

QString StreamCells::BookSummary::toolTip(const QVector<BookStatus> &books) const
{
    QStringList parts;
    for (BookState s : kBookStates) {
        if (count[int(s)] > 0)
            parts.append(QStringLiteral("%1 %2").arg(count[int(s)]).arg(QLatin1String(bookStateName(s))));
    }
    QString tip =
        tr("%1: %2").arg(countNoun(quint64(total), tr("book"), tr("books")), parts.join(QStringLiteral(", ")));
    int named = 0;
    for (const BookStatus &b : books) {
        if (b.state == BookState::Synced)
            continue;
        if (named++ == kNamedBooks) {
            tip += tr("\n…");
            break;
        }
        tip += QStringLiteral("\n%1 %2").arg(b.instrument, QLatin1String(bookStateName(b.state)));
        if (!b.lastResyncReason.isEmpty() && b.state != BookState::Syncing)
            tip += QStringLiteral(": ") + b.lastResyncReason;
    }
    return tip;
}

bool StreamCells::sameBookStates(const QVector<BookStatus> &a, const QVector<BookStatus> &b)
{
    if (a.size() != b.size())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (a[i].state != b[i].state || a[i].instrument != b[i].instrument)
            return false;
    }
    return true;
}

QVariant StreamCells::sort(const Row &r, int column) const
{
    const StreamSnapshot &s = r.snap;
    switch (column) {
    case Col::ColName: return s.name;
    case Col::ColState: return int(s.state);
    case Col::ColRate: return r.msgsPerSec;
    case Col::ColKBps: return r.bytesPerSec;
    case Col::ColMessages: return s.messages;
    // A periodic stream shows its period under p50 and nothing under p99: it sorts by those.
    case Col::ColP50:
        if (s.freshness.periodic)
            return s.freshness.periodMs;
        return std::isfinite(r.p50Ms) ? r.p50Ms : -1.0;
    case Col::ColP99: return !s.freshness.periodic && std::isfinite(r.p99Ms) ? r.p99Ms : -1.0;
    case Col::ColAge: return s.lastMessageMs > 0 ? m_nowMs - s.lastMessageMs : std::numeric_limits<qint64>::max();
    case Col::ColReconnects: return s.reconnects;
    case Col::ColGaps: return s.gaps;
    case Col::ColParseErrors: return s.parseErrors;
    case Col::ColResults: return s.results;
    case Col::ColErrors: return s.errors;
    case Col::ColBacklog: return qint64(s.freshness.unreadBytes);
    case Col::ColBook: return bookSummary(s.books).sortKey();
    default: break;
    }
    return {};
}

QString StreamCells::stateToolTip(const Row &r) const
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

QVariant StreamCells::toolTip(const Row &r, int column) const
{
    if (column == Col::ColState || column == Col::ColName) {
        QString tip = stateToolTip(r);
        if (column == Col::ColName) {
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
    if ((column == Col::ColP50 || column == Col::ColP99) && r.snap.freshness.periodic) {
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
    if (column == Col::ColBacklog) {
        const FreshnessEstimate &f = r.snap.freshness;
        const auto bytes = [](qint64 n) { return n >= 0 ? tr("%1 bytes").arg(n) : tr("unknown"); };
        return tr("Unread now: %1; most in the last 10 s: %2\nHandling one message: %3\nInspector drops: %4")
            .arg(bytes(f.unreadBytes), bytes(f.unreadBytesPeak))
            .arg(f.processingUs >= 0 ? tr("%1 µs (1 in 64 timed)").arg(f.processingUs, 0, 'f', 1) : tr("unknown"))
            .arg(formatCount(r.snap.inspectorDrops));
    }
    if (column == Col::ColP50 || column == Col::ColP99) {
        QString tip = r.latencyCorrected ? tr("Corrected for the venue's clock: %1").arg(clockText(r.snap.clock))
                                         : tr("Raw: receive time − event time");
        if (!isRunning(r.snap.state) && !std::isnan(r.p99Ms))
            tip += tr("\nThe last 5–10 seconds before the stream stopped");
        if (!r.snap.clock.note.isEmpty())
            tip += QLatin1Char('\n') + r.snap.clock.note;
        return tip;
    }
    if (column == Col::ColBook && !r.snap.books.isEmpty())
        return bookSummary(r.snap.books).toolTip(r.snap.books);
    if (column == Col::ColParseErrors && !r.snap.lastParseError.isEmpty())
        return tr("Last: %1\n%2").arg(r.snap.lastParseError, peerText(r.snap.lastBadMessage, 300));
    if (!r.alert.isEmpty())
        return tr("Alert: %1").arg(r.alert);
    return {};
}

} // namespace streamscope::ui
