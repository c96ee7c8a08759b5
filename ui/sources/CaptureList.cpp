#include "CaptureList.h"

#include "Format.h"
#include "PeerText.h"

#include <QtCore/QDateTime>
#include <QtCore/QFileInfo>
#include <QtCore/QThread>

namespace streamscope::ui {

CaptureList::CaptureList(QObject *parent)
    : QObject(parent)
{
}

CaptureList::~CaptureList()
{
    for (const Load &l : std::as_const(m_loads))
        l.cancel->store(true);
    for (const Load &l : std::as_const(m_loads)) {
        l.thread->wait();
        delete l.thread;
    }
}

void CaptureList::open(const QString &path)
{
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    QThread *thread = QThread::create([this, path, cancel] {
        CaptureAnalysisOptions options;
        options.cancel = cancel.get();
        options.progress = [this, path, cancel](int percent) {
            if (cancel->load())
                return;
            // Queued to the GUI thread; dropped if the list is gone by then.
            QMetaObject::invokeMethod(
                this, [this, path, percent] { emit progress(path, percent); }, Qt::QueuedConnection);
        };
        auto result = std::make_shared<CaptureAnalysis>(analyzeCapture(path, options));
        if (cancel->load())
            return;
        QThread *me = QThread::currentThread();
        QMetaObject::invokeMethod(
            this, [this, me, result] { finished(me, result); }, Qt::QueuedConnection);
    });
    m_loads.append({path, thread, cancel});
    thread->start();
}

void CaptureList::finished(QThread *thread, const std::shared_ptr<CaptureAnalysis> &result)
{
    for (qsizetype i = 0; i < m_loads.size(); ++i) {
        if (m_loads[i].thread == thread) {
            thread->wait();
            delete thread;
            m_loads.removeAt(i);
            break;
        }
    }
    if (!result->ok) {
        emit failed(result->path, result->error);
        return;
    }
    Capture c;
    c.id = m_nextId++;
    c.snap = snapshotOf(*result, c.id);
    c.data = result;
    m_captures.append(c);
    emit opened(c.id);
}

bool CaptureList::close(StreamId id)
{
    for (qsizetype i = 0; i < m_captures.size(); ++i) {
        if (m_captures[i].id == id) {
            m_captures.removeAt(i);
            return true;
        }
    }
    return false;
}

const CaptureList::Capture *CaptureList::find(StreamId id) const
{
    for (const Capture &c : m_captures)
        if (c.id == id)
            return &c;
    return nullptr;
}

QVector<StreamSnapshot> CaptureList::snapshots() const
{
    QVector<StreamSnapshot> out;
    out.reserve(m_captures.size());
    for (const Capture &c : m_captures)
        out.append(c.snap);
    return out;
}

StreamSnapshot CaptureList::snapshotOf(const CaptureAnalysis &a, StreamId id)
{
    StreamSnapshot s;
    s.id = id;
    s.name = peerText(a.stream, 200) + tr(" (capture)");
    s.url = a.url;
    s.venue = a.venue;
    s.mode = a.mode == QLatin1String("raw") ? DecodeMode::Raw : DecodeMode::Parsed;
    s.state = StreamState::Stopped; // never runs: Start, Stop and Record do not apply
    s.stateReason = summary(a);
    s.stateSinceMs = a.lastUs / 1000;
    s.takenAtNs = 1; // one sample forever: the table's own rate is 0, the capture's is set apart
    s.messages = a.messages;
    s.dataMessages = a.messages;
    s.bytes = a.bytes;
    s.parseErrors = a.parseErrors;
    s.gaps = a.gaps;
    s.reconnects = a.reconnects;
    s.lastMessageMs = a.lastUs / 1000;
    s.lastDataMs = a.lastUs / 1000;
    s.latency = a.latency;
    s.books = a.books; // rebuilt from the capture (the Book column, Details)
    return s;
}

QString CaptureList::summary(const CaptureAnalysis &a)
{
    QStringList parts;
    parts << tr("capture %1").arg(QFileInfo(a.path).fileName());
    parts << tr("%1 to %2 UTC (%3 s)")
                 .arg(QDateTime::fromMSecsSinceEpoch(a.firstUs / 1000, Qt::UTC)
                          .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")),
                      QDateTime::fromMSecsSinceEpoch(a.lastUs / 1000, Qt::UTC).toString(QStringLiteral("HH:mm:ss")),
                      QString::number(a.spanSeconds(), 'f', 1));
    parts << tr("%1 messages, %2 events")
                 .arg(formatCount(a.messages), formatCount(quint64(a.events.size()) + a.eventsLeftOut));
    if (a.truncated)
        parts << tr("cut short: read up to its last complete block");
    if (a.malformedLines > 0)
        parts << tr("%1 malformed lines skipped (first: %2)")
                     .arg(formatCount(a.malformedLines), peerText(a.firstMalformed, 200));
    if (a.messagesLeftOut > 0)
        parts << tr("the inspector holds the last %1; the first %2 are left out")
                     .arg(formatCount(quint64(a.lastMessages.size())), formatCount(a.messagesLeftOut));
    if (a.eventsLeftOut > 0)
        parts << tr("%1 events past the first %2 left out of the event log")
                     .arg(formatCount(a.eventsLeftOut), formatCount(quint64(a.events.size())));
    if (!a.error.isEmpty())
        parts << tr("reading stopped: %1").arg(peerText(a.error, 300));
    return parts.join(QStringLiteral("; "));
}

} // namespace streamscope::ui
