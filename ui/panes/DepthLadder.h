#pragma once

// The order book pane (docs/user-guide.md, "Order book"): the depth ladder of one instrument of
// the selected stream (DepthLadderModel: the top 20 asks above the top 20 bids, sizes as bars, the
// levels that just changed flashing), a small depth chart (DepthChart), the book's state, update
// id and age, an instrument picker (the stream's books) and a Freeze toggle.
//
// Its data: Engine::requestBookDepth(), a copy of the top levels of one book made on the stream's
// worker and handed back queued (Engine::bookDepthReady). At most one request is out at a time,
// one every kRequestMs, and only while the pane is shown (its dock's tab current: setShown()),
// not frozen and has a book to show:
// nothing is copied otherwise. The instruments come from the stream's snapshot (its books'
// status), read on the SnapshotHub's ticks.
//
// Thread contract: GUI thread only. Does not own the engine (QPointer) or the hub.

#include "BookDepth.h"
#include "StreamTypes.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QPointer>
#include <QtWidgets/QWidget>

class QAction;
class QComboBox;
class QLabel;
class QSplitter;
class QTableView;
class QTimer;

namespace streamscope {
class Engine;
}

namespace streamscope::ui {

class DepthChart;
class DepthLadderModel;
class SnapshotHub;

class DepthLadder : public QWidget {
    Q_OBJECT
public:
    static constexpr int kRequestMs = 250;     // four copies a second at most
    static constexpr int kAnswerWaitMs = 2000; // a request unanswered this long is given up
    static constexpr int kFlashTickMs = 100;

    DepthLadder(Engine *engine, SnapshotHub *hub, QWidget *parent = nullptr);

    // The selected stream; `unavailable`: why its books cannot be shown here (an agent's stay on
    // its machine). A new stream ends a freeze and picks its first book.
    void setStream(StreamId id, const QString &name, const QString &unavailable = QString());
    StreamId stream() const { return m_stream; }
    QString instrument() const;
    void setInstrument(const QString &instrument);

    DepthLadderModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    DepthChart *chart() const { return m_chart; }
    QComboBox *instruments() const { return m_instruments; }
    QAction *freezeAction() const { return m_freeze; }
    // "update 1,234,567 · 0.1 s ago · synced · 1,000 bids, 998 asks", or why there is nothing.
    QString statusText() const;
    // The note shown instead of a ladder ("This stream keeps no order books."), empty when a book shows.
    QString note() const;
    // Requests sent so far (each answered by one copy); for tests.
    quint64 requestsSent() const { return m_requests; }
    // Whether it asks the engine for copies now (shown, not frozen, a book chosen).
    bool polling() const;

    // A request now, if one may go (visible, not frozen, a book chosen, none out); for the timer
    // and tests.
    void poll();
    // The hub's tick: the stream's books, for the picker.
    void refreshBooks();
    // Whether its dock shows it: a dock behind another's tab stays "visible" as a widget, so
    // the window passes on the dock's visibilityChanged (true when it has none).
    void setShown(bool shown);

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    void onDepth(const BookDepth &depth);
    void updateTimer();
    bool shown() const { return isVisible() && m_shown; }
    void setNote(const QString &note);
    void showStatus();

    QPointer<Engine> m_engine;
    SnapshotHub *m_hub = nullptr;
    StreamId m_stream = kInvalidStreamId;
    QString m_name;
    QString m_unavailable;
    DepthLadderModel *m_model = nullptr;
    QTableView *m_view = nullptr;
    DepthChart *m_chart = nullptr;
    QSplitter *m_split = nullptr;
    QLabel *m_title = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_note = nullptr;
    QComboBox *m_instruments = nullptr;
    QAction *m_freeze = nullptr;
    QTimer *m_timer = nullptr;
    QTimer *m_flashTimer = nullptr;
    QElapsedTimer m_clock;       // monotonic, for the flashes and the request's wait
    quint64 m_pending = 0;       // the request out, 0 none
    qint64 m_pendingSinceMs = 0; // on m_clock
    quint64 m_requests = 0;
    bool m_hasDepth = false;
    bool m_shown = true;
    bool m_centered = false; // the spread scrolled into view once for this book
};

} // namespace streamscope::ui
