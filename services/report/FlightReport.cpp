#include "FlightReport.h"

#include "MetricsText.h"

#include <algorithm>

namespace streamscope::app {

void addFlightFields(QJsonObject &stream, const StreamSnapshot &s)
{
    if (!s.flight.on)
        return;
    const FlightStatus &f = s.flight;
    QJsonObject o{{QStringLiteral("memory_bytes"), qint64(f.memoryBytes)},
                  {QStringLiteral("held_s"), double(f.heldMs) / 1000.0},
                  {QStringLiteral("messages_held"), qint64(f.messagesHeld)},
                  {QStringLiteral("evicted_age_messages"), qint64(f.evictedAgeMessages)},
                  {QStringLiteral("evicted_cap_messages"), qint64(f.evictedCapMessages)},
                  {QStringLiteral("dropped"), qint64(f.dropped)},
                  {QStringLiteral("dropped_events"), qint64(f.droppedEvents)},
                  {QStringLiteral("saved_files"), qint64(f.savedFiles)},
                  {QStringLiteral("last_file"), f.lastFile},
                  {QStringLiteral("save_errors"), qint64(f.saveErrors)},
                  {QStringLiteral("error"), f.error}};
    stream.insert(QStringLiteral("flight_recorder"), o);
}

void addFlightSummary(QJsonObject &report, const QVector<StreamSnapshot> &streams)
{
    const auto on = std::find_if(streams.begin(), streams.end(), [](const StreamSnapshot &s) { return s.flight.on; });
    if (on == streams.end())
        return;
    quint64 memory = 0;
    quint64 evictedCap = 0;
    quint64 saved = 0;
    for (const StreamSnapshot &s : streams) {
        memory += s.flight.memoryBytes;
        evictedCap += s.flight.evictedCapMessages;
        saved += s.flight.savedFiles;
    }
    report.insert(QStringLiteral("flight_recorder"),
                  QJsonObject{{QStringLiteral("minutes"), double(on->flight.keepMs) / 60000.0},
                              {QStringLiteral("memory_bytes"), qint64(memory)},
                              {QStringLiteral("memory_cap_bytes"), qint64(on->flight.capBytes)},
                              {QStringLiteral("evicted_cap_messages"), qint64(evictedCap)},
                              {QStringLiteral("saved_files"), qint64(saved)}});
}

void appendFlightMetrics(QByteArray &out, const QVector<StreamSnapshot> &streams, const QList<QByteArray> &names,
                         bool classic)
{
    if (std::none_of(streams.begin(), streams.end(), [](const StreamSnapshot &s) { return s.flight.on; }))
        return;
    const auto family = [&](const char *name, const char *type, const char *help) {
        QByteArray familyName = QByteArrayLiteral("streamscope_") + name;
        if (classic && qstrcmp(type, "counter") == 0)
            familyName += "_total";
        appendFamily(out, familyName, type, help);
    };
    const auto perStream = [&](const char *name, const char *type, const char *help, auto value) {
        family(name, type, help);
        const QByteArray suffix = qstrcmp(type, "counter") == 0 ? QByteArrayLiteral("_total") : QByteArray();
        for (qsizetype i = 0; i < streams.size(); ++i)
            if (streams[i].flight.on)
                out += "streamscope_" + QByteArray(name) + suffix + "{stream=\"" + names[i] + "\"} "
                    + QByteArray::number(value(streams[i].flight)) + '\n';
    };
    perStream("flight_memory_bytes", "gauge", "Memory the stream's flight recorder holds (compressed history).",
              [](const FlightStatus &f) { return f.memoryBytes; });
    perStream("flight_held_seconds", "gauge", "Time span the stream's flight recorder holds.",
              [](const FlightStatus &f) { return double(f.heldMs) / 1000.0; });
    perStream("flight_evicted_age_messages", "counter",
              "Messages the flight recorder let go as older than its minutes.",
              [](const FlightStatus &f) { return f.evictedAgeMessages; });
    perStream("flight_evicted_cap_messages", "counter",
              "Messages the flight recorder let go early to keep its memory cap.",
              [](const FlightStatus &f) { return f.evictedCapMessages; });
    perStream("flight_saved_files", "counter", "Flight recorder files saved.",
              [](const FlightStatus &f) { return f.savedFiles; });
    quint64 cap = 0;
    for (const StreamSnapshot &s : streams)
        cap = std::max(cap, s.flight.capBytes);
    family("flight_memory_cap_bytes", "gauge", "The flight recorder's memory cap over all streams.");
    out += "streamscope_flight_memory_cap_bytes " + QByteArray::number(cap) + '\n';
}

} // namespace streamscope::app
