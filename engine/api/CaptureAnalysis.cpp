#include "CaptureAnalysis.h"

#include "BookEvents.h"
#include "CaptureBooks.h"
#include "CaptureReader.h"
#include "protocol/MessageDecoder.h"
#include "venues/VenueRegistry.h"

#include <QtCore/QFileInfo>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

#include <deque>

namespace streamscope {

namespace {

// As a live stream's (session/StreamSession.cpp): event times outside 2000..2100 give no latency.
constexpr double kMinPlausibleUs = 946'684'800'000'000.0;   // 2000-01-01
constexpr double kMaxPlausibleUs = 4'102'444'800'000'000.0; // 2100-01-01
constexpr qsizetype kMaxEventBytes = 64 * 1024;
// All the events kept, at most: past it an event is kept by its name only.
constexpr qint64 kMaxEventsBytes = 8LL * 1024 * 1024;
// A line longer than this is skipped and counted as malformed: base64 of a 48 MiB message.
constexpr qint64 kMaxLineBytes = 64LL * 1024 * 1024;
// A message larger than this is counted but not decoded (a copy of it would be needed).
constexpr qsizetype kMaxDecodedBytes = 16 * 1024 * 1024;

} // namespace

CaptureAnalysis analyzeCapture(const QString &path, const CaptureAnalysisOptions &options)
{
    CaptureAnalysis a;
    a.path = path;
    a.stream = QFileInfo(path).fileName();
    capture::CaptureReader reader;
    reader.setCancel(options.cancel);
    if (!reader.open(path, kMaxLineBytes)) {
        a.error = reader.errorString();
        return a;
    }
    a.compressed = reader.isCompressed();

    ReceiveBuffer buffer;
    MessageDecoder decoder;
    std::string pointer; // empty: the venue's own event time field ("E", "pt")
    const DecodeSpec *spec = &VenueRegistry::entryOf(Venue::Generic).decodeSpec();
    double usPerUnit = microsecondsPerUnit(spec->timeUnit);
    std::int64_t minEvent = std::int64_t(kMinPlausibleUs / usPerUnit);
    std::int64_t maxEvent = std::int64_t(kMaxPlausibleUs / usPerUnit);
    bool parsed = true;
    bool sawHeader = false;
    bool first = true;
    std::deque<InspectedMessage> kept;
    qint64 keptBytes = 0;
    qint64 eventBytes = 0;
    std::vector<double> bins; // message counts per bin
    int lastPercent = -1;
    capture::CaptureLine line;
    CaptureBooks books(decoder);
    // An event for the log: kept whole while small and within the bounds, else by its name only.
    const auto keepEvent = [&](qint64 timeUs, const QString &name, const QByteArray &payload) {
        if (a.events.size() >= options.maxEvents) {
            ++a.eventsLeftOut;
            return;
        }
        // An event is small; one that is not, or all of them together past a bound (a hostile
        // file), are kept by name only.
        const bool whole = payload.size() <= kMaxEventBytes && eventBytes + payload.size() <= kMaxEventsBytes;
        const QByteArray json = whole
            ? payload
            : QJsonDocument(QJsonObject{{QStringLiteral("event"), name}}).toJson(QJsonDocument::Compact);
        eventBytes += json.size();
        a.events.append({timeUs, name.isEmpty() ? QStringLiteral("?") : name.left(64), json});
    };
    const auto keepBookEvents = [&] {
        for (const CaptureEvent &e : books.takeEvents())
            keepEvent(e.timeUs, e.name, e.json);
    };

    while (reader.next(&line)) {
        if (options.cancel && options.cancel->load(std::memory_order_relaxed)) {
            a.error = QStringLiteral("cancelled");
            return a;
        }
        if (options.progress && reader.fileSize() > 0) {
            const int percent = int(qMin<qint64>(100, reader.fileBytesRead() * 100 / reader.fileSize()));
            if (percent != lastPercent) {
                lastPercent = percent;
                options.progress(percent);
            }
        }
        if (first) {
            a.firstUs = line.timeUs;
            first = false;
        }
        a.lastUs = std::max(a.lastUs, line.timeUs);
        books.advance(line.timeUs);

        if (line.kind == capture::CaptureLine::Kind::Event) {
            // A book snapshot's body (up to megabytes) is read by the books, not parsed here.
            const bool bookSnapshot = capture::isEventNamed(line.payload, capture::kBookSnapshotEvent);
            const QJsonObject o = bookSnapshot ? QJsonObject() : QJsonDocument::fromJson(line.payload).object();
            const QString name = bookSnapshot ? QString::fromLatin1(capture::kBookSnapshotEvent)
                                              : o.value(QStringLiteral("event")).toString();
            if (name == QLatin1String("capture") && !sawHeader) {
                sawHeader = true;
                if (const QString s = o.value(QStringLiteral("stream")).toString(); !s.isEmpty())
                    a.stream = s;
                a.url = RedactedUrl::fromText(o.value(QStringLiteral("url")).toString());
                a.venueName = o.value(QStringLiteral("venue")).toString();
                a.venue = venueFromName(a.venueName);
                a.mode = o.value(QStringLiteral("mode")).toString();
                a.version = o.value(QStringLiteral("version")).toString();
                spec = &VenueRegistry::entryOf(a.venue).decodeSpec();
                usPerUnit = microsecondsPerUnit(spec->timeUnit);
                minEvent = std::int64_t(kMinPlausibleUs / usPerUnit);
                maxEvent = std::int64_t(kMaxPlausibleUs / usPerUnit);
                parsed = a.mode != QLatin1String("raw");
                // A stream with its own event-time field (a generic one) names it in the header.
                if (const QString field = o.value(QStringLiteral("latency_field")).toString(); !field.isEmpty()) {
                    pointer = field.toStdString();
                    const LatencyUnit unit = latencyUnitFromName(o.value(QStringLiteral("latency_unit")).toString());
                    usPerUnit = unit == LatencyUnit::Unknown ? 1000.0 : microsecondsPerUnit(unit);
                    minEvent = std::int64_t(kMinPlausibleUs / usPerUnit);
                    maxEvent = std::int64_t(kMaxPlausibleUs / usPerUnit);
                }
                books.start(a.venue, o);
            }
            a.gaps += name == QLatin1String("gap") ? 1 : 0;
            a.reconnects += name == QLatin1String("reconnect") ? 1 : 0;
            keepEvent(line.timeUs, name, bookSnapshot ? capture::withoutBody(line.payload) : line.payload);
            if (books.event(line.payload))
                keepBookEvents();
            continue;
        }

        ++a.messages;
        a.bytes += quint64(line.payload.size());
        const bool binary = line.kind == capture::CaptureLine::Kind::Binary;
        a.binaryMessages += binary ? 1 : 0;

        double latencyMs = qQNaN();
        if (parsed && !binary && line.payload.size() <= kMaxDecodedBytes) {
            DecodedFields fields;
            const MessageView view = buffer.copy(line.payload.constData(), line.payload.size());
            if (decoder.decode(view, pointer, fields, *spec)) {
                if (fields.eventTime >= minEvent && fields.eventTime <= maxEvent) {
                    // Both times lie within a few centuries of the epoch: the difference fits.
                    const auto latencyUs = qint64(double(line.timeUs) - double(fields.eventTime) * usPerUnit);
                    a.latency.record(latencyUs);
                    latencyMs = double(latencyUs) / 1000.0;
                } else if (fields.eventTime != DecodedFields::kNone) {
                    ++a.latency.invalid;
                }
                if (books.active()) { // last: it reads the message again, which ends the fields' views
                    books.message(fields, view, a.messages);
                    keepBookEvents();
                }
            } else {
                ++a.parseErrors;
            }
        }

        // The rate, bin by bin from the capture's first line; bins widen to stay within the cap.
        if (line.timeUs >= a.firstUs) {
            auto bin = std::size_t((line.timeUs - a.firstUs) / 1'000'000 / a.rateBinSeconds);
            while (bin >= std::size_t(CaptureAnalysis::kMaxRateBins)) {
                std::vector<double> wider((bins.size() + 1) / 2, 0.0);
                for (std::size_t i = 0; i < bins.size(); ++i)
                    wider[i / 2] += bins[i];
                bins = std::move(wider);
                a.rateBinSeconds *= 2;
                bin = std::size_t((line.timeUs - a.firstUs) / 1'000'000 / a.rateBinSeconds);
            }
            if (bin >= bins.size())
                bins.resize(bin + 1, 0.0);
            bins[bin] += 1.0;
        }

        if (line.payload.size() > options.maxMessageBytes) {
            ++a.messagesLeftOut; // larger than all the room there is
            continue;
        }
        kept.push_back({line.timeUs / 1000, latencyMs, line.payload});
        keptBytes += line.payload.size();
        while (!kept.empty() && (int(kept.size()) > options.maxMessages || keptBytes > options.maxMessageBytes)) {
            keptBytes -= kept.front().text.size();
            kept.pop_front();
            ++a.messagesLeftOut;
        }
    }
    a.books = books.books();
    keepBookEvents();
    if (!reader.errorString().isEmpty())
        a.error = reader.errorString(); // what was read before stays
    a.truncated = reader.truncated();
    a.malformedLines = reader.malformedLines();
    a.firstMalformed = reader.firstMalformed();
    a.rate.reserve(qsizetype(bins.size()));
    for (double n : bins)
        a.rate.append(n / a.rateBinSeconds);
    a.lastMessages.reserve(qsizetype(kept.size()));
    for (InspectedMessage &m : kept)
        a.lastMessages.append(std::move(m));
    a.ok = !first || a.error.isEmpty();
    if (first && a.error.isEmpty()) {
        a.ok = false;
        a.error = reader.malformedLines() > 0
            ? QStringLiteral("not a capture: no line could be read (%1)").arg(reader.firstMalformed())
            : QStringLiteral("the capture holds no complete line");
    }
    if (options.progress)
        options.progress(100);
    return a;
}

} // namespace streamscope
