#pragma once

// A workspace file: versioned, human-editable JSON holding streams, alert rules and the
// window layout (see DESIGN.md, "Workspace file"). Loading validates every key: an unknown
// key is a warning, a wrong type or a missing required key an error naming the file, the
// key's path (e.g. "streams[2].url") and what was expected. Secrets stay references
// ("env:NAME", "keychain:NAME") and are written back as such.
//
// Thread contract: plain value type; load and save on any one thread.

#include "StreamConfig.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QStringList>
#include <QtCore/QVector>

namespace streamscope {

struct Workspace {
    static constexpr int kVersion = 1;

    QVector<StreamConfig> streams;
    QJsonArray alerts;  // alert rules; their meaning belongs to the UI, stored as written
    QJsonObject layout; // window layout; belongs to the UI, stored as written

    struct LoadResult {
        bool ok = false;
        QString error;        // "FILE: streams[0].url: expected a string"
        QStringList warnings; // "FILE: streams[0].colour: unknown key, ignored"
    };

    // Reads and validates `path` into `out`.
    static LoadResult load(const QString &path, Workspace &out);
    // Same from bytes; `fileName` is used in messages only.
    static LoadResult parse(const QByteArray &json, const QString &fileName, Workspace &out);

    QJsonObject toJson() const;
    static QJsonObject streamToJson(const StreamConfig &config);
    // Writes atomically (QSaveFile). Returns false and sets `error` on failure.
    bool save(const QString &path, QString *error = nullptr) const;
};

} // namespace streamscope
