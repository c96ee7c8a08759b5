#pragma once

// The message inspector's rows: the last kCapacity messages of one stream, filtered by a
// text or a regular expression. Messages arrive in batches (at most ten a second) from the
// inspector's timer; while frozen they are kept aside (capture goes on, bounded) and shown
// on resume. Text is only ever returned as plain strings. GUI thread only.

#include "StreamRecords.h"

#include <QtCore/QAbstractTableModel>
#include <QtCore/QRegularExpression>

#include <deque>

namespace streamscope::ui {

class InspectorModel : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr int kDefaultCapacity = 5000;
    static constexpr int kPreviewChars = 400;
    static constexpr int kMatchBytes = 64 * 1024; // the filter looks at this much of a message

    enum Column { ColTime = 0, ColLatency, ColBytes, ColMessage, ColumnCount };

    struct Entry {
        quint64 seq = 0;
        qint64 receivedMs = 0;
        double latencyMs = qQNaN();
        QByteArray text;
        QString preview; // one line, at most kPreviewChars
    };

    explicit InspectorModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void setCapacity(int capacity);
    int capacity() const { return m_capacity; }
    void append(const QVector<InspectedMessage> &messages);
    void clear();

    bool isFrozen() const { return m_frozen; }
    void setFrozen(bool frozen);

    // An empty text shows everything. Returns false, keeps the previous filter and sets
    // `error` when `regex` is on and the pattern does not compile.
    // `matchCase`: Binance's keys differ only by case ("m"/"M", "e"/"E").
    bool setFilter(const QString &text, bool regex, QString *error = nullptr, bool matchCase = false);
    QString filterText() const { return m_filterText; }
    // Where the filter matches `text` (a preview or a pretty-printed message), at most `max`
    // spans, for highlighting; none when there is no filter.
    struct Span {
        int start = 0;
        int length = 0;
    };
    QVector<Span> matchSpans(const QString &text, int max = 64) const;
    // The same in prettyText()'s output, where a plain-text filter also matches across the
    // spaces and line breaks the indentation adds after ':' and ',' ("m":false matches
    // "m": false).
    QVector<Span> prettyMatchSpans(const QString &pretty, int max = 1000) const;

    const Entry *entryAt(int row) const;
    // The row showing the message numbered `seq`, or -1 when it is not shown (filtered out,
    // dropped, cleared).
    int rowOfSeq(quint64 seq) const;
    int storedCount() const { return int(m_entries.size()); }
    int pendingCount() const { return int(m_pending.size()); }
    quint64 droppedCount() const { return m_dropped; }

    static QString prettyText(const QByteArray &text); // indented JSON, or the text as is

signals:
    void countsChanged();

private:
    bool matches(const Entry &e) const;
    void appendNow(const QVector<InspectedMessage> &messages);
    void trimFront();
    const Entry *entryBySeq(quint64 seq) const;

    std::deque<Entry> m_entries; // oldest first; seqs are consecutive
    QVector<quint64> m_visible;  // seqs of rows shown, ascending
    QVector<InspectedMessage> m_pending;
    quint64 m_nextSeq = 1;
    quint64 m_dropped = 0;
    int m_capacity = kDefaultCapacity;
    bool m_frozen = false;
    QString m_filterText;
    bool m_filterRegex = false;
    bool m_matchCase = false;
    QRegularExpression m_regex;
};

} // namespace streamscope::ui
