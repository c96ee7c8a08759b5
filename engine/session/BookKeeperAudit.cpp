// BookKeeper's REST answers and the audits of in-stream books (BookKeeper.h): a venue's answer
// read by its rules' keys, its own error status refused with its text escaped; the audits that
// are due fetched within the stream's request weight.

#include "BookKeeper.h"
#include "BookLevelReader.h"
#include "SessionStatus.h"
#include "model/PeerText.h"
#include "model/StreamConfig.h"

#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>

namespace streamscope {

bool BookKeeper::readAnswer(MessageDecoder &decoder, const book::BookRules &rules,
                            const MessageDecoder::LevelKeys &keys, const QByteArray &body, std::int64_t &id,
                            std::vector<book::LevelChange> &levels, QString &why)
{
    ReceiveBuffer buffer; // one answer at a time; freed after
    const MessageView view = buffer.copy(body.constData(), body.size());
    LevelReader reader(levels);
    const bool read = decoder.decodeLevels(view, keys, reader);
    // The venue's own status first: an error answer has no levels to speak of.
    if (!reader.errorCode().empty() && !rules.answerOk(reader.errorCode())) {
        why = QStringLiteral("the venue's error %1: %2")
                  .arg(peerText(QByteArrayView(reader.errorCode().data(), qsizetype(reader.errorCode().size())),
                                LevelReader::kQuotedChars),
                       reader.errorMessage());
        return false;
    }
    if (!read) {
        why = reader.refused().isEmpty() ? decoder.lastError() : reader.refused();
        return false;
    }
    if (!reader.hasId()) {
        why = QStringLiteral("no \"%1\" in the answer: %2")
                  .arg(QLatin1String(keys.updateId.data(), qsizetype(keys.updateId.size())),
                       peerText(body, LevelReader::kQuotedChars));
        return false;
    }
    id = reader.id();
    return true;
}

MessageDecoder::LevelKeys BookKeeper::answerKeys(const Entry &e) const
{
    if (!m_inStream)
        return m_snapshotKeys;
    return bookDecoderKeys(m_rules.auditKeys(m_rules.auditPoint(e.sync->streamDepth())));
}

QUrl BookKeeper::streamAuditUrl(const Entry &e, QString &why) const
{
    return m_rules.auditUrl(m_restBase, m_config.url, e.sync->instrument(), e.sync->streamDepth(), why);
}

// The in-stream books' audits that are due, within the weight and the requests in flight. A
// book whose audit cannot be asked (the stream's URL does not say what the request needs) says
// why in an event and is tried again a period later.
void BookKeeper::fetchAudits(qint64 nowMs)
{
    refill(nowMs);
    const double weight = m_rules.snapshotWeight();
    for (const auto &item : m_books.items()) {
        if (m_inFlight >= kMaxInFlight || m_weight < weight || !m_manager || nowMs < m_pausedUntilMs)
            break;
        Entry &e = item->value;
        if (e.reply || !e.sync->auditDue(nowMs, m_auditPeriodMs))
            continue;
        QString why;
        if (streamAuditUrl(e, why).isEmpty()) {
            e.sync->auditRequested(nowMs);
            e.sync->onAuditFailed();
            if (m_status.allow(EventKind::Info))
                m_status.emitEvent(EventKind::Info,
                                   QStringLiteral("book %1: no audit: %2").arg(e.sync->instrument(), why));
            continue;
        }
        fetch(e, true, nowMs);
    }
}

} // namespace streamscope
