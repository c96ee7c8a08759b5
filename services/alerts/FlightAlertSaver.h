#pragma once

// Saves a stream's flight recorder when one of its alerts fires (docs/alerts.md): the last
// minutes before the alert are kept on disk, at most once per stream every
// FlightConfig::alertSaveEveryS seconds, so that a flapping alert does not fill the disk.
// AlertService owns one, for the desktop app and headless mode alike.
//
// Thread contract: the Engine's thread (the GUI or headless main thread).

#include "StreamTypes.h"

#include <QtCore/QHash>
#include <QtCore/QString>

namespace streamscope {
class Engine;
}

namespace streamscope::alerts {

class FlightAlertSaver {
public:
    explicit FlightAlertSaver(Engine *engine = nullptr)
        : m_engine(engine)
    {
    }
    void setEngine(Engine *engine) { m_engine = engine; }
    // Where saves go when the flight recorder's settings name no folder (the desktop app's
    // recording folder); empty: the current folder.
    void setFallbackDir(const QString &dir) { m_fallbackDir = dir; }

    // The file the stream's flight recorder is being saved to for an alert raised now
    // (`steadyMs`, monotonic), or empty: no engine, the flight recorder is off, or the stream
    // was saved for an alert less than alertSaveEveryS ago.
    QString saveForAlert(StreamId id, qint64 steadyMs);
    void forget(StreamId id) { m_lastSaveMs.remove(id); }

private:
    Engine *m_engine = nullptr;
    QString m_fallbackDir;
    QHash<StreamId, qint64> m_lastSaveMs;
};

} // namespace streamscope::alerts
