#include "BookKeeper.h"

#include "BookLadders.h"
#include "BookLevelReader.h"
#include "Clock.h"
#include "SessionStatus.h"
#include "book/DepthCopy.h"
#include "model/PeerText.h"
#include "model/RedactedUrl.h"
#include "model/StreamConfig.h"
#include "platform/TlsConfiguration.h"
#include "protocol/DecodedFields.h"
#include "stats/StreamShared.h"
#include "transport/BoundedGet.h"

#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>
#include <QtNetwork/QNetworkRequest>

#include <algorithm>
#include <cstring>

namespace streamscope {

using book::BookSync;
using book::Fixed;
using book::LevelChange;
using book::Side;

BookKeeper::BookKeeper(const StreamConfig &config, const book::BookRules &rules, StreamShared &shared,
                       MessageDecoder &decoder, const Clock &clock, SessionStatus &status, QObject *parent)
    : QObject(parent)
    , m_config(config)
    , m_rules(rules)
    , m_shared(shared)
    , m_decoder(decoder)
    , m_clock(clock)
    , m_status(status)
    , m_restBase(config.restUrl.isEmpty() ? rules.defaultRestBase(config.url) : config.restUrl)
    , m_diffKeys(bookDecoderKeys(rules.diffKeys()))
    , m_snapshotKeys(bookDecoderKeys(rules.snapshotKeys()))
    , m_weight(rules.weightPerMinute())
    , m_diffType(rules.diffEventType())
    , m_inStream(rules.snapshotSource() == book::SnapshotSource::Stream)
    , m_checksummed(rules.checksummed())
    , m_kindSlot(rules.kindSlot())
    , m_multiEvent(!rules.diffKeys().eventSymbol.empty())
    , m_auditPeriodMs(qint64(config.bookAuditS) * 1000)
{
    QString tlsError;
    m_tls = tlsConfiguration(config, &tlsError); // a bad CA file fails the stream's own connection first
    if (const book::LadderLayout *ladders = rules.ladders())
        m_ladders = std::make_unique<Ladders>(*this, *ladders);
}

BookKeeper::~BookKeeper()
{
    for (const auto &item : m_books.items()) {
        if (QNetworkReply *r = item->value.reply) {
            r->disconnect(this);
            r->abort();
            r->deleteLater();
        }
    }
}

void BookKeeper::setNetwork(QNetworkAccessManager *manager)
{
    m_manager = manager;
}

bool BookKeeper::wanted(const StreamConfig &config, const book::BookRules *rules)
{
    return rules && config.book && config.mode == DecodeMode::Parsed && config.latencyField.isEmpty();
}

const BookSync *BookKeeper::book(const QString &instrument) const
{
    const auto *item = m_books.find(instrument.toUtf8());
    return item ? item->value.sync.get() : nullptr;
}

bool BookKeeper::copyDepth(const QString &instrument, int levels, qint64 nowMs, BookDepth &out) const
{
    const auto *item = m_books.find(instrument.toUtf8());
    if (!item)
        return false;
    const Entry &e = item->value;
    book::copyDepth(*e.sync, levels, out);
    out.ageMs = e.changedAtMs < 0 ? -1 : std::max<qint64>(0, nowMs - e.changedAtMs);
    return true;
}

BookKeeper::Entry *BookKeeper::find(std::string_view symbol)
{
    auto *item = m_books.find(symbol);
    return item ? &item->value : nullptr;
}

BookKeeper::Entry *BookKeeper::add(std::string_view symbol)
{
    auto *item = m_books.add(symbol);
    if (!item)
        return nullptr;
    // The scratch of a diff's levels, with the first book: a stream that keeps none (its
    // messages are trades, say) does not carry 96 KiB for it.
    if (m_levels.capacity() == 0) {
        m_levels.reserve(4096);
        m_events.reserve(16);
    }
    item->value.sync = std::make_unique<BookSync>(m_rules, QString::fromLatin1(item->key));
    if (const int depth = m_depths.value(item->value.sync->instrument()); depth > 0)
        item->value.sync->setDepth(std::size_t(depth));
    m_dirty = true;
    return &item->value;
}

void BookKeeper::onData(const DecodedFields &fields, const MessageView &message)
{
    if (m_ladders) {
        m_ladders->onData(fields, message);
        return;
    }
    if (m_inStream) {
        onStreamData(fields, message);
        return;
    }
    if (fields.eventType != m_diffType || fields.symbol.empty())
        return;
    Entry *e = find(fields.symbol);
    if (!e && !(e = add(fields.symbol))) {
        ++m_untracked;
        return;
    }
    m_levels.clear();
    LevelReader reader(m_levels);
    if (!m_decoder.decodeLevels(message, m_diffKeys, reader)) {
        e->sync->onUnreadableDiff(reader.refused().isEmpty()
                                      ? QStringLiteral("the diff's levels could not be read: ") + m_decoder.lastError()
                                      : reader.refused());
        m_dirty = true;
        return;
    }
    e->sync->onDiff(book::DiffIds{fields.firstUpdateId, fields.finalUpdateId, fields.prevFinalUpdateId},
                    m_levels.data(), m_levels.size());
    m_dirty = true;
}

void BookKeeper::reset()
{
    if (m_ladders) { // the venue resumes the ladders on the next connection (BookLadders.h)
        m_ladders->connectionLost();
        m_dirty = true;
        return;
    }
    recordReset();
    for (const auto &item : m_books.items()) {
        Entry &e = item->value;
        if (QNetworkReply *r = e.reply) {
            r->disconnect(this);
            r->abort();
            r->deleteLater();
            e.reply = nullptr;
        }
        e.sync->reset();
    }
    m_inFlight = 0;
    m_dirty = true;
}

void BookKeeper::refill(qint64 nowMs)
{
    const double cap = m_rules.weightPerMinute();
    if (m_weightAtMs >= 0)
        m_weight = std::min(cap, m_weight + double(nowMs - m_weightAtMs) * cap / 60000.0);
    m_weightAtMs = nowMs;
}

void BookKeeper::tick(qint64 nowMs)
{
    if (m_inStream) {
        tickStream(nowMs);
        return;
    }
    refill(nowMs);
    const double weight = m_rules.snapshotWeight();
    // Syncs first, then audits; both within the weight and the requests in flight.
    for (int pass = 0; pass < 2; ++pass) {
        for (const auto &item : m_books.items()) {
            if (m_inFlight >= kMaxInFlight || m_weight < weight || !m_manager || nowMs < m_pausedUntilMs)
                break;
            Entry &e = item->value;
            if (e.reply)
                continue;
            if (pass == 0 && e.sync->wantsSnapshot(nowMs))
                fetch(e, false, nowMs);
            else if (pass == 1 && e.sync->auditDue(nowMs, m_auditPeriodMs))
                fetch(e, true, nowMs);
        }
    }
    const auto depth = std::size_t(m_rules.snapshotDepth());
    for (const auto &item : m_books.items())
        tickBook(item->value, nowMs, depth);
    publishIfDue(nowMs);
}

// One book's housekeeping: its timers, the cut to `depth`, the time its update id last moved
// (the depth ladder's age), its figures.
void BookKeeper::tickBook(Entry &e, qint64 nowMs, std::size_t depth)
{
    e.sync->tick(nowMs);
    e.sync->prune(depth);
    if (const std::int64_t id = e.sync->updateId(); id != e.seenUpdateId) {
        e.seenUpdateId = id;
        e.changedAtMs = nowMs;
    }
    report(e);
    if (e.sync->takeChanged())
        m_dirty = true;
    const auto bid = e.sync->book().best(Side::Bid);
    const auto ask = e.sync->book().best(Side::Ask);
    const book::Fixed bidPrice = bid ? bid->price : 0;
    const book::Fixed askPrice = ask ? ask->price : 0;
    if (bidPrice != e.publishedBid || askPrice != e.publishedAsk) {
        e.publishedBid = bidPrice;
        e.publishedAsk = askPrice;
        m_pricesMoved = true;
    }
}

void BookKeeper::fetch(Entry &e, bool audit, qint64 nowMs)
{
    QString unused;
    const QUrl url = m_inStream ? streamAuditUrl(e, unused) : m_rules.snapshotUrl(m_restBase, e.sync->instrument());
    m_weight -= m_rules.snapshotWeight();
    ++m_inFlight;
    if (audit)
        e.sync->auditRequested(nowMs);
    else
        e.sync->snapshotRequested(nowMs);
    recordRequest(e, audit);
    QNetworkReply *reply =
        boundedget::send(*m_manager, boundedget::request(url, kSnapshotTimeoutMs, m_tls), kMaxSnapshotBytes);
    e.reply = reply;
    e.replyIsAudit = audit;
    Entry *entry = &e;
    connect(reply, &QNetworkReply::finished, this, [this, entry, reply, audit] { onReply(entry, reply, audit); });
}

void BookKeeper::onReply(Entry *e, QNetworkReply *reply, bool audit)
{
    reply->deleteLater();
    if (e->reply != reply)
        return; // reset() let it go
    e->reply = nullptr;
    --m_inFlight;
    const qint64 nowMs = m_clock.monotonicMs();
    QString why;
    std::int64_t id = 0;
    std::vector<LevelChange> levels;
    const QByteArray body = reply->read(kMaxSnapshotBytes + 1);
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    pauseIfAsked(*reply, status, nowMs);
    if (body.size() > kMaxSnapshotBytes || reply->bytesAvailable() > 0)
        why = QStringLiteral("answer over %1 MiB").arg(kMaxSnapshotBytes / (1024 * 1024));
    else if (reply->error() != QNetworkReply::NoError && status == 0)
        why = peerText(RedactedUrl::replaceIn(reply->errorString(), reply->url()), LevelReader::kQuotedChars * 2);
    else if (status != 200)
        why = QStringLiteral("HTTP status %1: %2").arg(status).arg(peerText(body, LevelReader::kQuotedChars));
    else if (readAnswer(m_decoder, m_rules, answerKeys(*e), body, id, levels, why))
        why.clear();
    recordAnswer(*e, audit, body, id, why);
    applyAnswer(*e, audit, id, levels, why, nowMs);
}

void BookKeeper::applyAnswer(Entry &e, bool audit, std::int64_t id, const std::vector<LevelChange> &levels,
                             const QString &why, qint64 nowMs)
{
    const bool ok = why.isEmpty();
    if (audit) {
        if (ok)
            e.sync->onAuditSnapshot(id, levels);
        else
            e.sync->onAuditFailed();
        if (!ok && m_status.allow(EventKind::Info))
            m_status.emitEvent(EventKind::Info,
                               QStringLiteral("book %1: audit snapshot failed: %2").arg(e.sync->instrument(), why));
    } else if (ok) {
        e.sync->onSnapshot(id, levels, nowMs);
    } else {
        e.sync->onSnapshotFailed(why, nowMs);
    }
    report(e);
    m_dirty = true;
}

// The venue's word on its request weight: the answers its rules say ask to slow down
// (BookRules::pauseSeconds: 429 too many requests, Binance's 418 banned for having gone on,
// Bybit's 403 access too frequent) with Retry-After, and the weight this machine's IP used in
// the last minute.
void BookKeeper::pauseIfAsked(const QNetworkReply &reply, int status, qint64 nowMs)
{
    if (const int defaultPauseS = m_rules.pauseSeconds(status)) {
        bool ok = false;
        const qint64 seconds = reply.rawHeader(QByteArrayLiteral("Retry-After")).trimmed().toLongLong(&ok);
        const qint64 pauseS = ok && seconds > 0 ? std::min<qint64>(seconds, kMaxPauseS) : defaultPauseS;
        m_pausedUntilMs = std::max(m_pausedUntilMs, nowMs + pauseS * 1000);
        if (m_status.allow(EventKind::Info))
            m_status.emitEvent(
                EventKind::Info,
                QStringLiteral("order-book snapshots paused for %1 s: the venue answered %2").arg(pauseS).arg(status));
        return;
    }
    const QByteArray header = m_rules.usedWeightHeader();
    const int limit = m_rules.ipWeightPerMinute();
    if (header.isEmpty() || limit <= 0)
        return;
    bool ok = false;
    const qint64 used = reply.rawHeader(header).trimmed().toLongLong(&ok);
    if (ok && used >= qint64(kIpWeightShare * limit)) {
        // Until the venue's minute is over; its boundaries are not known here: a whole minute.
        m_pausedUntilMs = std::max(m_pausedUntilMs, nowMs + 60'000);
        m_weight = 0;
    }
}

// An event when a book loses sync or crosses (rare; throttled).
void BookKeeper::report(Entry &e)
{
    const BookStatus &s = e.sync->status();
    if (s.resyncs > e.reportedResyncs && m_status.allow(EventKind::Gap))
        m_status.emitEvent(EventKind::Gap,
                           QStringLiteral("book %1 lost sync, resyncing: %2").arg(s.instrument, s.lastResyncReason));
    if (s.crossedEpisodes > e.reportedCrossed && m_status.allow(EventKind::Info)) {
        const auto bid = e.sync->book().best(Side::Bid);
        const auto ask = e.sync->book().best(Side::Ask);
        m_status.emitEvent(EventKind::Info,
                           QStringLiteral("book %1 crossed: best bid %2 ≥ best ask %3")
                               .arg(s.instrument, bid ? book::fixedText(bid->price) : QStringLiteral("none"),
                                    ask ? book::fixedText(ask->price) : QStringLiteral("none")));
    }
    if (s.state == BookState::Synced && e.reportedState != BookState::Synced && e.reportedState != BookState::Crossed
        && s.resyncs > 0 && m_status.allow(EventKind::Info))
        m_status.emitEvent(EventKind::Info,
                           QStringLiteral("book %1 synced again in %2 ms").arg(s.instrument).arg(s.timeToSyncMs));
    e.reportedResyncs = s.resyncs;
    e.reportedCrossed = s.crossedEpisodes;
    e.reportedState = s.state;
}

void BookKeeper::publishIfDue(qint64 nowMs)
{
    if (m_dirty || (m_pricesMoved && nowMs - m_publishedAtMs >= kPricePublishMs))
        publish(nowMs);
}

void BookKeeper::publish(qint64 nowMs)
{
    QVector<BookStatus> list;
    list.reserve(m_books.size());
    for (const auto &item : m_books.items())
        list.append(item->value.sync->status());
    m_shared.setBooks(std::move(list));
    m_dirty = false;
    m_pricesMoved = false;
    m_publishedAtMs = nowMs;
}

} // namespace streamscope
