#include "CaptureWindow.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <utility>

namespace streamscope::replay {

namespace {

constexpr qint64 kItemOverheadBytes = qint64(sizeof(CaptureWindow::Item)) + 64;

} // namespace

bool CaptureWindow::open(const QString &path, bool loop)
{
    m_loop = loop;
    if (!m_reader.open(path, kMaxLineBytes)) {
        m_error = m_reader.errorString();
        return false;
    }
    const Status status = readNext(kFirstEntryBudget);
    if (status == Status::Ready) {
        const CaptureFile::Entry &first = m_items.front().entry;
        if (first.kind == CaptureFile::Kind::Event && first.event == QLatin1String("capture")) {
            const QJsonObject o = QJsonDocument::fromJson(first.payload).object();
            m_venue = o.value(QStringLiteral("venue")).toString();
            m_url = o.value(QStringLiteral("url")).toString();
        }
        m_open = true;
        return true;
    }
    if (status == Status::More) {
        m_error = QStringLiteral("%1: holds no capture line in its first %2 MiB of text")
                      .arg(path)
                      .arg(kFirstEntryBudget / (1024 * 1024));
    } else if (!m_reader.errorString().isEmpty()) {
        m_error = m_reader.errorString();
    } else {
        QString why;
        if (m_reader.fileSize() == 0)
            why = QStringLiteral("the file is empty");
        else if (m_reader.malformedLines() > 0)
            why = skippedText();
        else if (m_reader.frameCutShort())
            why = QStringLiteral("cut short, inside a zstd frame");
        else if (m_reader.truncated())
            why = QStringLiteral("cut short, inside its first line");
        else
            why = QStringLiteral("no line at all");
        m_error = QStringLiteral("%1: holds no capture line: %2").arg(path, why);
    }
    m_items.clear();
    return false;
}

QString CaptureWindow::skippedText() const
{
    const quint64 n = m_reader.malformedLines();
    return QStringLiteral("%1 %2 skipped, the first: %3")
        .arg(n)
        .arg(n == 1 ? QStringLiteral("line") : QStringLiteral("lines"))
        .arg(m_reader.firstMalformed());
}

void CaptureWindow::say(const QString &text)
{
    if (!m_said.contains(text)) {
        m_said.insert(text);
        m_problems.append(text);
    }
}

void CaptureWindow::problem(const QString &what)
{
    say(QStringLiteral("%1: %2").arg(m_reader.path(), what));
}

void CaptureWindow::endOfPass()
{
    if (!m_reader.errorString().isEmpty()) // it names the file
        say(m_reader.errorString() + QStringLiteral(": served up to there"));
    if (m_reader.malformedLines() > 0)
        problem(skippedText());
    if (m_reader.frameCutShort())
        problem(QStringLiteral("cut short, inside a zstd frame: served up to its last complete line"));
    else if (m_reader.truncated())
        problem(QStringLiteral("cut short, inside its last line: served up to its last complete line"));
    const bool again = m_loop && m_passMessages > 0;
    m_passMessages = 0;
    if (again && m_reader.rewind()) {
        m_nextStartsPass = true;
        return;
    }
    if (again)
        say(m_reader.errorString()); // it could not go back to its start
    m_ended = true;
}

CaptureWindow::Status CaptureWindow::readNext(qint64 budgetBytes)
{
    capture::CaptureLine line;
    const capture::CaptureReader::Status status = m_reader.read(&line, budgetBytes);
    if (status == capture::CaptureReader::Status::Line) {
        Item item;
        item.entry = CaptureFile::entryFrom(std::move(line));
        item.passStart = std::exchange(m_nextStartsPass, false);
        if (item.entry.kind != CaptureFile::Kind::Event)
            ++m_passMessages;
        m_bytes += item.entry.payload.size() + kItemOverheadBytes;
        m_items.push_back(std::move(item));
        // A client too far behind loses the oldest entries; the newest is always kept.
        while (m_bytes > kMaxWindowBytes && m_items.size() > 1) {
            m_bytes -= m_items.front().entry.payload.size() + kItemOverheadBytes;
            m_items.pop_front();
            ++m_first;
        }
        return Status::Ready;
    }
    if (status == capture::CaptureReader::Status::More)
        return Status::More;
    endOfPass();
    // A new pass goes on in the next call, with a slice of its own.
    return m_ended ? Status::End : Status::More;
}

CaptureWindow::Status CaptureWindow::at(qint64 *index, const Item **item)
{
    if (*index < m_first) {
        if (!m_lagReported) {
            m_lagReported = true;
            problem(QStringLiteral("a client fell more than %1 MiB behind the others: it skipped messages")
                        .arg(kMaxWindowBytes / (1024 * 1024)));
        }
        *index = m_first;
    }
    while (*index >= endIndex()) {
        if (m_ended)
            return Status::End;
        const Status status = readNext(kSliceBytes);
        if (status != Status::Ready)
            return status;
    }
    *item = &m_items[std::size_t(*index - m_first)];
    return Status::Ready;
}

void CaptureWindow::release(qint64 index)
{
    while (!m_items.empty() && m_first < index) {
        m_bytes -= m_items.front().entry.payload.size() + kItemOverheadBytes;
        m_items.pop_front();
        ++m_first;
    }
}

QStringList CaptureWindow::takeProblems()
{
    return std::exchange(m_problems, {});
}

} // namespace streamscope::replay
