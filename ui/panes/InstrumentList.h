#pragma once

// The instruments of a combined stream in the details pane (docs/freshness.md, "Instruments that
// go quiet"): one compact row each (name, messages, stale, stale episodes), the stale ones marked
// in the alert colour with "stale" spelt out, and a title that counts them ("Instruments: 3,
// 1 stale"). Hidden for a stream with fewer than two instruments, which has no neighbours to
// go quiet beside. Rows are updated in place, in the order the engine first saw them, so that a
// selection or a scroll position stays put.
// GUI thread only.

#include "InstrumentStatus.h"

#include <QtCore/QHash>
#include <QtCore/QVector>
#include <QtWidgets/QWidget>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace streamscope::ui {

class InstrumentList : public QWidget {
    Q_OBJECT
public:
    enum Column { ColInstrument = 0, ColMessages, ColStale, ColEpisodes, ColCount };

    explicit InstrumentList(QWidget *parent = nullptr);

    void setInstruments(const QVector<InstrumentStatus> &instruments, quint64 untracked);
    void clear();

    QTreeWidget *view() const { return m_view; }
    QString title() const;

private:
    QLabel *m_title = nullptr;
    QTreeWidget *m_view = nullptr;
    QHash<QString, QTreeWidgetItem *> m_rows; // by instrument
};

} // namespace streamscope::ui
