#pragma once

#include "CaptureFile.h"
#include "CaptureReader.h"

#include <QSet>
#include <QString>
#include <QStringList>

#include <deque>

namespace streamscope::replay {

// The capture that `streamscope-replay --file` serves, read while it is served and never held
// whole: a window of entries, from the one the slowest client still needs to the one the
// fastest asked for last. Entries carry an index that only grows (a --loop pass goes on
// counting). An entry is read when a client first asks for it, a slice of at most kSliceBytes
// of file and text per call, so that the event loop turns between slices whatever the file
// holds (a line that never ends, a zstd bomb). The window holds at most kMaxWindowBytes: a
// client that falls further behind the others skips ahead to the oldest entry kept.
// With loop, the end of the file starts a new pass from its first byte, on the same descriptor;
// a pass without a message ends the capture (it would spin forever).
// What the reading finds wrong (lines skipped, a file cut short, corrupt data, a lagging
// client) is kept for the server to report, each message once.
//
// Thread contract: one thread, the server's.
class CaptureWindow {
public:
    static constexpr qint64 kMaxLineBytes = 32LL * 1024 * 1024; // base64 of a 24 MiB message
    static constexpr qint64 kMaxWindowBytes = 64LL * 1024 * 1024;
    static constexpr qint64 kSliceBytes = 8LL * 1024 * 1024;
    static constexpr qint64 kFirstEntryBudget = 2 * kMaxLineBytes; // where the first line must be

    struct Item {
        CaptureFile::Entry entry;
        bool passStart = false; // the first entry of a pass: pacing starts over
    };
    enum class Status { Unknown = 0, Ready, More, End };

    // Opens the capture and reads its first entry (within kFirstEntryBudget of text). False,
    // with errorString() ("<path>: ..."), when there is none: the file is refused, empty, cut
    // short before its first line, not a capture, or corrupt.
    bool open(const QString &path, bool loop);
    bool isOpen() const { return m_open; }
    QString errorString() const { return m_error; }
    QString path() const { return m_reader.path(); }
    // The first line's "capture" event fields.
    QString venue() const { return m_venue; }
    QString url() const { return m_url; }
    // Line captures (a Betfair-style stream: venue betfair, or a tcp:// or tls:// URL).
    bool isLineCapture() const { return CaptureFile::isLineCapture(m_venue, m_url); }

    // The entry at *index, read now if it is the next one. A client that fell behind the
    // window has *index moved to the oldest entry kept. More: this call's slice of reading
    // ran out, ask again from a later turn of the event loop. End: the capture ended there.
    Status at(qint64 *index, const Item **item);
    // No client needs the entries before `index` any more.
    void release(qint64 index);
    // What went wrong since the last call, one line each, each said once ("<path>: ...").
    QStringList takeProblems();

    qint64 firstIndex() const { return m_first; }
    qint64 endIndex() const { return m_first + qint64(m_items.size()); }
    qint64 heldBytes() const { return m_bytes; }

private:
    Status readNext(qint64 budgetBytes);
    void endOfPass();
    void say(const QString &text);
    void problem(const QString &what); // about the file: its path first
    QString skippedText() const;

    capture::CaptureReader m_reader;
    std::deque<Item> m_items;
    QString m_error;
    QString m_venue;
    QString m_url;
    QStringList m_problems;
    QSet<QString> m_said;
    qint64 m_first = 0; // the index of m_items.front()
    qint64 m_bytes = 0;
    quint64 m_passMessages = 0;
    bool m_open = false;
    bool m_loop = false;
    bool m_ended = false;
    bool m_nextStartsPass = true;
    bool m_lagReported = false;
};

} // namespace streamscope::replay
