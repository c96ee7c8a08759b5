#include "Report.h"

#include "BookReport.h"
#include "ClockReport.h"
#include "FlightReport.h"
#include "FreshnessReport.h"
#include "InstrumentReport.h"
#include "ReportNumbers.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QSaveFile>

namespace streamscope::app {

namespace {
} // namespace

QJsonObject buildReport(const QVector<StreamSnapshot> &streams, double durationS)
{
    QJsonArray list;
    for (const StreamSnapshot &s : streams) {
        const QJsonObject latency = latencyObject(s.latency);
        QJsonObject o{{QStringLiteral("name"), s.name},
                      {QStringLiteral("url"), s.url.toString()},
                      {QStringLiteral("venue"), venueName(s.venue)},
                      {QStringLiteral("mode"), modeName(s.mode)},
                      {QStringLiteral("state"), stateName(s.state)},
                      {QStringLiteral("state_reason"), s.stateReason},
                      {QStringLiteral("messages"), qint64(s.messages)},
                      {QStringLiteral("data_messages"), qint64(s.dataMessages)},
                      {QStringLiteral("bytes"), qint64(s.bytes)},
                      {QStringLiteral("results"), qint64(s.results)},
                      {QStringLiteral("errors"), qint64(s.errors)},
                      {QStringLiteral("control_messages"), qint64(s.controlMessages)},
                      {QStringLiteral("heartbeats"), qint64(s.heartbeats)},
                      {QStringLiteral("parse_errors"), qint64(s.parseErrors)},
                      {QStringLiteral("gaps"), qint64(s.gaps)},
                      {QStringLiteral("reconnects"), qint64(s.reconnects)},
                      {QStringLiteral("last_close_code"), s.lastCloseCode},
                      {QStringLiteral("rate_msgs_per_s"), durationS > 0 ? round3(double(s.messages) / durationS) : 0.0},
                      {QStringLiteral("latency_ms"), latency}};
        if (!s.lastParseError.isEmpty())
            o.insert(QStringLiteral("last_parse_error"), s.lastParseError);
        addClockFields(o, s);     // docs/clock.md
        addFreshnessFields(o, s); // docs/freshness.md
        // Venue details (docs/venues.md); added fields only.
        o.insert(QStringLiteral("updates"), qint64(s.updates));
        o.insert(QStringLiteral("duplicates"), qint64(s.duplicates));
        o.insert(QStringLiteral("sequence_resets"), qint64(s.sequenceResets));
        o.insert(QStringLiteral("venue_errors"), qint64(s.venueErrors));
        o.insert(QStringLiteral("venue_notices"), qint64(s.venueNotices));
        if (!s.venueNotice.isEmpty())
            o.insert(QStringLiteral("venue_notice"), s.venueNotice);
        o.insert(QStringLiteral("rollovers"), qint64(s.rollovers));
        o.insert(QStringLiteral("outgoing_messages"), qint64(s.outgoingMessages));
        o.insert(QStringLiteral("outgoing_pings"), qint64(s.outgoingPings));
        o.insert(QStringLiteral("outgoing_limit_per_s"), s.outgoingLimitPerS);
        o.insert(QStringLiteral("outgoing_peak_per_s"), s.outgoingPeakPerS);
        o.insert(QStringLiteral("subscriptions"), s.subscriptionCount);
        QJsonArray connections;
        for (const ConnectionInfo &c : s.connections)
            connections.append(QJsonObject{{QStringLiteral("shard"), c.shard},
                                           {QStringLiteral("rollover"), c.rollover},
                                           {QStringLiteral("connected"), c.connected},
                                           {QStringLiteral("subscriptions"), c.subscriptions},
                                           {QStringLiteral("url"), c.url.toString()}});
        o.insert(QStringLiteral("connections"), connections);
        QJsonArray gapList;
        for (const GapRecord &g : s.recentGaps)
            gapList.append(QJsonObject{{QStringLiteral("time_ms"), g.timeMs},
                                       {QStringLiteral("symbol"), g.symbol},
                                       {QStringLiteral("missing_from"), g.expectedFrom},
                                       {QStringLiteral("missing_to"), g.missingTo()},
                                       {QStringLiteral("resumed_at"), g.resumedAt}});
        o.insert(QStringLiteral("gap_records"), gapList);
        if (!s.rateLimits.isEmpty()) {
            QJsonArray limits;
            for (const RateLimitInfo &r : s.rateLimits)
                limits.append(QJsonObject{{QStringLiteral("type"), r.type},
                                          {QStringLiteral("interval"), r.interval},
                                          {QStringLiteral("interval_num"), r.intervalNum},
                                          {QStringLiteral("limit"), r.limit},
                                          {QStringLiteral("count"), r.count}});
            o.insert(QStringLiteral("rate_limits"), limits);
        }
        if (s.serverShutdowns)
            o.insert(QStringLiteral("server_shutdowns"), qint64(s.serverShutdowns));
        if (s.venue == Venue("betfair")) {
            QJsonObject bf{{QStringLiteral("connection_id"), s.connectionId},
                           {QStringLiteral("connections_available"), s.connectionsAvailable},
                           {QStringLiteral("segments"), qint64(s.segments)},
                           {QStringLiteral("conflated"), qint64(s.conflated)},
                           {QStringLiteral("conflated_unrequested"), s.conflatedUnrequested},
                           {QStringLiteral("images"), qint64(s.images)},
                           {QStringLiteral("resub_deltas"), qint64(s.resubDeltas)},
                           {QStringLiteral("status_503"), qint64(s.status503)},
                           {QStringLiteral("stale_alarms"), qint64(s.staleAlarms)},
                           {QStringLiteral("heartbeat_ms"), s.heartbeatMs},
                           {QStringLiteral("conflate_ms"), s.conflateMs},
                           {QStringLiteral("clk"), s.clk},
                           {QStringLiteral("initial_clk"), s.initialClk},
                           {QStringLiteral("incomplete_images"), qint64(s.incompleteImages)},
                           {QStringLiteral("duplicate_markets"), qint64(s.duplicateMarkets)},
                           {QStringLiteral("image_markets"), s.imageMarkets}};
            if (s.initialImageMs >= 0)
                bf.insert(QStringLiteral("initial_image_ms"), s.initialImageMs);
            if (s.keepAlive.configured)
                bf.insert(QStringLiteral("keep_alive"),
                          QJsonObject{{QStringLiteral("succeeded"), qint64(s.keepAlive.succeeded)},
                                      {QStringLiteral("failed"), qint64(s.keepAlive.failed)},
                                      {QStringLiteral("errors"), qint64(s.keepAlive.errors)},
                                      {QStringLiteral("last_status"), s.keepAlive.lastStatus},
                                      {QStringLiteral("last_error"), s.keepAlive.lastError}});
            o.insert(QStringLiteral("betfair"), bf);
        }
        if (s.record.on)
            o.insert(QStringLiteral("record"),
                     QJsonObject{{QStringLiteral("file"), s.record.file},
                                 {QStringLiteral("files"), qint64(s.record.files)},
                                 {QStringLiteral("bytes_written"), qint64(s.record.bytesWritten)},
                                 {QStringLiteral("messages"), qint64(s.record.messages)},
                                 {QStringLiteral("dropped"), qint64(s.record.dropped)},
                                 {QStringLiteral("errors"), qint64(s.record.errors)},
                                 {QStringLiteral("error"), s.record.error}});
        addFlightFields(o, s);     // docs/capture.md, "Flight recorder"
        addBookFields(o, s);       // docs/books.md
        addInstrumentFields(o, s); // docs/freshness.md, "Instruments that go quiet"
        if (!s.venueErrorCode.isEmpty()) {
            o.insert(QStringLiteral("venue_error_code"), s.venueErrorCode);
            o.insert(QStringLiteral("venue_error_message"), s.venueErrorMessage);
        }
        list.append(o);
    }
    QJsonObject report{{QStringLiteral("version"), 1},
                       {QStringLiteral("duration_s"), round3(durationS)},
                       {QStringLiteral("host_clock"), hostClockObject(HostClockState::read())},
                       {QStringLiteral("streams"), list}};
    addFlightSummary(report, streams);
    return report;
}

bool writeReport(const QString &path, const QJsonObject &report, QString *error)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(report).toJson(QJsonDocument::Indented)) < 0
        || !f.commit()) {
        if (error)
            *error = QStringLiteral("%1: cannot write the report: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}

} // namespace streamscope::app
