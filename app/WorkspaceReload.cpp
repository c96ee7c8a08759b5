#include "WorkspaceReload.h"

#include "Engine.h"
#include "Workspace.h"

#include <QtCore/QSet>

namespace streamscope::app {

bool sameStreamConfig(const StreamConfig &a, const StreamConfig &b)
{
    // The saved form covers every key a workspace can set (and the keys added later, as they
    // are added to it); the URL and headers are compared whole because it redacts them.
    return a.url == b.url && a.headers == b.headers && Workspace::streamToJson(a) == Workspace::streamToJson(b);
}

WorkspaceChanges applyWorkspaceStreams(Engine &engine, QHash<QString, StreamId> &ids,
                                       const QVector<StreamConfig> &streams)
{
    WorkspaceChanges changes;
    QSet<QString> wanted;
    for (const StreamConfig &c : streams)
        wanted.insert(c.name);
    for (auto it = ids.begin(); it != ids.end();) {
        if (wanted.contains(it.key())) {
            ++it;
            continue;
        }
        engine.removeStream(it.value());
        it = ids.erase(it);
        ++changes.removed;
    }
    for (const StreamConfig &c : streams) {
        const auto it = ids.constFind(c.name);
        if (it == ids.constEnd()) {
            ids.insert(c.name, engine.addStream(c));
            ++changes.added;
        } else if (!sameStreamConfig(engine.config(it.value()), c)) {
            engine.updateStream(it.value(), c);
            ++changes.changed;
        } else {
            ++changes.unchanged;
        }
    }
    return changes;
}

} // namespace streamscope::app
