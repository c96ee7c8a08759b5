#pragma once

// The captures opened in the desktop app (File → Open capture…): each one read on a worker
// thread (engine's analyzeCapture: the file line by line, bounded memory) with progress, then
// shown as an offline, read-only row beside the live streams. Their ids come from a block of
// their own (isCaptureStream), below the remote agents'; never reused while the window lives.
//
// Thread contract: GUI thread only; the reading threads report through queued calls, and the
// destructor cancels and waits for any still reading.

#include "CaptureAnalysis.h"
#include "RemoteAgent.h"
#include "StreamSnapshot.h"

#include <QtCore/QList>
#include <QtCore/QObject>

#include <atomic>
#include <memory>

class QThread;

namespace streamscope::ui {

// Captures' ids: kFirstCaptureId, kFirstCaptureId + 1, ... (below the remote agents' block).
constexpr StreamId kFirstCaptureId = 0xE000'0000u;
constexpr bool isCaptureStream(StreamId id)
{
    return id >= kFirstCaptureId && id < kFirstRemoteId;
}
// A row the engine does not run: a remote agent's or an open capture's (read-only).
constexpr bool isOfflineOrRemote(StreamId id)
{
    return id >= kFirstCaptureId;
}

class CaptureList : public QObject {
    Q_OBJECT
public:
    struct Capture {
        StreamId id = kInvalidStreamId;
        std::shared_ptr<const CaptureAnalysis> data;
        StreamSnapshot snap; // the row: counts, latency, state "capture"
    };

    explicit CaptureList(QObject *parent = nullptr);
    ~CaptureList() override;

    // Starts reading `path` on a worker thread; opened() or failed() follows.
    void open(const QString &path);
    int loading() const { return int(m_loads.size()); }
    // Closes the capture (its row goes at the SnapshotHub's next tick); false if there is no such one.
    bool close(StreamId id);
    const Capture *find(StreamId id) const;
    const QList<Capture> &captures() const { return m_captures; }
    QVector<StreamSnapshot> snapshots() const;

    // The row of a capture: name "STREAM (capture)", state Stopped with the reason saying what it is.
    static StreamSnapshot snapshotOf(const CaptureAnalysis &a, StreamId id);
    // What the status bar and the row's tooltip say of it: span, counts, what was left out.
    static QString summary(const CaptureAnalysis &a);

signals:
    void progress(const QString &path, int percent);
    void opened(streamscope::StreamId id);
    // Could not be read at all (not a capture, unreadable, empty).
    void failed(const QString &path, const QString &error);

private:
    struct Load {
        QString path;
        QThread *thread = nullptr;
        std::shared_ptr<std::atomic<bool>> cancel;
    };
    void finished(QThread *thread, const std::shared_ptr<CaptureAnalysis> &result);

    QList<Capture> m_captures;
    QList<Load> m_loads;
    StreamId m_nextId = kFirstCaptureId;
};

} // namespace streamscope::ui
