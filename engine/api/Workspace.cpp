#include "Workspace.h"

#include "InputFile.h"
#include "WorkspaceReader.h"
#include "platform/SecretStore.h"

#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtCore/QJsonDocument>
#include <QtCore/QSaveFile>

#include <optional>

namespace streamscope {

namespace workspace_detail {

// A folder key: not blank; relative to the workspace file's folder.
bool readFolder(ObjectReader &r, const QString &value, const QString &file, QString &dir)
{
    if (value.trimmed().isEmpty())
        return r.error(QStringLiteral("dir"), QStringLiteral("expected a folder name"));
    dir = QFileInfo(value).isRelative() && !file.isEmpty() ? QFileInfo(file).absoluteDir().filePath(value) : value;
    return true;
}

// A "record" object (docs/capture.md) over `c`, which holds the defaults or the top level's.
bool readRecord(const QJsonObject &json, const QString &path, Workspace::LoadResult &result, const QString &file,
                RecordConfig &c)
{
    ObjectReader r(json, path, result, file);
    if (auto v = r.string(QStringLiteral("dir"))) {
        if (!readFolder(r, *v, file, c.dir))
            return false;
    }
    if (auto v = r.boolean(QStringLiteral("enabled")))
        c.enabled = *v;
    if (auto v = r.integer(QStringLiteral("rotate_mb"), 0, 1024 * 1024))
        c.rotateMb = *v;
    if (auto v = r.integer(QStringLiteral("rotate_s"), 0, 366LL * 24 * 3600))
        c.rotateS = *v;
    if (auto v = r.boolean(QStringLiteral("compress")))
        c.compress = *v;
    if (auto v = r.integer(QStringLiteral("level"), 1, 19))
        c.level = int(*v);
    if (auto v = r.integer(QStringLiteral("buffer_mb"), 1, 4096))
        c.bufferMb = int(*v);
    if (!r.ok())
        return false;
    r.warnUnknownKeys();
    return true;
}

// The top-level "flight_recorder" object (docs/capture.md, "Flight recorder"): present, the
// flight recorder is on unless "enabled" says otherwise.
bool readFlight(const QJsonObject &json, Workspace::LoadResult &result, const QString &file, FlightConfig &c)
{
    ObjectReader r(json, QStringLiteral("flight_recorder"), result, file);
    c.enabled = true;
    if (auto v = r.boolean(QStringLiteral("enabled")))
        c.enabled = *v;
    if (auto v = r.integer(QStringLiteral("minutes"), 1, 24 * 60))
        c.minutes = int(*v);
    if (auto v = r.integer(QStringLiteral("memory_mb"), 1, 1024 * 1024))
        c.memoryMb = int(*v);
    if (auto v = r.string(QStringLiteral("dir"))) {
        if (!readFolder(r, *v, file, c.dir))
            return false;
    }
    if (auto v = r.integer(QStringLiteral("alert_save_every_s"), 0, 24 * 3600))
        c.alertSaveEveryS = int(*v);
    if (!r.ok())
        return false;
    r.warnUnknownKeys();
    return true;
}

QJsonObject flightToJson(const FlightConfig &c)
{
    const FlightConfig d;
    QJsonObject o{{QStringLiteral("enabled"), c.enabled},
                  {QStringLiteral("minutes"), c.minutes},
                  {QStringLiteral("memory_mb"), c.memoryMb}};
    if (!c.dir.isEmpty())
        o.insert(QStringLiteral("dir"), c.dir);
    if (c.alertSaveEveryS != d.alertSaveEveryS)
        o.insert(QStringLiteral("alert_save_every_s"), c.alertSaveEveryS);
    return o;
}

QJsonObject recordToJson(const RecordConfig &c, const RecordConfig &base)
{
    QJsonObject o;
    if (c.dir != base.dir)
        o.insert(QStringLiteral("dir"), c.dir);
    if (c.enabled != base.enabled)
        o.insert(QStringLiteral("enabled"), c.enabled);
    if (c.rotateMb != base.rotateMb)
        o.insert(QStringLiteral("rotate_mb"), c.rotateMb);
    if (c.rotateS != base.rotateS)
        o.insert(QStringLiteral("rotate_s"), c.rotateS);
    if (c.compress != base.compress)
        o.insert(QStringLiteral("compress"), c.compress);
    if (c.level != base.level)
        o.insert(QStringLiteral("level"), c.level);
    if (c.bufferMb != base.bufferMb)
        o.insert(QStringLiteral("buffer_mb"), c.bufferMb);
    return o;
}

} // namespace workspace_detail

using workspace_detail::flightToJson;
using workspace_detail::ObjectReader;
using workspace_detail::readFlight;
using workspace_detail::readNotify;
using workspace_detail::readRecord;
using workspace_detail::readStream;
using workspace_detail::recordToJson;

bool Workspace::isLiteralCredential(const QString &name, const QString &value)
{
    return SecretStore::isLiteralCredential(name, value);
}

Workspace::LoadResult Workspace::load(const QString &path, Workspace &out)
{
    LoadResult r;
    // Only a regular file (a FIFO without a writer would block, /dev/zero never ends), of at
    // most kMaxFileBytes, read within a time bound.
    InputFile::Limits limits;
    limits.maxBytes = kMaxFileBytes;
    limits.timeout = InputFile::kSmallFileTimeout;
    const std::optional<QByteArray> bytes = InputFile::readAll(path, limits, &r.error);
    if (!bytes)
        return r;
    return parse(*bytes, path, out);
}

Workspace::LoadResult Workspace::parse(const QByteArray &json, const QString &fileName, Workspace &out)
{
    LoadResult result;
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        const QByteArray before = json.left(parseError.offset);
        const qsizetype line = before.count('\n') + 1;
        const qsizetype column = parseError.offset - before.lastIndexOf('\n');
        result.error = QStringLiteral("%1:%2:%3: not valid JSON: %4")
                           .arg(fileName)
                           .arg(line)
                           .arg(column)
                           .arg(parseError.errorString());
        return result;
    }
    if (!doc.isObject()) {
        result.error = QStringLiteral("%1: expected a JSON object at the top level").arg(fileName);
        return result;
    }
    Workspace ws;
    ObjectReader top(doc.object(), QString(), result, fileName);
    if (!top.has(QStringLiteral("version"))) {
        top.error(QStringLiteral("version"), QStringLiteral("missing, expected %1").arg(kVersion));
        return result;
    }
    if (auto v = top.integer(QStringLiteral("version"), kVersion, kVersion); !v)
        return result;
    // Read before the streams: their own "record" keys override it.
    if (auto v = top.object(QStringLiteral("record"))) {
        if (!readRecord(*v, QStringLiteral("record"), result, fileName, ws.record))
            return result;
    }
    if (auto v = top.object(QStringLiteral("flight_recorder"))) {
        if (!readFlight(*v, result, fileName, ws.flight))
            return result;
    }
    // The websocket client of every stream that does not name its own.
    WebSocketClient transport = StreamConfig().transport;
    if (auto v = top.string(QStringLiteral("transport"))) {
        transport = webSocketClientFromName(*v);
        if (transport == WebSocketClient::Unknown) {
            top.error(QStringLiteral("transport"),
                      QStringLiteral("expected \"qt\" or \"native\", found \"%1\"").arg(*v));
            return result;
        }
    }
    const auto streams = top.array(QStringLiteral("streams"), true);
    if (!streams)
        return result;
    QStringList names;
    for (qsizetype i = 0; i < streams->size(); ++i) {
        const QString path = QStringLiteral("streams[%1]").arg(i);
        if (!streams->at(i).isObject()) {
            result.error = QStringLiteral("%1: %2: expected an object, found %3")
                               .arg(fileName, path, ObjectReader::typeName(streams->at(i)));
            return result;
        }
        StreamConfig c;
        c.record = ws.record;
        c.transport = transport;
        if (!readStream(streams->at(i).toObject(), path, result, fileName, c))
            return result;
        if (names.contains(c.name)) {
            result.error =
                QStringLiteral("%1: %2.name: expected a unique name, \"%3\" is used twice").arg(fileName, path, c.name);
            return result;
        }
        names << c.name;
        ws.streams.append(c);
    }
    if (auto v = top.array(QStringLiteral("alerts")))
        ws.alerts = *v;
    if (auto v = top.object(QStringLiteral("layout")))
        ws.layout = *v;
    if (auto v = top.array(QStringLiteral("notify"));
        v && !readNotify(*v, QStringLiteral("notify"), result, fileName, ws.notify))
        return result;
    if (auto v = top.array(QStringLiteral("agents"));
        v && !workspace_detail::readAgents(*v, result, fileName, ws.agents))
        return result;
    if (auto v = top.object(QStringLiteral("instrument_aliases"));
        v && !workspace_detail::readInstrumentAliases(*v, result, fileName, ws.instrumentAliases))
        return result;
    if (auto v = top.object(QStringLiteral("cross_venue"));
        v && !workspace_detail::readCrossVenue(*v, result, fileName, ws.crossVenue))
        return result;
    if (!top.ok())
        return result;
    top.warnUnknownKeys();
    out = ws;
    result.ok = true;
    return result;
}

QJsonObject Workspace::toJson() const
{
    QJsonArray streamArray;
    for (const StreamConfig &c : streams) {
        QJsonObject s = streamToJson(c);
        // What the top level says is written there once; a stream keeps only its differences.
        s.remove(QStringLiteral("record"));
        if (const QJsonObject own = recordToJson(c.record, record); !own.isEmpty())
            s.insert(QStringLiteral("record"), own);
        streamArray.append(s);
    }
    QJsonObject o{{QStringLiteral("version"), kVersion}, {QStringLiteral("streams"), streamArray}};
    if (const QJsonObject top = recordToJson(record, RecordConfig{}); !top.isEmpty())
        o.insert(QStringLiteral("record"), top);
    if (flight != FlightConfig{})
        o.insert(QStringLiteral("flight_recorder"), flightToJson(flight));
    if (!alerts.isEmpty())
        o.insert(QStringLiteral("alerts"), alerts);
    if (!layout.isEmpty())
        o.insert(QStringLiteral("layout"), layout);
    if (!notify.isEmpty()) {
        QJsonArray a;
        for (const NotifyTarget &t : notify)
            a.append(t.toJson());
        o.insert(QStringLiteral("notify"), a);
    }
    if (!agents.isEmpty())
        o.insert(QStringLiteral("agents"), workspace_detail::agentsToJson(agents));
    if (!instrumentAliases.isEmpty())
        o.insert(QStringLiteral("instrument_aliases"), workspace_detail::instrumentAliasesToJson(instrumentAliases));
    if (crossVenue != CrossVenueConfig{})
        o.insert(QStringLiteral("cross_venue"), workspace_detail::crossVenueToJson(crossVenue));
    return o;
}

bool Workspace::save(const QString &path, QString *error) const
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly)) {
        if (error)
            *error = QStringLiteral("%1: cannot write: %2").arg(path, f.errorString());
        return false;
    }
    // A write that stops short (a full disk, a file size limit) is no error to Qt: write()
    // returns the shorter count, and commit() (Qt 6.4) ignores a flush that failed for it, so it
    // would put the truncated file in place of the old one. Count the bytes and flush first;
    // without a commit the temporary file is removed and the old file stays.
    const QByteArray bytes = QJsonDocument(toJson()).toJson(QJsonDocument::Indented);
    if (f.write(bytes) != bytes.size() || !f.flush()) {
        if (error)
            *error = QStringLiteral("%1: cannot write: only part of the workspace could be written (is the disk full?)")
                         .arg(path);
        f.cancelWriting();
        return false;
    }
    if (!f.commit()) {
        if (error)
            *error = QStringLiteral("%1: cannot write: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}

} // namespace streamscope
