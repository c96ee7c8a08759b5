#include "BookReport.h"

#include "MetricsText.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonValue>

#include <algorithm>
#include <cmath>
#include <optional>

namespace streamscope::app {

namespace {

double round4(double v)
{
    return std::round(v * 10000.0) / 10000.0;
}

constexpr BookState kStates[] = {BookState::Syncing, BookState::Synced, BookState::Resyncing, BookState::Desynced,
                                 BookState::Crossed};

} // namespace

void addBookFields(QJsonObject &o, const StreamSnapshot &s)
{
    const QJsonValue null(QJsonValue::Null);
    QJsonArray books;
    for (const BookStatus &b : s.books) {
        books.append(
            QJsonObject{{QStringLiteral("instrument"), b.instrument},
                        {QStringLiteral("state"), QLatin1String(bookStateName(b.state))},
                        {QStringLiteral("resyncs"), qint64(b.resyncs)},
                        {QStringLiteral("checksum_failures"), qint64(b.checksumFailures)},
                        {QStringLiteral("crossed_episodes"), qint64(b.crossedEpisodes)},
                        {QStringLiteral("audits"), qint64(b.audits)},
                        {QStringLiteral("audit_mismatches"), qint64(b.auditMismatches)},
                        {QStringLiteral("last_audit_match_ratio"),
                         b.lastAuditMatchRatio >= 0 ? QJsonValue(round4(b.lastAuditMatchRatio)) : null},
                        {QStringLiteral("min_audit_match_ratio"),
                         b.minAuditMatchRatio >= 0 ? QJsonValue(round4(b.minAuditMatchRatio)) : null},
                        {QStringLiteral("stale_levels"), b.staleLevels},
                        {QStringLiteral("bid_levels"), b.bidLevels},
                        {QStringLiteral("ask_levels"), b.askLevels},
                        {QStringLiteral("time_to_sync_ms"), b.timeToSyncMs >= 0 ? QJsonValue(b.timeToSyncMs) : null},
                        {QStringLiteral("last_resync_reason"), b.lastResyncReason}});
    }
    o.insert(QStringLiteral("books"), books);
}

void appendBookMetrics(QByteArray &out, const QVector<StreamSnapshot> &streams, const QList<QByteArray> &names,
                       bool classic)
{
    const bool any =
        std::any_of(streams.begin(), streams.end(), [](const StreamSnapshot &s) { return !s.books.isEmpty(); });
    if (!any)
        return;
    // One sample per book of every stream: `value` gives it, or nothing.
    const auto samples = [&](const QByteArray &sample, auto value) {
        for (qsizetype i = 0; i < streams.size(); ++i) {
            for (const BookStatus &b : streams[i].books) {
                const std::optional<double> v = value(b);
                if (!v)
                    continue;
                out += sample + "{stream=\"" + names[i] + "\",instrument=\"" + labelValue(b.instrument) + "\"} "
                    + metricNumber(*v) + '\n';
            }
        }
    };
    const QByteArray state = QByteArrayLiteral("streamscope_book_state");
    appendFamily(out, state, classic ? "gauge" : "stateset", "State of each order book (docs/books.md).");
    for (qsizetype i = 0; i < streams.size(); ++i) {
        for (const BookStatus &b : streams[i].books) {
            const QByteArray labels = "stream=\"" + names[i] + "\",instrument=\"" + labelValue(b.instrument) + '"';
            for (BookState st : kStates)
                out += state + '{' + labels + ",streamscope_book_state=\"" + bookStateName(st) + "\"} "
                    + (b.state == st ? "1" : "0") + '\n';
        }
    }
    const auto counter = [&](const char *name, const char *help, quint64 BookStatus::*field) {
        const QByteArray sample = QByteArrayLiteral("streamscope_") + name + "_total";
        appendFamily(out, classic ? sample : QByteArrayLiteral("streamscope_") + name, "counter", help);
        samples(sample, [field](const BookStatus &b) { return std::optional<double>(double(b.*field)); });
    };
    counter("book_resyncs", "Times an order book was found wrong and fetched again.", &BookStatus::resyncs);
    counter("book_checksum_failures", "Order-book checksums from the venue that did not match the book.",
            &BookStatus::checksumFailures);
    const QByteArray ratio = QByteArrayLiteral("streamscope_book_audit_match_ratio");
    appendFamily(out, ratio, "gauge", "Share of the top levels that matched a REST snapshot at the last audit.");
    samples(ratio, [](const BookStatus &b) {
        return b.lastAuditMatchRatio >= 0 ? std::optional<double>(b.lastAuditMatchRatio) : std::nullopt;
    });
    const QByteArray stale = QByteArrayLiteral("streamscope_book_stale_levels");
    appendFamily(out, stale, "gauge", "Levels kept locally but absent from the last audit's snapshot.");
    samples(stale, [](const BookStatus &b) {
        return b.audits > 0 ? std::optional<double>(double(b.staleLevels)) : std::nullopt;
    });
}

} // namespace streamscope::app
