#pragma once

// Turns SIGINT and SIGTERM (Ctrl-C, `kill`) into a Qt signal on the main thread, so that
// the headless runner can stop cleanly and still write its report. On Windows, Ctrl-C and
// console close events do the same.
//
// Thread contract: create one instance on the main thread.

#include <QtCore/QObject>

class QSocketNotifier;

namespace streamscope::app {

class TerminationSignals : public QObject {
    Q_OBJECT
public:
    explicit TerminationSignals(QObject *parent = nullptr);
    ~TerminationSignals() override;

signals:
    void terminationRequested(int signalNumber);

private:
    QSocketNotifier *m_notifier = nullptr;
};

} // namespace streamscope::app
