// BookKeeper's capture half (BookKeeper.h): what a book fetched over REST was built from, as
// capture events in order with the messages (io/BookEvents.h), and the same events handed back
// to a keeper that rebuilds the books from a capture (api/CaptureAnalysis).

#include "BookKeeper.h"
#include "SessionStatus.h"
#include "io/BookEvents.h"

namespace streamscope {

void BookKeeper::recordRequest(const Entry &e, bool audit)
{
    if (m_status.recording())
        m_status.recordJson(capture::bookRequestJson(e.sync->instrument(), audit));
}

// The answer as received (at most kMaxSnapshotBytes, or the failure that says it was larger);
// an answer longer than a capture event may be (a quarter of the recorder's buffer) is recorded
// without its body, and a book rebuilt from the capture then waits for the next one.
void BookKeeper::recordAnswer(const Entry &e, bool audit, const QByteArray &body, std::int64_t id, const QString &why)
{
    if (!m_status.recording())
        return;
    capture::BookSnapshotEvent event;
    event.instrument = e.sync->instrument();
    event.audit = audit;
    const qsizetype limit = m_status.recordLimit();
    if (!why.isEmpty()) {
        event.error = why;
    } else {
        event.lastUpdateId = id;
        event.body = body;
        // Every byte checked (the snapshot's own reading skipped what it does not use), so that
        // the capture's line is JSON whatever the venue sent: 0.3 ms for 5,000 levels a side.
        ReceiveBuffer buffer;
        if (body.size() < limit && !MessageDecoder::isJsonObject(buffer.copy(body.constData(), body.size())))
            event.omitted = QStringLiteral("not a JSON object");
    }
    m_status.recordJson(capture::bookSnapshotJson(event, limit));
}

void BookKeeper::recordReset()
{
    if (m_books.size() > 0 && m_status.recording())
        m_status.record(QString::fromLatin1(capture::kBookResetEvent), {});
}

BookKeeper::Entry *BookKeeper::entryFor(const QString &instrument)
{
    const QByteArray key = instrument.toUtf8();
    const std::string_view symbol(key.constData(), std::size_t(key.size()));
    Entry *e = find(symbol);
    return e ? e : add(symbol);
}

void BookKeeper::recordedRequest(const QString &instrument, bool audit, qint64 nowMs)
{
    Entry *e = entryFor(instrument);
    if (!e)
        return;
    if (audit)
        e->sync->auditRequested(nowMs);
    else
        e->sync->snapshotRequested(nowMs);
    m_dirty = true;
}

void BookKeeper::recordedAnswer(const QString &instrument, bool audit, const QByteArray &body, const QString &error,
                                qint64 nowMs)
{
    Entry *e = entryFor(instrument);
    if (!e)
        return;
    QString why = error;
    std::int64_t id = 0;
    std::vector<book::LevelChange> levels;
    if (why.isEmpty() && body.size() > kMaxSnapshotBytes) // as a live answer's (the file may come from anyone)
        why = QStringLiteral("answer over %1 MiB").arg(kMaxSnapshotBytes / (1024 * 1024));
    else if (why.isEmpty() && readAnswer(m_decoder, m_rules, answerKeys(*e), body, id, levels, why))
        why.clear();
    applyAnswer(*e, audit, id, levels, why, nowMs);
}

} // namespace streamscope
