#pragma once

// Applies an edited workspace to a running engine, stream by stream, matched by name (names
// are unique in a workspace): a stream only in the new file is added, one only in the old is
// removed, one whose configuration differs is updated in place (Engine::updateStream: it
// reconnects with the new settings and keeps its counters and histogram; a change only to its
// `notify` destinations is stored without a reconnect), and an unchanged
// one is left alone: its connection and counters go on as if nothing happened. A renamed
// stream is one removed and one added. Used by `streamscope --headless` on SIGHUP.
//
// Thread contract: called on the Engine's thread. Holds no state of its own besides the
// name-to-id map the caller keeps between reloads.

#include "StreamConfig.h"
#include "StreamTypes.h"

#include <QtCore/QHash>
#include <QtCore/QString>
#include <QtCore/QVector>

namespace streamscope {
class Engine;
}

namespace streamscope::app {

struct WorkspaceChanges {
    int added = 0;
    int removed = 0;
    int changed = 0;      // reconnected with the new settings
    int destinations = 0; // only where its alerts are sent changed: no reconnect
    int unchanged = 0;
};

// Brings `engine` from the streams in `ids` (name → id, updated here) to `streams`.
WorkspaceChanges applyWorkspaceStreams(Engine &engine, QHash<QString, StreamId> &ids,
                                       const QVector<StreamConfig> &streams);

} // namespace streamscope::app
