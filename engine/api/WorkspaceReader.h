#pragma once

// The workspace reader's one tool (Workspace.cpp, WorkspaceStreams.cpp, WorkspaceAgents.cpp): walks one JSON object,
// remembering which keys were read, and reports an error naming the file, the key's path and
// what was expected. Internal to the workspace's loading.
//
// Thread contract: plain value type, used on the thread that loads.

#include "Workspace.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QStringList>

#include <cmath>
#include <optional>

namespace streamscope::workspace_detail {

// Walks one JSON object, remembering which keys were read, and reports precisely.
class ObjectReader {
public:
    ObjectReader(const QJsonObject &object, QString path, Workspace::LoadResult &result, const QString &file)
        : m_object(object)
        , m_path(std::move(path))
        , m_result(result)
        , m_file(file)
    {
    }

    QString keyPath(const QString &key) const { return m_path.isEmpty() ? key : m_path + QLatin1Char('.') + key; }

    bool error(const QString &key, const QString &what)
    {
        if (m_result.error.isEmpty())
            m_result.error = QStringLiteral("%1: %2: %3").arg(m_file, keyPath(key), what);
        return false;
    }

    bool has(const QString &key)
    {
        m_known << key;
        return m_object.contains(key);
    }

    std::optional<QString> string(const QString &key, bool required = false)
    {
        if (!has(key)) {
            if (required)
                error(key, QStringLiteral("missing, expected a string"));
            return std::nullopt;
        }
        const QJsonValue v = m_object.value(key);
        if (!v.isString()) {
            error(key, QStringLiteral("expected a string, found %1").arg(typeName(v)));
            return std::nullopt;
        }
        return v.toString();
    }

    std::optional<qint64> integer(const QString &key, qint64 min, qint64 max)
    {
        if (!has(key))
            return std::nullopt;
        const QJsonValue v = m_object.value(key);
        const double d = v.toDouble();
        if (!v.isDouble() || !std::isfinite(d) || d != std::trunc(d)) {
            error(key, QStringLiteral("expected an integer, found %1").arg(typeName(v)));
            return std::nullopt;
        }
        // Compared as doubles: a value beyond int64 (1e55) has no qint64 to convert to.
        if (d < double(min) || d > double(max)) {
            const QString found = std::abs(d) < 1e15 ? QString::number(qint64(d)) : QString::number(d);
            error(key, QStringLiteral("expected an integer from %1 to %2, found %3").arg(min).arg(max).arg(found));
            return std::nullopt;
        }
        return qint64(d);
    }

    std::optional<bool> boolean(const QString &key)
    {
        if (!has(key))
            return std::nullopt;
        const QJsonValue v = m_object.value(key);
        if (!v.isBool()) {
            error(key, QStringLiteral("expected true or false, found %1").arg(typeName(v)));
            return std::nullopt;
        }
        return v.toBool();
    }

    std::optional<QJsonObject> object(const QString &key)
    {
        if (!has(key))
            return std::nullopt;
        const QJsonValue v = m_object.value(key);
        if (!v.isObject()) {
            error(key, QStringLiteral("expected an object, found %1").arg(typeName(v)));
            return std::nullopt;
        }
        return v.toObject();
    }

    std::optional<QJsonArray> array(const QString &key, bool required = false)
    {
        if (!has(key)) {
            if (required)
                error(key, QStringLiteral("missing, expected an array"));
            return std::nullopt;
        }
        const QJsonValue v = m_object.value(key);
        if (!v.isArray()) {
            error(key, QStringLiteral("expected an array, found %1").arg(typeName(v)));
            return std::nullopt;
        }
        return v.toArray();
    }

    std::optional<QStringList> stringList(const QString &key)
    {
        const auto a = array(key);
        if (!a)
            return std::nullopt;
        QStringList out;
        for (qsizetype i = 0; i < a->size(); ++i) {
            if (!a->at(i).isString()) {
                error(QStringLiteral("%1[%2]").arg(key).arg(i),
                      QStringLiteral("expected a string, found %1").arg(typeName(a->at(i))));
                return std::nullopt;
            }
            out << a->at(i).toString();
        }
        return out;
    }

    void warnUnknownKeys()
    {
        for (auto it = m_object.begin(); it != m_object.end(); ++it)
            if (!m_known.contains(it.key()))
                m_result.warnings << QStringLiteral("%1: %2: unknown key, ignored").arg(m_file, keyPath(it.key()));
    }

    bool ok() const { return m_result.error.isEmpty(); }
    Workspace::LoadResult &result() { return m_result; }

    static QString typeName(const QJsonValue &v)
    {
        switch (v.type()) {
        case QJsonValue::Null: return QStringLiteral("null");
        case QJsonValue::Bool: return QStringLiteral("a boolean");
        case QJsonValue::Double: return QStringLiteral("a number");
        case QJsonValue::String: return QStringLiteral("a string");
        case QJsonValue::Array: return QStringLiteral("an array");
        case QJsonValue::Object: return QStringLiteral("an object");
        case QJsonValue::Undefined: break;
        }
        return QStringLiteral("nothing");
    }

private:
    const QJsonObject m_object;
    const QString m_path;
    Workspace::LoadResult &m_result;
    const QString &m_file;
    QStringList m_known;
};

} // namespace streamscope::workspace_detail

namespace streamscope::workspace_detail {

// Reads `r`'s "tls" object, if there is one: its "ca_file", taken from the workspace's folder when
// relative, opened as every connection opens it (a regular file within the PEM bound) and
// stored in `caFile`. False, with the error set, when it is not readable.
bool readTls(ObjectReader &r, const QString &file, QString &caFile);

// A "record" object (docs/capture.md) over `c`, which holds the defaults or the top level's;
// and its saved form, without what equals `base` (Workspace.cpp).
bool readRecord(const QJsonObject &json, const QString &path, Workspace::LoadResult &result, const QString &file,
                RecordConfig &c);
QJsonObject recordToJson(const RecordConfig &c, const RecordConfig &base);

// One "notify" array of destinations, and one stream (WorkspaceStreams.cpp).
bool readNotify(const QJsonArray &array, const QString &path, Workspace::LoadResult &result, const QString &file,
                QList<NotifyTarget> &out);
bool readStream(const QJsonObject &json, const QString &path, Workspace::LoadResult &result, const QString &file,
                StreamConfig &c);

// The top-level "agents" array (WorkspaceAgents.cpp); `file` names it in errors, and a
// relative tls.ca_file is taken from its folder.
bool readAgents(const QJsonArray &array, Workspace::LoadResult &result, const QString &file, QVector<AgentConfig> &out);
QJsonArray agentsToJson(const QVector<AgentConfig> &agents);
// The top-level "instrument_aliases" and "cross_venue" objects (WorkspaceCrossVenue.cpp).
bool readInstrumentAliases(const QJsonObject &object, Workspace::LoadResult &result, const QString &file,
                           InstrumentAliases &out);
QJsonObject instrumentAliasesToJson(const InstrumentAliases &aliases);
bool readCrossVenue(const QJsonObject &object, Workspace::LoadResult &result, const QString &file,
                    CrossVenueConfig &out);
QJsonObject crossVenueToJson(const CrossVenueConfig &config);

} // namespace streamscope::workspace_detail
