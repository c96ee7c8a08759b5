#pragma once

// The server-time probes of one worker, shared by URL: a thousand streams to one venue host
// on one worker make one probe and four requests a minute, not four thousand. It owns the
// worker's QNetworkAccessManager, which all its probes use.
//
// Why init() starts the manager's network thread at once: Qt's network access manager does
// its HTTP work on a thread of its own, created on its first request, and a thread's event
// loop needs descriptors (an eventfd or a pipe) that Qt treats as fatal to lack. Started when
// the first stream that asks for the server time starts (before it even connects), that
// thread exists before a running stream could have used up the process's descriptors; a
// request made later without a descriptor left just fails and is counted. A worker whose
// streams ask for no server time has no manager and no extra thread.
//
// Thread contract: one worker thread; the probes it hands out live on that thread and die
// with their last user (the service keeps only weak references).

#include "Clock.h"
#include "ServerTimeProbe.h"

#include <QtCore/QHash>
#include <QtCore/QString>

#include <memory>

class QNetworkAccessManager;

namespace streamscope {

class ServerTimeService {
public:
    explicit ServerTimeService(const Clock &clock = SystemClock::instance());
    ~ServerTimeService();

    // On the worker thread: the network access manager and its thread (once; later calls do nothing).
    void init();
    // The worker's network access manager (init() first), for the streams' other REST requests
    // (order-book snapshots, session/BookKeeper).
    QNetworkAccessManager *networkManager()
    {
        init();
        return m_manager.get();
    }
    // On the worker thread, after its sessions are gone: the manager and its thread.
    void shutdown();

    // The probe for `url` read by `reader` (new, or the one other streams use); `tlsKey` tells
    // TLS configurations apart (the stream's extra CA file).
    std::shared_ptr<ServerTimeProbe> probe(const QUrl &url, ServerTimeReader reader, const QSslConfiguration &tls,
                                           const QString &tlsKey);

private:
    const Clock &m_clock;
    std::unique_ptr<QNetworkAccessManager> m_manager;
    QHash<QString, std::weak_ptr<ServerTimeProbe>> m_probes;
};

} // namespace streamscope
