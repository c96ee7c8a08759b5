#pragma once

// The message inspector dock: a live tail of the selected stream, refreshed at most ten
// times a second from Engine::takeInspected() (never a repaint per message), with freeze
// and resume (capture goes on), a text or regex filter, and the selected message
// pretty-printed with its receive time and latency. Everything is shown as plain text.
// Turns the engine's inspector tap on only while it is visible and has a stream.
// GUI thread only; does not own the engine.

#include "StreamTypes.h"

#include <QtCore/QPointer>
#include <QtWidgets/QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
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

    explicit MessageInspector(Engine *engine, QWidget *parent = nullptr);
    ~MessageInspector() override;

    void setStream(StreamId id, const QString &name);
    StreamId stream() const { return m_stream; }
    InspectorModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    QLineEdit *filterEdit() const { return m_filter; }
    QPlainTextEdit *detail() const { return m_detail; }

    // Pulls what the engine captured; called by the timer, public for tests.
    void poll();

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    void updateTap();
    void applyFilter();
    void showCurrent();
    void updateCounts();
    void copySelected();

    QPointer<Engine> m_engine;
    StreamId m_stream = kInvalidStreamId;
    StreamId m_tapped = kInvalidStreamId;
    InspectorModel *m_model = nullptr;
    QTableView *m_view = nullptr;
    QPlainTextEdit *m_detail = nullptr;
    QLabel *m_detailHeader = nullptr;
    QLabel *m_title = nullptr;
    QLabel *m_counts = nullptr;
    QLabel *m_filterError = nullptr;
    QLineEdit *m_filter = nullptr;
    QCheckBox *m_regex = nullptr;
    QToolButton *m_freeze = nullptr;
    QTimer *m_timer = nullptr;
};

} // namespace streamscope::ui
