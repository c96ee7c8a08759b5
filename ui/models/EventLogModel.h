#pragma once

// The event log: connects, disconnects with reason and close code, reconnect attempts,
// stalls, gaps, parse errors with the offending message, alerts, keychain failures, agents
// connecting or not answering, and workspace warnings. Every entry is built here (time, kind, severity, text) from the facts
// its caller passes, so the log reads alike whoever reports. Events arrive at a low rate
// from Engine::eventOccurred, the alert monitor and the workspace; they are queued and
// inserted in one batch per flush() (on every SnapshotHub tick), at most kCapacity kept.
// GUI thread only.

#include "StreamRecords.h"

#include <QtCore/QAbstractTableModel>
#include <QtCore/QSortFilterProxyModel>
#include <QtCore/QVector>

#include <deque>

namespace streamscope::ui {

class EventLogModel;

// What the event log shows: one stream's entries or all, and a minimum severity.
class EventLogFilter : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit EventLogFilter(QObject *parent = nullptr);
    // Empty: every stream (and the entries of no stream: keychain, workspace).
    void setStream(const QString &stream);
    void setMinimumSeverity(int severity); // an EventLogModel::Severity

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QString m_stream;
    int m_minimumSeverity = 0;
};

class EventLogModel : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr int kCapacity = 10000;
    enum Column { ColTime = 0, ColStream, ColKind, ColText, ColumnCount };
    enum class Severity { Unknown = 0, Info, Warning, Error };
    // The file an entry links to (a flight recorder's save), for every column; empty if none.
    static constexpr int FileRole = Qt::UserRole + 1;

    struct Entry {
        qint64 timeMs = 0;
        QString stream;
        QString kind;
        QString text;
        Severity severity = Severity::Info;
        EventKind source = EventKind::Unknown; // the engine's kind, for events from the engine
        QString file = QString();              // a file the entry names (a flight recorder's save)
    };

    explicit EventLogModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void addEvent(const StreamEvent &event, const QString &streamName);
    // `flightFile`: the stream's flight recorder was saved there for this alert.
    void addAlertRaised(const QString &stream, const QString &text, const QString &flightFile = QString());
    void addAlertCleared(const QString &stream, const QString &text);
    void addKeychainFailure(const QString &entryName, const QString &error);
    // A watched agent connected, or stopped answering (`status` says why).
    void addAgentStatus(const QString &agent, const QString &status, bool connected);
    void addWorkspaceWarning(const QString &text);
    void add(Entry entry);
    // Inserts everything queued since the last flush.
    void flush();
    void clear();
    const Entry *entryAt(int row) const;
    static QString kindName(EventKind kind);

private:
    // A reconnect is one line: the disconnect, with the engine's "reconnecting in …" folded
    // into it and its Reconnecting state change dropped. True when `event` was folded.
    bool foldIntoDisconnect(const StreamEvent &event, const QString &streamName);
    // The Stalled state change that repeats the stall event just before it (same reason).
    bool repeatsStall(const StreamEvent &event, const QString &streamName);
    // The stream's latest entry, waiting or among the last 50 shown (`shownRow`, else -1).
    Entry *lastEntryOf(const QString &streamName, int *shownRow);

    static constexpr qint64 kFoldWithinMs = 2000;

    std::deque<Entry> m_entries;
    QVector<Entry> m_pending;
};

} // namespace streamscope::ui
