#include "InspectorModel.h"

#include "Format.h"
#include "PeerText.h"

#include <QtCore/QJsonDocument>
#include <QtGui/QFontDatabase>

#include <algorithm>
#include <cmath>

namespace streamscope::ui {

InspectorModel::InspectorModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

int InspectorModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_visible.size());
}

int InspectorModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant InspectorModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ColTime: return tr("Received");
    case ColLatency: return tr("Latency");
    case ColBytes: return tr("Bytes");
    case ColMessage: return tr("Message");
    default: break;
    }
    return {};
}

const InspectorModel::Entry *InspectorModel::entryBySeq(quint64 seq) const
{
    if (m_entries.empty() || seq < m_entries.front().seq)
        return nullptr;
    const size_t i = size_t(seq - m_entries.front().seq);
    return i < m_entries.size() ? &m_entries[i] : nullptr;
}

const InspectorModel::Entry *InspectorModel::entryAt(int row) const
{
    return row >= 0 && row < m_visible.size() ? entryBySeq(m_visible[row]) : nullptr;
}

int InspectorModel::rowOfSeq(quint64 seq) const
{
    const auto it = std::lower_bound(m_visible.cbegin(), m_visible.cend(), seq);
    return it != m_visible.cend() && *it == seq ? int(it - m_visible.cbegin()) : -1;
}

QVariant InspectorModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Entry *e = entryAt(index.row());
    if (!e)
        return {};
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case ColTime: return formatTimeMs(e->receivedMs);
        case ColLatency: return formatLatencyMs(e->latencyMs);
        case ColBytes: return formatCount(quint64(e->text.size()));
        case ColMessage: return e->preview;
        default: break;
        }
    } else if (role == Qt::TextAlignmentRole && (index.column() == ColLatency || index.column() == ColBytes)) {
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    } else if (role == Qt::FontRole && index.column() == ColMessage) {
        return QFontDatabase::systemFont(QFontDatabase::FixedFont);
    }
    return {};
}

void InspectorModel::setCapacity(int capacity)
{
    m_capacity = std::max(1, capacity);
    trimFront();
}

bool InspectorModel::matches(const Entry &e) const
{
    if (m_filterText.isEmpty())
        return true;
    const QString text = QString::fromUtf8(e.text.left(kMatchBytes));
    if (m_filterRegex)
        return m_regex.match(text).hasMatch();
    return text.contains(m_filterText, m_matchCase ? Qt::CaseSensitive : Qt::CaseInsensitive);
}

QVector<InspectorModel::Span> InspectorModel::matchSpans(const QString &text, int max) const
{
    QVector<Span> spans;
    if (m_filterText.isEmpty())
        return spans;
    if (m_filterRegex) {
        QRegularExpressionMatchIterator it = m_regex.globalMatch(text);
        while (it.hasNext() && spans.size() < max) {
            const QRegularExpressionMatch m = it.next();
            if (m.capturedLength() > 0)
                spans.append({int(m.capturedStart()), int(m.capturedLength())});
        }
        return spans;
    }
    const Qt::CaseSensitivity cs = m_matchCase ? Qt::CaseSensitive : Qt::CaseInsensitive;
    for (qsizetype at = text.indexOf(m_filterText, 0, cs); at >= 0 && spans.size() < max;
         at = text.indexOf(m_filterText, at + m_filterText.size(), cs))
        spans.append({int(at), int(m_filterText.size())});
    return spans;
}

QVector<InspectorModel::Span> InspectorModel::prettyMatchSpans(const QString &pretty, int max) const
{
    if (m_filterText.isEmpty() || m_filterRegex)
        return matchSpans(pretty, max);
    QString pattern;
    for (const QChar c : m_filterText) {
        pattern += QRegularExpression::escape(QString(c));
        if (c == QLatin1Char(':') || c == QLatin1Char(','))
            pattern += QStringLiteral("\\s*");
    }
    const QRegularExpression re(
        pattern, m_matchCase ? QRegularExpression::NoPatternOption : QRegularExpression::CaseInsensitiveOption);
    QVector<Span> spans;
    QRegularExpressionMatchIterator it = re.globalMatch(pretty);
    while (it.hasNext() && spans.size() < max) {
        const QRegularExpressionMatch m = it.next();
        if (m.capturedLength() > 0)
            spans.append({int(m.capturedStart()), int(m.capturedLength())});
    }
    return spans;
}

void InspectorModel::append(const QVector<InspectedMessage> &messages)
{
    if (messages.isEmpty())
        return;
    if (m_frozen) {
        m_pending += messages;
        if (m_pending.size() > m_capacity) {
            const qsizetype excess = m_pending.size() - m_capacity;
            m_dropped += quint64(excess);
            m_pending.remove(0, excess);
        }
        emit countsChanged();
        return;
    }
    appendNow(messages);
}

void InspectorModel::appendNow(const QVector<InspectedMessage> &messages)
{
    // Only the newest `capacity` messages can survive this batch.
    const qsizetype skip = std::max<qsizetype>(0, messages.size() - m_capacity);
    m_dropped += quint64(skip);
    QVector<quint64> newVisible;
    for (qsizetype i = skip; i < messages.size(); ++i) {
        const InspectedMessage &m = messages[i];
        Entry e;
        e.seq = m_nextSeq++;
        e.receivedMs = m.receivedMs;
        e.latencyMs = m.latencyMs;
        e.text = m.text;
        // A table cell shows the peer's bytes escaped, line breaks flattened to spaces; the raw
        // bytes stay in `text` for Copy.
        // UTF-8 has at most 4 bytes a character: peerText's own cut (marked …) comes first.
        QByteArray head = m.text.left(kPreviewChars * 4);
        head.replace('\n', ' ').replace('\r', ' ');
        e.preview = peerText(head, kPreviewChars);
        if (matches(e))
            newVisible.append(e.seq);
        m_entries.push_back(std::move(e));
    }
    if (!newVisible.isEmpty()) {
        const int first = int(m_visible.size());
        beginInsertRows(QModelIndex(), first, first + int(newVisible.size()) - 1);
        m_visible += newVisible;
        endInsertRows();
    }
    trimFront();
    emit countsChanged();
}

void InspectorModel::trimFront()
{
    if (int(m_entries.size()) <= m_capacity)
        return;
    const size_t excess = m_entries.size() - size_t(m_capacity);
    const quint64 keepFrom = m_entries[excess].seq;
    m_dropped += excess;
    const auto firstKept = std::lower_bound(m_visible.cbegin(), m_visible.cend(), keepFrom);
    const int removeRows = int(firstKept - m_visible.cbegin());
    if (removeRows > 0)
        beginRemoveRows(QModelIndex(), 0, removeRows - 1);
    m_entries.erase(m_entries.begin(), m_entries.begin() + qsizetype(excess));
    if (removeRows > 0) {
        m_visible.remove(0, removeRows);
        endRemoveRows();
    }
}

void InspectorModel::clear()
{
    beginResetModel();
    m_entries.clear();
    m_visible.clear();
    m_pending.clear();
    m_dropped = 0;
    endResetModel();
    emit countsChanged();
}

void InspectorModel::setFrozen(bool frozen)
{
    if (frozen == m_frozen)
        return;
    m_frozen = frozen;
    if (!frozen && !m_pending.isEmpty()) {
        const QVector<InspectedMessage> pending = std::exchange(m_pending, {});
        appendNow(pending);
    }
    emit countsChanged();
}

bool InspectorModel::setFilter(const QString &text, bool regex, QString *error, bool matchCase)
{
    QRegularExpression re;
    if (regex && !text.isEmpty()) {
        re = QRegularExpression(
            text, matchCase ? QRegularExpression::NoPatternOption : QRegularExpression::CaseInsensitiveOption);
        if (!re.isValid()) {
            if (error)
                *error = tr("Invalid regular expression at %1: %2").arg(re.patternErrorOffset()).arg(re.errorString());
            return false;
        }
    }
    if (text == m_filterText && regex == m_filterRegex && matchCase == m_matchCase)
        return true;
    beginResetModel();
    m_filterText = text;
    m_filterRegex = regex;
    m_matchCase = matchCase;
    m_regex = re;
    m_visible.clear();
    for (const Entry &e : m_entries) {
        if (matches(e))
            m_visible.append(e.seq);
    }
    endResetModel();
    emit countsChanged();
    return true;
}

QString InspectorModel::prettyText(const QByteArray &text)
{
    // Only valid JSON is re-indented; anything else is shown as it came.
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(text, &err);
    if (err.error != QJsonParseError::NoError || doc.isNull())
        return QString::fromUtf8(text);
    // Re-indented from the message's own bytes rather than from QJsonDocument, which sorts
    // the keys: the keys keep the message's order, and an array that holds no object or
    // array (prices, [price, quantity] pairs) stays on one line.
    constexpr int kIndent = 4;
    QByteArray out;
    out.reserve(text.size() * 2);
    int depth = 0;
    int flatUntil = -1; // inside a one-line array: the index of its ']'
    const auto newline = [&] {
        out += '\n';
        out += QByteArray(depth * kIndent, ' ');
    };
    // The end of the array opening at `open` if it holds no '{' or '[', else -1.
    const auto flatArrayEnd = [&text](qsizetype open) -> qsizetype {
        bool inString = false;
        for (qsizetype i = open + 1; i < text.size(); ++i) {
            const char ch = text[i];
            if (inString) {
                if (ch == '\\')
                    ++i;
                else if (ch == '"')
                    inString = false;
            } else if (ch == '"') {
                inString = true;
            } else if (ch == '{' || ch == '[') {
                return -1;
            } else if (ch == ']') {
                return i;
            }
        }
        return -1;
    };
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char ch = text[i];
        if (ch == '"') { // a string, copied as it is
            const qsizetype start = i;
            for (++i; i < text.size() && text[i] != '"'; ++i)
                if (text[i] == '\\')
                    ++i;
            out += text.mid(start, i - start + 1);
            continue;
        }
        if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r')
            continue;
        if (i <= flatUntil) { // a one-line array: ", " between its values
            out += ch;
            if (ch == ',')
                out += ' ';
            continue;
        }
        switch (ch) {
        case '{':
        case '[': {
            const qsizetype close = ch == '[' ? flatArrayEnd(i) : -1;
            if (close >= 0) {
                flatUntil = int(close);
                out += '[';
                continue;
            }
            out += ch;
            // An empty object or array stays "{}" / "[]".
            qsizetype next = i + 1;
            while (next < text.size() && QChar::isSpace(uchar(text[next])))
                ++next;
            if (next < text.size() && (text[next] == '}' || text[next] == ']')) {
                out += text[next];
                i = next;
                continue;
            }
            ++depth;
            newline();
            break;
        }
        case '}':
        case ']':
            --depth;
            newline();
            out += ch;
            break;
        case ',':
            out += ',';
            newline();
            break;
        case ':': out += ": "; break;
        default: out += ch;
        }
    }
    return QString::fromUtf8(out);
}

} // namespace streamscope::ui
