// BookKeeper's in-stream half (BookKeeper.h): the books of a venue whose snapshot comes in the
// stream (Bybit, OKX, Kraken, Coinbase), their messages to BookSync::onStreamMessage, a book
// that lost sync resubscribed through the venue's handler, the books a handler reports lost.

#include "BookKeeper.h"
#include "BookLevelReader.h"
#include "Clock.h"
#include "protocol/DecodedFields.h"

#include <algorithm>
#include <cstring>

namespace streamscope {

using book::BookSync;

void BookKeeper::onStreamData(const DecodedFields &fields, const MessageView &message)
{
    if (m_multiEvent) {
        onEventsData(fields, message);
        return;
    }
    const book::DiffIds ids{fields.firstUpdateId, fields.finalUpdateId, fields.prevFinalUpdateId};
    const std::string_view kind = m_kindSlot >= 0 && std::size_t(m_kindSlot) < DecodedFields::kTexts
        ? fields.texts[std::size_t(m_kindSlot)]
        : std::string_view();
    const book::BookMessage what = m_rules.classify(fields.eventType, kind, ids);
    if (what == book::BookMessage::None || fields.symbol.empty())
        return;
    Entry *e = find(fields.symbol);
    if (!e && !(e = add(fields.symbol))) {
        ++m_untracked;
        return;
    }
    // The decoder's views of unescaped text do not outlive its next pass (decodeLevels): the
    // event type a snapshot's depth is read from is copied first.
    char typeCopy[64];
    const std::size_t typeBytes = std::min(sizeof typeCopy, fields.eventType.size());
    std::memcpy(typeCopy, fields.eventType.data(), typeBytes);
    m_levels.clear();
    LevelReader reader(m_levels, m_checksummed);
    if (!m_decoder.decodeLevels(message, m_diffKeys, reader)) {
        const QString why = reader.refused().isEmpty()
            ? QStringLiteral("the message's levels could not be read: ") + m_decoder.lastError()
            : reader.refused();
        e->sync->onUnreadableDiff(why);
        m_dirty = true;
        return;
    }
    book::StreamMessage m;
    m.ids = ids;
    m.eventType = std::string_view(typeCopy, typeBytes);
    m.snapshot = what == book::BookMessage::Snapshot;
    m.hasChecksum = reader.hasChecksum();
    m.checksum = reader.checksumValue();
    m.priceDecimals = reader.priceDecimals();
    m.qtyDecimals = reader.qtyDecimals();
    if (reader.hasId())
        m.auditKey = reader.id(); // the rules' diffKeys().updateId (Bybit's seq, OKX's ts)
    e->sync->onStreamMessage(m, m_levels.data(), m_levels.size());
    m_dirty = true;
}

// A message whose every event is an instrument's own (Coinbase): each to its book.
void BookKeeper::onEventsData(const DecodedFields &fields, const MessageView &message)
{
    const book::DiffIds ids{fields.firstUpdateId, fields.finalUpdateId, fields.prevFinalUpdateId};
    const std::string_view firstKind = m_kindSlot >= 0 && std::size_t(m_kindSlot) < DecodedFields::kTexts
        ? fields.texts[std::size_t(m_kindSlot)]
        : std::string_view();
    if (m_rules.classify(fields.eventType, firstKind, ids) == book::BookMessage::None)
        return; // another channel's
    char typeCopy[64];
    const std::size_t typeBytes = std::min(sizeof typeCopy, fields.eventType.size());
    std::memcpy(typeCopy, fields.eventType.data(), typeBytes);
    const std::string_view type(typeCopy, typeBytes);
    Entry *first = fields.symbol.empty() ? nullptr : find(fields.symbol);
    m_levels.clear();
    m_events.clear();
    LevelReader reader(m_levels, m_checksummed, &m_events);
    if (!m_decoder.decodeLevels(message, m_diffKeys, reader)) {
        // Which event was unreadable is not known: the first product's book cannot follow.
        if (first) {
            first->sync->onUnreadableDiff(reader.refused().isEmpty()
                                              ? QStringLiteral("the message's levels could not be read: ")
                                                  + m_decoder.lastError()
                                              : reader.refused());
            m_dirty = true;
        }
        return;
    }
    for (std::size_t i = 0; i < m_events.size(); ++i) {
        const EventSlice &slice = m_events[i];
        const std::string_view symbol(slice.symbol, slice.symbolBytes);
        const book::BookMessage what = m_rules.classify(type, std::string_view(slice.kind, slice.kindBytes), ids);
        if (what == book::BookMessage::None || symbol.empty())
            continue;
        Entry *e = find(symbol);
        if (!e && !(e = add(symbol))) {
            ++m_untracked;
            continue;
        }
        const std::size_t end = i + 1 < m_events.size() ? m_events[i + 1].begin : m_levels.size();
        book::StreamMessage m;
        m.ids = ids;
        m.eventType = type;
        m.snapshot = what == book::BookMessage::Snapshot;
        e->sync->onStreamMessage(m, m_levels.data() + slice.begin, end - slice.begin);
        m_dirty = true;
    }
}

void BookKeeper::lostByVenue(const QStringList &instruments, const QString &why)
{
    const qint64 nowMs = m_clock.monotonicMs();
    for (const QString &instrument : instruments) {
        const QByteArray key = instrument.toUtf8();
        Entry *e = find(std::string_view(key.constData(), std::size_t(key.size())));
        if (!e)
            continue;
        e->sync->lostByVenue(why, nowMs);
        report(*e);
        m_dirty = true;
    }
}

void BookKeeper::setDepth(const QString &instrument, int levels)
{
    if (levels <= 0 || instrument.size() > kMaxInstrumentChars
        || (m_depths.size() >= kMaxBooks && !m_depths.contains(instrument)))
        return;
    m_depths.insert(instrument, levels);
    const QByteArray key = instrument.toUtf8();
    if (Entry *e = find(std::string_view(key.constData(), std::size_t(key.size()))))
        e->sync->setDepth(std::size_t(levels));
}

// In-stream books: a book that lost sync is resubscribed (the venue then sends its snapshot).
void BookKeeper::tickStream(qint64 nowMs)
{
    for (const auto &item : m_books.items()) {
        BookSync &sync = *item->value.sync;
        if (!sync.wantsSnapshot(nowMs))
            continue;
        sync.snapshotRequested(nowMs);
        if (!m_resubscribe || !m_resubscribe(sync.instrument()))
            sync.onSnapshotFailed(QStringLiteral("the venue's handler cannot resubscribe the book"), nowMs);
        m_dirty = true;
    }
    for (const auto &item : m_books.items())
        tickBook(item->value, nowMs, item->value.sync->streamDepth());
    if (m_auditPeriodMs > 0)
        fetchAudits(nowMs);
    publishIfDue(nowMs);
}

} // namespace streamscope
