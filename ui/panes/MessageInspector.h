#pragma once

// The message inspector dock: a live tail of the selected stream, refreshed at most ten
// times a second from Engine::takeInspected() (never a repaint per message), with freeze
// and resume (capture goes on), a text or regex filter, and the selected message
// pretty-printed with its receive time and latency. Everything is shown as plain text.
// Turns the engine's inspector tap on only while it is visible and has a stream.
// GUI thread only; does not own the engine.

#include "StreamRecords.h"
#include "StreamTypes.h"

#include <QtCore/QPointer>
#include <QtWidgets/QWidget>

class QAction;
class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSplitter;
class QTableView;
class QTimer;
class QToolButton;

namespace streamscope {
class Engine;
}

namespace streamscope::ui {

class InspectorModel;

class MessageInspector : public QWidget {
    Q_OBJECT
public:
    static constexpr int kRefreshMs = 100;
    static constexpr int kSideBySideWidth = 1000; // narrower: the message below the list

    explicit MessageInspector(Engine *engine, QWidget *parent = nullptr);
    ~MessageInspector() override;

    // `unavailable`: why the stream's messages cannot be shown here (an agent's stay on its
    // machine); the pane names the stream and says so. A new stream ends a freeze.
    void setStream(StreamId id, const QString &name, const QString &unavailable = QString());
    // An open capture's messages (File → Open capture), kept within the model's capacity;
    // `leftOut` older ones of the capture are not shown, and the counts line says so.
    void showOffline(StreamId id, const QString &name, const QVector<InspectedMessage> &messages, quint64 leftOut);
    StreamId stream() const { return m_stream; }
    InspectorModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    QLineEdit *filterEdit() const { return m_filter; }
    QPlainTextEdit *detail() const { return m_detail; }
    QAction *freezeAction() const { return m_freezeAction; }

    // Pulls what the engine captured; called by the timer, public for tests.
    void poll();

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;
    void resizeEvent(QResizeEvent *event) override; // the message below the list when narrow

private:
    void updateTap();
    void applyFilter();
    // The user chose a row (click, keys): the detail pane shows that message until they
    // choose another. Rows moving or going (trimmed, filtered, resumed) never change it.
    void onCurrentRowChanged();
    void showRow(int row);
    void highlightDetail(); // the filter's matches in the message shown
    void reselectShown();
    void updateCounts();
    void copySelected();

    QPointer<Engine> m_engine;
    StreamId m_stream = kInvalidStreamId;
    StreamId m_tapped = kInvalidStreamId;
    InspectorModel *m_model = nullptr;
    QTableView *m_view = nullptr;
    QSplitter *m_split = nullptr;
    QPlainTextEdit *m_detail = nullptr;
    QLabel *m_detailHeader = nullptr;
    QLabel *m_title = nullptr;
    QLabel *m_counts = nullptr;
    QLabel *m_filterError = nullptr;
    QLineEdit *m_filter = nullptr;
    QCheckBox *m_regex = nullptr;
    QCheckBox *m_matchCase = nullptr;
    QToolButton *m_freeze = nullptr;
    QAction *m_freezeAction = nullptr; // holds the shortcut: a button's setText() would reset it
    QTimer *m_timer = nullptr;
    quint64 m_shownSeq = 0;  // the message in the detail pane; 0 none
    QString m_offlineNote;   // showOffline(): what of the capture is not shown
    QString m_unavailable;   // setStream(): why this stream's messages cannot be shown
    int m_modelChanging = 0; // inside a change of the model's rows: current changes are not the user's
};

} // namespace streamscope::ui
