#pragma once

#include <QElapsedTimer>
#include <QObject>

#include <deque>
#include <functional>
#include <map>
#include <vector>

class QTimer;

namespace streamscope::replay {

// One timer for every paced connection of a server. A timer per connection at a tenth of its
// spacing was a million timer events a second at 10,000 connections × 10 msgs/s: the server's
// one thread spent itself on them and answered handshakes so late that clients gave up and
// reconnected. Here one timer runs at the shortest interval asked for, and each pass calls
// the entries whose own interval has come (a comparison each for the others).
//
// Thread contract: the server's thread only; an entry's callback may add and remove entries.
class PaceTicker : public QObject {
    Q_OBJECT
public:
    explicit PaceTicker(QObject *parent = nullptr);
    ~PaceTicker() override;

    // `tick` runs every `intervalMs` (≥ 1) from now on, until remove(handle).
    int add(int intervalMs, std::function<void()> tick);
    void remove(int handle);
    int size() const { return m_live; }

private:
    struct Entry {
        std::function<void()> tick; // empty: a free slot
        qint64 intervalMs = 0;
        qint64 dueMs = 0;
    };
    void onTimeout();
    void restartTimer();

    QTimer *m_timer = nullptr;
    QElapsedTimer m_clock;
    std::deque<Entry> m_entries; // deque: a callback that adds one does not move the others
    std::vector<int> m_free;
    std::map<qint64, int> m_intervals; // interval → entries asking for it
    int m_live = 0;
};

} // namespace streamscope::replay
