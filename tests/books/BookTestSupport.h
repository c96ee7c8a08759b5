#pragma once

// What the order-book loopback tests read and run beside the engine: levels written as text,
// an instrument's book in the engine's snapshot, and headless mode's alert service on the
// books' conditions.
//
// Thread contract: the test's thread; BookAlerts needs its event loop to run.

#include "AlertMonitor.h"
#include "AlertService.h"
#include "Engine.h"
#include "Report.h"
#include "StreamSnapshot.h"
#include "Workspace.h"

#include <QtCore/QDateTime>
#include <QtCore/QElapsedTimer>
#include <QtCore/QHash>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QPair>
#include <QtCore/QString>
#include <QtCore/QStringList>
#include <QtCore/QTimer>

#include <initializer_list>
#include <utility>

namespace streamscope::testing {

// A book side's levels as a venue writes them: price text, size text.
using Levels = QList<QPair<QString, QString>>;

inline Levels levels(std::initializer_list<std::pair<const char *, const char *>> list)
{
    Levels out;
    for (const auto &[p, q] : list)
        out.append({QString::fromLatin1(p), QString::fromLatin1(q)});
    return out;
}

// The engine's book of `instrument` on stream `id`; an empty status if it keeps none.
inline BookStatus bookOf(const Engine &engine, StreamId id, const QString &instrument)
{
    for (const BookStatus &b : engine.snapshot(id).books)
        if (b.instrument == instrument)
            return b;
    return {};
}

// Headless mode's alert service fed the engine's snapshots every 100 ms, with one rule for every
// stream: each of `conditions` (the workspace's keys, "book_desync"), cleared after 1 s.
class BookAlerts {
public:
    BookAlerts(Engine &engine, const QStringList &conditions)
        : m_engine(engine)
    {
        QJsonObject rule{{QStringLiteral("stream"), QStringLiteral("*")}, {QStringLiteral("clear_after_s"), 1}};
        for (const QString &condition : conditions)
            rule.insert(condition, true);
        Workspace ws;
        ws.alerts = QJsonArray{rule};
        QString error;
        if (!m_service.configure(ws, false, &error))
            qFatal("alert rules: %s", qPrintable(error));
        QObject::connect(&m_service, &alerts::AlertService::alertRaised, &m_service,
                         [this](StreamId, int condition, const alerts::AlertEvent &) { ++m_raised[condition]; });
        QObject::connect(&m_service, &alerts::AlertService::alertCleared, &m_service,
                         [this](StreamId, int condition, const alerts::AlertEvent &) { ++m_cleared[condition]; });
        m_steady.start();
        m_timer.setInterval(100);
        QObject::connect(&m_timer, &QTimer::timeout, &m_service, [this] {
            m_service.evaluate(m_engine.snapshot(true), QDateTime::currentMSecsSinceEpoch(), m_steady.elapsed());
        });
        m_timer.start();
    }
    int raised(alerts::AlertMonitor::Condition c) const { return m_raised.value(int(c)); }
    int cleared(alerts::AlertMonitor::Condition c) const { return m_cleared.value(int(c)); }
    QJsonObject report() const
    {
        QJsonObject r = app::buildReport(m_engine.snapshot(true), 1.0);
        m_service.addToReport(r);
        return r;
    }

private:
    Engine &m_engine;
    alerts::AlertService m_service;
    QElapsedTimer m_steady;
    QTimer m_timer;
    QHash<int, int> m_raised;
    QHash<int, int> m_cleared;
};

} // namespace streamscope::testing
