#pragma once

// The order books' part of the report and of /metrics (docs/books.md, docs/report.md): per
// stream a `books` list, one entry per instrument, and per instrument the families
// streamscope_book_state (a state set), streamscope_book_resyncs_total,
// streamscope_book_checksum_failures_total, streamscope_book_audit_match_ratio and
// streamscope_book_stale_levels, labelled by stream and instrument. The label set is bounded:
// at most 1,024 books a stream (session/BookKeeper), names of letters, digits and ._:/- only.

#include "StreamSnapshot.h"

#include <QtCore/QByteArray>
#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QVector>

namespace streamscope::app {

// "books": [{instrument, state, resyncs, checksum_failures, crossed_episodes, audits,
// audit_mismatches, last_audit_match_ratio, min_audit_match_ratio, stale_levels, bid_levels,
// ask_levels, time_to_sync_ms, last_resync_reason}]; the ratios and time are null until known.
void addBookFields(QJsonObject &stream, const StreamSnapshot &s);
void appendBookMetrics(QByteArray &out, const QVector<StreamSnapshot> &streams, const QList<QByteArray> &names,
                       bool classic);

} // namespace streamscope::app
