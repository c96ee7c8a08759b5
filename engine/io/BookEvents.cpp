#include "BookEvents.h"

#include "CaptureReader.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

namespace streamscope::capture {

namespace {

const QString kInstrument = QStringLiteral("instrument");
const QString kPurpose = QStringLiteral("purpose");
const QString kAudit = QStringLiteral("audit");
constexpr QByteArrayView kBodyKey = ",\"body\":";

QString purposeOf(bool audit)
{
    return audit ? kAudit : QStringLiteral("sync");
}

} // namespace

bool isEventNamed(const QByteArray &json, const char *name)
{
    const QByteArrayView n(name);
    constexpr QByteArrayView prefix = "{\"event\":\"";
    return json.size() > prefix.size() + n.size() && json.startsWith(prefix)
        && QByteArrayView(json).sliced(prefix.size(), n.size()) == n && json.at(prefix.size() + n.size()) == '"';
}

QByteArray bookRequestJson(const QString &instrument, bool audit)
{
    return eventJson(QString::fromLatin1(kBookRequestEvent),
                     QJsonObject{{kInstrument, instrument}, {kPurpose, purposeOf(audit)}});
}

QByteArray bookSnapshotJson(const BookSnapshotEvent &event, qsizetype maxBytes)
{
    QJsonObject fields{{kInstrument, event.instrument}, {kPurpose, purposeOf(event.audit)}};
    if (!event.error.isEmpty()) {
        fields.insert(QStringLiteral("error"), event.error);
        return eventJson(QString::fromLatin1(kBookSnapshotEvent), fields);
    }
    fields.insert(QStringLiteral("last_update_id"), event.lastUpdateId);
    QByteArray json = eventJson(QString::fromLatin1(kBookSnapshotEvent), fields);
    QString omitted = event.omitted;
    if (omitted.isEmpty() && json.size() + kBodyKey.size() + event.body.size() > maxBytes)
        omitted = QStringLiteral("an answer of %1 bytes, over the %2 KiB a capture event holds")
                      .arg(event.body.size())
                      .arg(maxBytes / 1024);
    if (!omitted.isEmpty()) {
        fields.insert(QStringLiteral("body_omitted"), omitted);
        fields.insert(QStringLiteral("body_bytes"), event.bodyBytes ? event.bodyBytes : qint64(event.body.size()));
        return eventJson(QString::fromLatin1(kBookSnapshotEvent), fields);
    }
    json.chop(1); // its closing brace: the body comes last
    json.reserve(json.size() + kBodyKey.size() + event.body.size() + 1);
    json.append(kBodyKey);
    const qsizetype at = json.size();
    json += event.body;
    // A line holds no CR or LF: in valid JSON a control character is white space.
    for (char *c = json.data() + at, *end = json.data() + json.size(); c != end; ++c)
        if (quint8(*c) < 0x20)
            *c = ' ';
    json += '}';
    return json;
}

bool readBookRequest(const QByteArray &json, QString *instrument, bool *audit)
{
    const QJsonObject o = QJsonDocument::fromJson(json).object();
    if (o.value(QStringLiteral("event")).toString() != QLatin1String(kBookRequestEvent))
        return false;
    *instrument = o.value(kInstrument).toString();
    *audit = o.value(kPurpose).toString() == kAudit;
    return !instrument->isEmpty();
}

bool readBookSnapshot(const QByteArray &json, BookSnapshotEvent *out)
{
    // The fields before the body are parsed; the body's bytes are taken as they are. A '"' that
    // is not escaped ends a string, so the first `,"body":` is a key.
    QJsonObject o;
    QByteArray body;
    const qsizetype at = json.indexOf(kBodyKey);
    if (at > 0 && json.endsWith('}')) {
        o = QJsonDocument::fromJson(json.left(at) + '}').object();
        body = json.mid(at + kBodyKey.size(), json.size() - at - kBodyKey.size() - 1).trimmed();
    }
    if (o.isEmpty()) { // written by another tool: the whole object
        o = QJsonDocument::fromJson(json).object();
        const QJsonValue b = o.value(QStringLiteral("body"));
        body = b.isObject() ? QJsonDocument(b.toObject()).toJson(QJsonDocument::Compact) : QByteArray();
    }
    if (o.value(QStringLiteral("event")).toString() != QLatin1String(kBookSnapshotEvent))
        return false;
    *out = BookSnapshotEvent();
    out->instrument = o.value(kInstrument).toString();
    out->audit = o.value(kPurpose).toString() == kAudit;
    out->lastUpdateId = o.value(QStringLiteral("last_update_id")).toInteger();
    out->error = o.value(QStringLiteral("error")).toString();
    out->omitted = o.value(QStringLiteral("body_omitted")).toString();
    out->bodyBytes = o.value(QStringLiteral("body_bytes")).toInteger(body.size());
    if (out->error.isEmpty() && out->omitted.isEmpty()) {
        if (body.isEmpty())
            out->omitted = QStringLiteral("no body");
        else
            out->body = std::move(body);
    }
    return !out->instrument.isEmpty();
}

QByteArray withoutBody(const QByteArray &json)
{
    const qsizetype at = json.indexOf(kBodyKey);
    return at > 0 && json.endsWith('}') ? json.left(at) + '}' : json;
}

} // namespace streamscope::capture
