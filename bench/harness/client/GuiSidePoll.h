#pragma once

// The poll the desktop window makes (ui/sources/SnapshotHub): ten times a second, reading only
// the streams that changed (Engine::changedSnapshots) into rows kept until the next reading
// replaces them — a row whose figures alone moved refreshed where it is, the others read
// whole into a buffer kept from one poll to the next — each poll with the latency of the
// tenth of the streams it is due for (id modulo 10), so that every stream's latency is read
// once a second. It counts what it read and times itself.
//
// Thread contract: the thread that polls (the scale client's main thread, as the GUI's).

#include "Engine.h"

#include <QtCore/QHash>
#include <QtCore/QJsonObject>
#include <QtCore/QVector>

#include <vector>

namespace streamscope::bench {

class GuiSidePoll {
public:
    explicit GuiSidePoll(Engine &engine);
    void poll();
    // polls, rows read and unchanged a poll, the poll's own time (p50, p99, max).
    void addTo(QJsonObject &out);

private:
    Engine &m_engine;
    Engine::SnapshotCursor m_cursor;
    QVector<StreamSnapshot> m_rows;
    QHash<StreamId, qsizetype> m_rowOf;
    QVector<StreamSnapshot> m_fresh; // the readings made whole
    QList<StreamId> m_refreshed;     // the rows refreshed in place
    quint64 m_polls = 0;
    quint64 m_readRows = 0;
    quint64 m_unchangedRows = 0;
    quint64 m_refreshedRows = 0;
    std::vector<double> m_pollMs;
};

} // namespace streamscope::bench
