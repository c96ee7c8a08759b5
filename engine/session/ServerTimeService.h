#pragma once

// The server-time probes of one worker, shared by URL: a thousand streams to one venue host
// on one worker make one probe and four requests a minute, not four thousand.
//
// Thread contract: one worker thread; the probes it hands out live on that thread and die
// with their last user (the service keeps only weak references).

#include "Clock.h"
#include "ServerTimeProbe.h"

#include <QtCore/QHash>
#include <QtCore/QString>

#include <memory>

namespace streamscope {

class ServerTimeService {
public:
    explicit ServerTimeService(const Clock &clock = SystemClock::instance())
        : m_clock(clock)
    {
    }

    // The probe for `url` (new, or the one other streams use); `tlsKey` tells TLS
    // configurations apart (the stream's extra CA file).
    std::shared_ptr<ServerTimeProbe> probe(const QUrl &url, const QSslConfiguration &tls, const QString &tlsKey)
    {
        const QString key = url.toString() + QLatin1Char('\n') + tlsKey;
        if (auto existing = m_probes.value(key).lock())
            return existing;
        auto created = std::make_shared<ServerTimeProbe>(url, tls, m_clock);
        // Forget expired entries now and then, so the table stays as small as the live probes.
        for (auto it = m_probes.begin(); it != m_probes.end();)
            it = it->expired() ? m_probes.erase(it) : std::next(it);
        m_probes.insert(key, created);
        return created;
    }

private:
    const Clock &m_clock;
    QHash<QString, std::weak_ptr<ServerTimeProbe>> m_probes;
};

} // namespace streamscope
