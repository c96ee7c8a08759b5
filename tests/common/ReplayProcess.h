#pragma once

// A `streamscope-replay` child process for tests that run StreamScope's executables; the
// port comes from its first line ("port N"). The including test defines REPLAY_BIN.

#include "TimeFactor.h"

#include <QtCore/QProcess>
#include <QtCore/QStringList>

namespace streamscope::testing {

class ReplayProcess {
public:
    explicit ReplayProcess(const QStringList &args = {})
    {
        m_process.start(QStringLiteral(REPLAY_BIN), QStringList{QStringLiteral("--port"), QStringLiteral("0")} + args);
        if (m_process.waitForReadyRead(scaledMs(10000))) {
            const QString line = QString::fromUtf8(m_process.readLine()).trimmed();
            if (line.startsWith(QLatin1String("port ")))
                m_port = line.mid(5).toUShort();
        }
    }
    ~ReplayProcess()
    {
        m_process.terminate();
        if (!m_process.waitForFinished(5000))
            m_process.kill();
    }
    quint16 port() const { return m_port; }

private:
    QProcess m_process;
    quint16 m_port = 0;
};

} // namespace streamscope::testing
