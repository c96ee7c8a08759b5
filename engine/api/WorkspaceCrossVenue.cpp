// The workspace's cross-venue keys (docs/workspace.md): "instrument_aliases", a venue's spelling
// of an instrument → the normalised name the cross-venue view compares it by; "cross_venue",
// when that view flags a venue.

#include "WorkspaceReader.h"

#include "PeerText.h"

namespace streamscope::workspace_detail {

bool readInstrumentAliases(const QJsonObject &object, Workspace::LoadResult &result, const QString &file,
                           InstrumentAliases &out)
{
    const QString path = QStringLiteral("instrument_aliases");
    const auto fail = [&](const QString &what) {
        result.error = QStringLiteral("%1: %2").arg(file, what);
        return false;
    };
    if (object.size() > InstrumentAliases::kMaxAliases)
        return fail(QStringLiteral("%1: expected at most %2 aliases, found %3")
                        .arg(path)
                        .arg(InstrumentAliases::kMaxAliases)
                        .arg(object.size()));
    QMap<QString, QString> map;
    for (auto it = object.begin(); it != object.end(); ++it) {
        // The key is the user's text: escaped, so that a control character shows as such.
        const QString where = QStringLiteral("%1.\"%2\"").arg(path, peerText(it.key().left(64)));
        if (normalizedInstrument(it.key()).isEmpty())
            return fail(QStringLiteral("%1: expected an instrument name as a venue spells it (letters, digits and "
                                       "- / _ :, at most %2 characters)")
                            .arg(where, QString::number(kMaxInstrumentNameChars)));
        if (!it.value().isString())
            return fail(QStringLiteral("%1: expected a string, found %2").arg(where, ObjectReader::typeName(*it)));
        const QString value = it.value().toString();
        if (!isNormalizedInstrument(value))
            return fail(QStringLiteral("%1: expected a normalised name such as \"BTC-USD\" (capitals, parts "
                                       "joined by -), found \"%2\"")
                            .arg(where, peerText(value.left(64))));
        map.insert(it.key(), value);
    }
    out = InstrumentAliases(map);
    return true;
}

QJsonObject instrumentAliasesToJson(const InstrumentAliases &aliases)
{
    QJsonObject o;
    for (auto it = aliases.map().cbegin(); it != aliases.map().cend(); ++it)
        o.insert(it.key(), it.value());
    return o;
}

bool readCrossVenue(const QJsonObject &object, Workspace::LoadResult &result, const QString &file,
                    CrossVenueConfig &out)
{
    ObjectReader r(object, QStringLiteral("cross_venue"), result, file);
    CrossVenueConfig c;
    if (auto v = r.integer(QStringLiteral("apart_bps"), 1, CrossVenueConfig::kMaxBps))
        c.apartBps = int(*v);
    if (auto v = r.integer(QStringLiteral("apart_for_s"), 0, CrossVenueConfig::kMaxSeconds))
        c.apartForS = int(*v);
    if (auto v = r.integer(QStringLiteral("frozen_s"), 1, CrossVenueConfig::kMaxSeconds))
        c.frozenS = int(*v);
    if (!r.ok())
        return false;
    r.warnUnknownKeys();
    out = c;
    return true;
}

QJsonObject crossVenueToJson(const CrossVenueConfig &config)
{
    return QJsonObject{{QStringLiteral("apart_bps"), config.apartBps},
                       {QStringLiteral("apart_for_s"), config.apartForS},
                       {QStringLiteral("frozen_s"), config.frozenS}};
}

} // namespace streamscope::workspace_detail
