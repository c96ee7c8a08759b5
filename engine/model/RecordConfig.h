#pragma once

// Recording a stream to disk (docs/capture.md): what the workspace's "record" object and
// `--record DIR` ask for, and what a snapshot shows of a recording. Plain values.

#include <QtCore/QString>

namespace streamscope {

struct RecordConfig {
    QString dir;          // the folder the captures go to; empty: not recording
    bool enabled = true;  // "enabled": false turns a top-level record off for one stream
    qint64 rotateMb = 0;  // a new file once the current one holds this many MiB; 0 never
    qint64 rotateS = 0;   // a new file once the current one is this old; 0 never
    bool compress = true; // zstd (.ndjson.zst); false: plain .ndjson
    int level = 1;        // zstd level, 1 (fastest) to 19
    int bufferMb = 8;     // the hand-off buffer between the stream's worker and the writer

    bool active() const { return enabled && !dir.isEmpty(); }
    bool operator==(const RecordConfig &o) const
    {
        return dir == o.dir && enabled == o.enabled && rotateMb == o.rotateMb && rotateS == o.rotateS
            && compress == o.compress && level == o.level && bufferMb == o.bufferMb;
    }
    bool operator!=(const RecordConfig &o) const { return !(*this == o); }
};

// What a snapshot shows of a stream's recording.
struct RecordStatus {
    bool on = false;          // the stream records
    QString file;             // the file being written (empty before the first one opens)
    quint64 files = 0;        // files opened so far (1 + rotations + reopenings after errors)
    quint64 bytesWritten = 0; // bytes written to disk, all files (compressed when compressing)
    quint64 messages = 0;     // messages written and flushed
    quint64 dropped = 0;      // messages not recorded: the buffer was full, or the file could not be written
    quint64 errors = 0;       // write errors (a folder not writable, a full disk, a file deleted)
    QString error;            // the last error, empty if none
    qint64 sinceMs = 0;       // epoch ms when the recording started
};

} // namespace streamscope
