#include "WorkspaceReload.h"

#include "Engine.h"
#include "Workspace.h"

#include <QtCore/QSet>

namespace streamscope::app {

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
        } else if (!Workspace::sameStream(engine.config(it.value()), c)) {
            if (engine.updateStream(it.value(), c))
                ++changes.changed;
            else
                ++changes.destinations;
        } else {
            ++changes.unchanged;
        }
    }
    return changes;
}

} // namespace streamscope::app
