#pragma once

// The stream dialog's generic page: any ws/wss/tcp/tls URL, request headers, messages to
// send after connect and the latency field (a JSON pointer and its unit). It can show any
// stream, so the dialog falls back to it for a stored stream no other page represents.
// Owns its widgets only.
//
// Thread contract: GUI thread only.

#include "StreamConfig.h"

#include <QtWidgets/QWidget>

class QComboBox;
class QLineEdit;
class QPlainTextEdit;

namespace streamscope::ui {

class GenericPage : public QWidget {
    Q_OBJECT
public:
    explicit GenericPage(QWidget *parent = nullptr);

    void fromConfig(const StreamConfig &config);
    // Only the latency field and unit: a stream shown on another page keeps them here, so
    // they are still there if the user switches to this page.
    void setLatency(const QString &pointer, LatencyUnit unit);
    // Sets venue (Generic), url, headers, sendOnConnect, latencyField and latencyUnit of
    // `config`; false and `error` when an input is invalid.
    bool toConfig(StreamConfig &config, QString *error) const;
    // The URL's host, or "stream".
    QString suggestedName() const;

signals:
    // The URL changed (the dialog updates its name suggestion).
    void changed();

private:
    QLineEdit *m_url = nullptr;
    QPlainTextEdit *m_headers = nullptr;
    QPlainTextEdit *m_sendOnConnect = nullptr;
    QLineEdit *m_latencyField = nullptr;
    QComboBox *m_latencyUnit = nullptr;
};

} // namespace streamscope::ui
