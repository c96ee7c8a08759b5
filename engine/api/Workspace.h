#pragma once

// A workspace file: versioned, human-editable JSON holding streams, alert rules and the
// window layout (docs/workspace.md). Loading validates every key: an unknown
// key is a warning, a wrong type or a missing required key an error naming the file, the
// key's path (e.g. "streams[2].url") and what was expected. Secrets stay references
// ("env:NAME", "keychain:NAME") and are written back as such.
//
// Thread contract: plain value type; load and save on any one thread.

#include "AgentConfig.h"
#include "CrossVenueConfig.h"
#include "FlightConfig.h"
#include "InstrumentSymbol.h"
#include "NotifyTarget.h"
#include "StreamConfig.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QStringList>
#include <QtCore/QVector>

namespace streamscope {

struct Workspace {
    static constexpr int kVersion = 1;
    // A larger file is refused when loading; a hand-edited workspace is a few kilobytes.
    static constexpr qint64 kMaxFileBytes = 16LL * 1024 * 1024;

    QVector<StreamConfig> streams;
    QJsonArray alerts;          // alert rules; their meaning belongs to the alerts library, stored as written
    QList<NotifyTarget> notify; // where every stream's alerts are sent (a stream's own: StreamConfig::notify)
    QJsonObject layout;         // window layout; belongs to the UI, stored as written
    // The top-level "record" object: recording for every stream (docs/capture.md). Each
    // stream's own "record" keys override it; the streams' configs hold the merged result.
    RecordConfig record;
    // The top-level "flight_recorder" object: every stream's last minutes kept in memory.
    FlightConfig flight;
    // The headless agents the desktop application watches ("agents"); headless mode ignores them.
    QVector<AgentConfig> agents;
    // The user's instrument mapping for the cross-venue view ("instrument_aliases": a venue's
    // spelling → a normalised name; docs/venues.md, "One instrument across venues").
    InstrumentAliases instrumentAliases;
    // When the cross-venue view flags a venue ("cross_venue": apart_bps, apart_for_s, frozen_s).
    CrossVenueConfig crossVenue;

    struct LoadResult {
        bool ok = false;
        QString error;        // "FILE: streams[0].url: expected a string"
        QStringList warnings; // "FILE: streams[0].colour: unknown key, ignored"
    };

    // Reads and validates `path` into `out`, opened by InputFile: only a regular file of at most
    // kMaxFileBytes (a directory, device, FIFO or socket is refused, and the open never blocks),
    // read within InputFile::kSmallFileTimeout. tls.ca_file is opened the same way.
    static LoadResult load(const QString &path, Workspace &out);
    // Same from bytes; `fileName` is used in messages only.
    static LoadResult parse(const QByteArray &json, const QString &fileName, Workspace &out);

    // A credential header (SecretStore::isCredentialName) whose value is a literal secret
    // (not empty, not env:/keychain:).
    static bool isLiteralCredential(const QString &name, const QString &value);

    // A URL's password and a literal credential header are never written.
    QJsonObject toJson() const;
    static QJsonObject streamToJson(const StreamConfig &config);
    // Whether two stream configurations are alike: everything the workspace file holds,
    // including a URL's password and literal headers, which the saved form leaves out.
    static bool sameStream(const StreamConfig &a, const StreamConfig &b);
    // Writes atomically (QSaveFile). Returns false and sets `error` on failure.
    bool save(const QString &path, QString *error = nullptr) const;
};

} // namespace streamscope
