#pragma once

// The local order books of one depth stream, one per instrument (docs/books.md), kept on the
// stream's worker by its venue's BookRules (engine/book/BookSync):
//   - every diff event of the venue's type is looked up by its symbol (a book is made at its
//     first diff; at most kMaxBooks a stream, named by InstrumentIndex's rule, so the report's
//     and /metrics' label set stays bounded), its levels read exactly
//     (MessageDecoder::decodeLevels, book/FixedPoint.h) and handed to the instrument's BookSync;
//   - on the tick: the REST snapshots the books ask for and the audits that are due (every
//     "book_audit_s"), fetched from the stream's "rest_url" (else the venue's host mapping)
//     through the worker's network access manager, at most kMaxInFlight at once, within the
//     venue's request weight (a token bucket of BookRules::weightPerMinute), each answer at most
//     kMaxSnapshotBytes and kSnapshotTimeoutMs, no redirects, read by the rules' keys with the
//     venue's own error status (readAnswer); an answer the rules say asks to slow down (429,
//     Binance's 418, Bybit's 403) pauses the stream's requests for its Retry-After
//     (BookRules::pauseSeconds without one, at most kMaxPauseS), and so does a used-weight header at kIpWeightShare of the venue's per-IP limit (other
//     clients on this machine spend it too), until the minute is over; a crossed book's timer; the books'
//     status published to StreamShared when it changed, and an event when a book loses sync or
//     crosses (at most ten of a kind a second, EventThrottle); each side pruned to the
//     snapshot's depth (BookSync::prune);
//   - reset() when the connections went: every book starts over;
//   - copyDepth(): the depth ladder's copy of one book's top levels (book/DepthCopy), on request;
//   - when the stream records (a capture or the flight recorder): each snapshot asked for, each
//     answer handed to a book and each reset as capture events (io/BookEvents.h, written by
//     BookKeeperCapture.cpp), in order with the messages; a capture read back (api/
//     CaptureAnalysis) hands them to a keeper of its own (recordedRequest(), recordedAnswer(),
//     reset()), which rebuilds the same books by the same code.
// One instrument's desync fetches that instrument's snapshot only; the others go on.
// A venue whose snapshot comes in the stream (BookRules::snapshotSource() Stream) fetches no
// snapshot to sync: its snapshot and update messages (BookRules::classify()) go to the instrument's
// BookSync::onStreamMessage() with their ids, checksum and decimal places, and a book that lost
// sync is resubscribed through the venue's handler (setResubscriber(); VenueHandler::
// resubscribeBook), within the book's retry backoff; its audit, where the venue's rules name an
// AuditPoint (Bybit, OKX; BookKeeperAudit.cpp), fetches the venue's REST snapshot
// (BookRules::auditUrl) within the same weight, answer and pause bounds as the REST venues'. A
// venue whose messages carry many instruments' ladders two levels deep (BookRules::ladders(),
// Betfair) hands them to its Ladders (BookLadders.h), which keeps one book per market and runner.
//
// Thread contract: created, used and destroyed on the stream's worker thread. onData() is the
// hot path: a hash lookup by a view of the symbol (no allocation), the levels into a reused
// vector, no lock, no log.

#include "InstrumentIndex.h"
#include "book/BookSync.h"
#include "protocol/MessageDecoder.h"

#include <QtCore/QByteArray>
#include <QtCore/QHash>
#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <QtCore/QUrl>
#include <QtNetwork/QSslConfiguration>

#include <functional>
#include <memory>
#include <vector>

class QNetworkAccessManager;
class QNetworkReply;

namespace streamscope {

class Clock;
class SessionStatus;
class StreamShared;
struct BookDepth;
struct DecodedFields;
struct StreamConfig;

class BookKeeper final : public QObject {
    Q_OBJECT
public:
    static constexpr int kMaxBooks = kMaxInstruments;
    static constexpr int kMaxInFlight = 4;
    static constexpr qint64 kMaxSnapshotBytes = 8 * 1024 * 1024;
    static constexpr int kSnapshotTimeoutMs = 10000;
    static constexpr int kMaxPauseS = 600;
    static constexpr double kIpWeightShare = 0.8;
    // A book whose best prices moved, and nothing else, is published at most this often.
    static constexpr qint64 kPricePublishMs = 250;

    BookKeeper(const StreamConfig &config, const book::BookRules &rules, StreamShared &shared, MessageDecoder &decoder,
               const Clock &clock, SessionStatus &status, QObject *parent = nullptr);
    ~BookKeeper() override;

    // Whether `config` keeps books with `rules` (null: the venue has none): a parsed stream
    // that reads the venue's own fields (no latency_field) and did not say "book": false.
    static bool wanted(const StreamConfig &config, const book::BookRules *rules);

    // The worker's manager (ServerTimeService); without one no snapshot is fetched.
    void setNetwork(QNetworkAccessManager *manager);
    // In-stream venues: asks the venue for a new snapshot of an instrument's book (resubscribes
    // it); false when it cannot (the book then stays desynced and says why).
    using Resubscriber = std::function<bool(const QString &instrument)>;
    void setResubscriber(Resubscriber resubscriber) { m_resubscribe = std::move(resubscriber); }
    // The venue's handler found these instruments' books wrong and has asked for new snapshots
    // (Coinbase: its connection's sequence broke).
    void lostByVenue(const QStringList &instruments, const QString &why);
    // The venue said the depth it keeps an instrument's book at (Kraken's subscribe answer),
    // usually before the book's first message: kept for it (at most kMaxBooks instruments).
    void setDepth(const QString &instrument, int levels);

    // A decoded data message, whole and padded.
    void onData(const DecodedFields &fields, const MessageView &message);
    // The stream's connections went: every book starts over.
    void reset();
    void tick(qint64 nowMs);

    // A capture read back (no network): the recorded request and answer of an instrument's
    // snapshot, at the recorded time. `body` is the answer as received; `error` (the fetch
    // failed) or, without either, the snapshot is missing from the capture.
    void recordedRequest(const QString &instrument, bool audit, qint64 nowMs);
    void recordedAnswer(const QString &instrument, bool audit, const QByteArray &body, const QString &error,
                        qint64 nowMs);

    int bookCount() const { return m_books.size(); }
    // Diff events of instruments beyond kMaxBooks or with names we do not take.
    quint64 untracked() const { return m_untracked; }
    const book::BookSync *book(const QString &instrument) const;
    // The top `levels` of the instrument's book, with how long ago it last changed; false (and
    // `out` left as it is) when the stream keeps no book of that instrument.
    bool copyDepth(const QString &instrument, int levels, qint64 nowMs, BookDepth &out) const;

    // Reads a venue's REST book answer (BookKeeperAudit.cpp): its levels under `keys` and its
    // update id; false with `why` (the peer's text escaped) when the venue's own status says an
    // error (Bybit's retCode/retMsg, OKX's code/msg), it is not JSON, a level does not fit, or
    // the id is missing.
    static bool readAnswer(MessageDecoder &decoder, const book::BookRules &rules, const MessageDecoder::LevelKeys &keys,
                           const QByteArray &body, std::int64_t &id, std::vector<book::LevelChange> &levels,
                           QString &why);

private:
    struct Entry {
        std::unique_ptr<book::BookSync> sync;
        QPointer<QNetworkReply> reply;
        bool replyIsAudit = false;
        BookState reportedState = BookState::Unknown;
        quint64 reportedResyncs = 0;
        quint64 reportedCrossed = 0;
        std::int64_t seenUpdateId = INT64_MIN; // on the last tick
        qint64 changedAtMs = -1;               // the tick that saw the update id move
        book::Fixed publishedBid = 0;          // the best prices as last published
        book::Fixed publishedAsk = 0;
    };
    class LevelReader;
    class Ladders;

    Entry *find(std::string_view symbol);
    Entry *add(std::string_view symbol);
    // One event of a message of several instruments' events (book::LevelKeys::eventSymbol).
    struct EventSlice {
        std::uint32_t begin = 0; // its first level in m_levels
        char symbol[kMaxInstrumentChars] = {};
        std::uint8_t symbolBytes = 0; // 0: none, or too long to be one of ours
        char kind[16] = {};
        std::uint8_t kindBytes = 0;
    };
    void onStreamData(const DecodedFields &fields, const MessageView &message);
    void onEventsData(const DecodedFields &fields, const MessageView &message);
    void tickStream(qint64 nowMs);
    void tickBook(Entry &entry, qint64 nowMs, std::size_t depth);
    void fetch(Entry &entry, bool audit, qint64 nowMs);
    void onReply(Entry *entry, QNetworkReply *reply, bool audit);
    // In-stream books' audits (BookKeeperAudit.cpp).
    void fetchAudits(qint64 nowMs);
    QUrl streamAuditUrl(const Entry &entry, QString &why) const;
    MessageDecoder::LevelKeys answerKeys(const Entry &entry) const;
    // An answer (read, or failed with `why`) handed to the entry's book.
    void applyAnswer(Entry &entry, bool audit, std::int64_t id, const std::vector<book::LevelChange> &levels,
                     const QString &why, qint64 nowMs);
    // The capture events of a request, an answer and a reset, when the stream records (BookKeeperCapture.cpp).
    void recordRequest(const Entry &entry, bool audit);
    void recordAnswer(const Entry &entry, bool audit, const QByteArray &body, std::int64_t id, const QString &why);
    void recordReset();
    Entry *entryFor(const QString &instrument);
    void refill(qint64 nowMs);
    void pauseIfAsked(const QNetworkReply &reply, int status, qint64 nowMs);
    void report(Entry &entry);
    void publish(qint64 nowMs);
    // publish() when a book's figures changed, or only its best prices and kPricePublishMs passed.
    void publishIfDue(qint64 nowMs);

    const StreamConfig &m_config;
    const book::BookRules &m_rules;
    StreamShared &m_shared;
    MessageDecoder &m_decoder;
    const Clock &m_clock;
    SessionStatus &m_status;
    QPointer<QNetworkAccessManager> m_manager;
    QUrl m_restBase;
    QSslConfiguration m_tls;
    MessageDecoder::LevelKeys m_diffKeys;
    MessageDecoder::LevelKeys m_snapshotKeys;

    InstrumentIndex<Entry> m_books;
    std::vector<book::LevelChange> m_levels; // the current diff's, reused
    std::vector<EventSlice> m_events;        // the current message's events, reused
    QHash<QString, int> m_depths;            // the depths the venue said (setDepth)
    quint64 m_untracked = 0;
    bool m_dirty = true;
    bool m_pricesMoved = false;
    qint64 m_publishedAtMs = 0;

    double m_weight = 0.0; // request weight available now
    qint64 m_weightAtMs = -1;
    qint64 m_pausedUntilMs = 0; // the venue said to wait (429/418 Retry-After, or its IP weight nearly spent)
    std::string_view m_diffType;
    const bool m_inStream;
    const bool m_checksummed;
    const int m_kindSlot;
    const bool m_multiEvent; // every event of a message its own instrument's (Coinbase)
    Resubscriber m_resubscribe;
    std::unique_ptr<Ladders> m_ladders; // a venue of nested ladders
    int m_inFlight = 0;
    qint64 m_auditPeriodMs = 0;
};

} // namespace streamscope
