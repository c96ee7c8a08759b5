#pragma once

// Streams → Flight recorder…: on or off, how many minutes every stream keeps in memory, the
// one memory cap for all streams, the folder saves go to, and how often an alert may save a
// stream (docs/capture.md, "Flight recorder").
//
// Thread contract: GUI thread only. Owns its widgets.

#include "FlightConfig.h"

#include <QtWidgets/QDialog>

class QCheckBox;
class QLineEdit;
class QSpinBox;

namespace streamscope::ui {

class FlightRecorderDialog : public QDialog {
    Q_OBJECT
public:
    // `defaultDir`: where saves go when the folder is left empty (the recording folder).
    FlightRecorderDialog(const FlightConfig &current, const QString &defaultDir, QWidget *parent = nullptr);

    FlightConfig config() const;

private:
    QString m_defaultDir;
    QCheckBox *m_enabled = nullptr;
    QSpinBox *m_minutes = nullptr;
    QSpinBox *m_memoryMb = nullptr;
    QLineEdit *m_dir = nullptr;
    QSpinBox *m_alertEvery = nullptr;
};

} // namespace streamscope::ui
