#pragma once

// Counts the layout requests a widget and its descendants receive while it is installed on
// the application: a tick that changes nothing on screen must ask for none (a label whose
// size follows its text, or a style sheet set again, lays out its window).

#include <QtCore/QCoreApplication>
#include <QtCore/QEvent>
#include <QtWidgets/QWidget>

namespace streamscope::testing {

class LayoutRequests : public QObject {
public:
    explicit LayoutRequests(QWidget *watched)
        : m_watched(watched)
    {
        QCoreApplication::instance()->installEventFilter(this);
    }
    ~LayoutRequests() override { QCoreApplication::instance()->removeEventFilter(this); }

    int count() const { return m_count; }

    bool eventFilter(QObject *o, QEvent *e) override
    {
        auto *w = qobject_cast<QWidget *>(o);
        if (e->type() == QEvent::LayoutRequest && w && (w == m_watched || m_watched->isAncestorOf(w)))
            ++m_count;
        return false;
    }

private:
    QWidget *m_watched = nullptr;
    int m_count = 0;
};

} // namespace streamscope::testing
