#include "EventLogModel.h"

#include "Format.h"
#include "PeerText.h"
#include "WidgetHelpers.h"

#include <QtCore/QDateTime>
#include <QtCore/QRegularExpression>
#include <QtGui/QBrush>
#include <QtGui/QFont>

namespace streamscope::ui {

EventLogModel::EventLogModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

int EventLogModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int EventLogModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant EventLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ColTime: return tr("Time");
    case ColStream: return tr("Stream");
    case ColKind: return tr("Event");
    case ColText: return tr("Details");
    default: break;
    }
    return {};
}

const EventLogModel::Entry *EventLogModel::entryAt(int row) const
{
    return row >= 0 && row < int(m_entries.size()) ? &m_entries[size_t(row)] : nullptr;
}

QVariant EventLogModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Entry &e = m_entries[size_t(index.row())];
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case ColTime: return formatTimeMs(e.timeMs);
        case ColStream: return e.stream;
        case ColKind: return e.kind;
        case ColText: return QString(e.text).replace(QLatin1Char('\n'), QLatin1Char(' '));
        default: break;
        }
    } else if (role == FileRole) {
        return e.file;
    } else if (role == Qt::ToolTipRole && index.column() == ColText) {
        return plainToolTip(e.file.isEmpty() ? e.text : tr("%1\nDouble-click to show the file").arg(e.text));
    } else if (role == Qt::FontRole && index.column() == ColText && !e.file.isEmpty()) {
        QFont f;
        f.setUnderline(true); // a link: double-click or the context menu shows the file
        return f;
    } else if (role == Qt::ForegroundRole && index.column() == ColKind) {
        const bool dark = isDarkPalette();
        switch (e.severity) {
        case Severity::Error: return QBrush(stateColor(StreamState::Failed, dark));
        case Severity::Warning: return QBrush(stateColor(StreamState::Stalled, dark));
        default: break;
        }
    }
    return {};
}

QString EventLogModel::kindName(EventKind kind)
{
    switch (kind) {
    case EventKind::StateChanged: return tr("state");
    case EventKind::Connected: return tr("connected");
    case EventKind::Disconnected: return tr("disconnected");
    case EventKind::ReconnectScheduled: return tr("reconnect");
    case EventKind::Stalled: return tr("stalled");
    case EventKind::Gap: return tr("gap");
    case EventKind::ParseError: return tr("parse error");
    case EventKind::Response: return tr("response");
    case EventKind::Info: return tr("info");
    case EventKind::Unknown: break;
    }
    return tr("event");
}

EventLogFilter::EventLogFilter(QObject *parent)
    : QSortFilterProxyModel(parent)
{
}

void EventLogFilter::setStream(const QString &stream)
{
    if (stream == m_stream)
        return;
    m_stream = stream;
    invalidateFilter();
}

void EventLogFilter::setMinimumSeverity(int severity)
{
    if (severity == m_minimumSeverity)
        return;
    m_minimumSeverity = severity;
    invalidateFilter();
}

bool EventLogFilter::filterAcceptsRow(int sourceRow, const QModelIndex &) const
{
    const auto *model = qobject_cast<const EventLogModel *>(sourceModel());
    const EventLogModel::Entry *e = model ? model->entryAt(sourceRow) : nullptr;
    if (!e)
        return false;
    return int(e->severity) >= m_minimumSeverity && (m_stream.isEmpty() || e->stream == m_stream);
}

EventLogModel::Entry *EventLogModel::lastEntryOf(const QString &streamName, int *shownRow)
{
    *shownRow = -1;
    for (auto it = m_pending.rbegin(); it != m_pending.rend(); ++it)
        if (it->stream == streamName)
            return &*it;
    for (int row = int(m_entries.size()) - 1; row >= 0 && row >= int(m_entries.size()) - 50; --row) {
        if (m_entries[size_t(row)].stream == streamName) {
            *shownRow = row;
            return &m_entries[size_t(row)];
        }
    }
    return nullptr;
}

bool EventLogModel::repeatsStall(const StreamEvent &event, const QString &streamName)
{
    // The engine says "stalled" twice: the stall itself, then the state it puts the stream in,
    // with the same reason. One line says it.
    if (event.kind != EventKind::StateChanged || event.state != StreamState::Stalled)
        return false;
    int shownRow = -1;
    const Entry *last = lastEntryOf(streamName, &shownRow);
    return last && last->source == EventKind::Stalled && last->text == peerText(event.text)
        && event.timeMs - last->timeMs <= kFoldWithinMs;
}

bool EventLogModel::foldIntoDisconnect(const StreamEvent &event, const QString &streamName)
{
    const bool scheduled = event.kind == EventKind::ReconnectScheduled;
    if (!scheduled && !(event.kind == EventKind::StateChanged && event.state == StreamState::Reconnecting))
        return false;
    // The stream's latest entry, waiting or shown; only a disconnect just before takes it.
    int shownRow = -1;
    Entry *last = lastEntryOf(streamName, &shownRow);
    if (!last || last->source != EventKind::Disconnected || event.timeMs - last->timeMs > kFoldWithinMs)
        return false;
    if (scheduled) {
        // "reconnecting in 1.5 s (attempt 2): <reason>": the reason is the disconnect's already.
        static const QRegularExpression when(QStringLiteral("^reconnecting in [^()]+ \\(attempt \\d+\\)"));
        const QRegularExpressionMatch m = when.match(event.text);
        last->text += QStringLiteral("; ") + peerText(m.hasMatch() ? m.captured(0) : event.text);
        last->kind = tr("reconnect");
        if (shownRow >= 0)
            emit dataChanged(index(shownRow, 0), index(shownRow, ColumnCount - 1));
    }
    return true;
}

void EventLogModel::addEvent(const StreamEvent &event, const QString &streamName)
{
    if (foldIntoDisconnect(event, streamName) || repeatsStall(event, streamName))
        return;
    Entry e;
    e.source = event.kind;
    e.timeMs = event.timeMs;
    e.stream = streamName;
    e.kind = event.kind == EventKind::StateChanged ? stateName(event.state) : kindName(event.kind);
    e.text = peerText(event.text); // the engine escaped what it quotes; this keeps the log safe regardless
    if (event.kind == EventKind::Disconnected && event.closeCode != 0
        && !event.text.contains(QLatin1String("close code")))
        e.text += tr(" (close code %1)").arg(event.closeCode);
    // The engine's word that a flight recorder's file is written: the entry links to it.
    static const QString kSaved = QStringLiteral("flight recorder: saved ");
    if (event.kind == EventKind::Info && event.text.startsWith(kSaved))
        e.file = event.text.mid(kSaved.size());
    switch (event.kind) {
    case EventKind::ParseError:
    case EventKind::Gap: e.severity = Severity::Error; break;
    case EventKind::Disconnected:
    case EventKind::ReconnectScheduled:
    case EventKind::Stalled: e.severity = Severity::Warning; break;
    case EventKind::StateChanged:
        e.severity = event.state == StreamState::Failed                                         ? Severity::Error
            : (event.state == StreamState::Stalled || event.state == StreamState::Reconnecting) ? Severity::Warning
                                                                                                : Severity::Info;
        break;
    default: break;
    }
    add(std::move(e));
}

void EventLogModel::addAlertRaised(const QString &stream, const QString &text, const QString &flightFile)
{
    Entry e{QDateTime::currentMSecsSinceEpoch(), stream, tr("alert"), text, Severity::Error};
    if (!flightFile.isEmpty()) {
        e.text += tr("; flight recorder saving to %1").arg(flightFile);
        e.file = flightFile;
    }
    add(std::move(e));
}

void EventLogModel::addAlertCleared(const QString &stream, const QString &text)
{
    add({QDateTime::currentMSecsSinceEpoch(), stream, tr("alert cleared"), text, Severity::Info});
}

void EventLogModel::addKeychainFailure(const QString &entryName, const QString &error)
{
    add({QDateTime::currentMSecsSinceEpoch(), QString(), tr("keychain"),
         tr("Could not read or write keychain entry \"%1\": %2").arg(entryName, error), Severity::Warning});
}

void EventLogModel::addAgentStatus(const QString &agent, const QString &status, bool connected)
{
    add({QDateTime::currentMSecsSinceEpoch(), agent, tr("agent"),
         connected ? tr("connected to the agent") : tr("agent not answering: %1").arg(status),
         connected ? Severity::Info : Severity::Warning});
}

void EventLogModel::addWorkspaceWarning(const QString &text)
{
    add({QDateTime::currentMSecsSinceEpoch(), QString(), tr("workspace"), text, Severity::Warning});
}

void EventLogModel::add(Entry entry)
{
    m_pending.append(std::move(entry));
    if (m_pending.size() > kCapacity)
        m_pending.remove(0, m_pending.size() - kCapacity);
}

void EventLogModel::flush()
{
    if (m_pending.isEmpty())
        return;
    const int incoming = int(m_pending.size());
    const int overflow = int(m_entries.size()) + incoming - kCapacity;
    if (overflow > 0) {
        const int removeRows = std::min(overflow, int(m_entries.size()));
        if (removeRows > 0) {
            beginRemoveRows(QModelIndex(), 0, removeRows - 1);
            m_entries.erase(m_entries.begin(), m_entries.begin() + removeRows);
            endRemoveRows();
        }
    }
    const int first = int(m_entries.size());
    beginInsertRows(QModelIndex(), first, first + incoming - 1);
    for (Entry &e : m_pending)
        m_entries.push_back(std::move(e));
    endInsertRows();
    m_pending.clear();
}

void EventLogModel::clear()
{
    beginResetModel();
    m_entries.clear();
    m_pending.clear();
    endResetModel();
}

} // namespace streamscope::ui
