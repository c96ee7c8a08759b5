#include "Clients.h"

#include "BenchClock.h"
#include "ClientSupport.h"

#include "TlsConfiguration.h"

#include <QtCore/QEventLoop>
#include <QtCore/QTimer>
#include <QtNetwork/QSslSocket>
#include <QtWebSockets/QWebSocket>

#include <vector>

namespace streamscope::bench {

// qws over a websocket; over TLS lines, the transport library's own limit is QSslSocket
// with readLine().
ThroughputWindow runQws(const QUrl &url, quint64 count, bool wireLines, double timeoutS)
{
    ThroughputWindow w;
    w.count = count;
    QEventLoop loop;
    std::vector<quint32> sizes;
    sizes.reserve(count);
    auto onMessage = [&](qsizetype size) {
        if (!w.received) {
            w.firstNs = monotonicNs();
            w.cpuFirstUs = processCpuUs();
            w.receivedAtFirst = 1;
        }
        ++w.received;
        sizes.push_back(quint32(size));
        if (w.received == count) {
            w.lastNs = monotonicNs();
            w.cpuLastUs = processCpuUs();
            loop.quit();
        }
    };
    QWebSocket ws;
    QSslSocket ssl;
    QByteArray buffer;
    bool dataStarted = false;
    if (isLineUrl(url)) {
        QString error;
        StreamConfig c = streamConfigFor(url, false, false);
        ssl.setSslConfiguration(tlsConfiguration(c, &error));
        QObject::connect(&ssl, &QSslSocket::encrypted, [&] {
            ssl.write("{\"op\":\"authentication\",\"id\":1,\"appKey\":\"app-key\",\"session\":\"session-token\"}\r\n"
                      "{\"op\":\"marketSubscription\",\"id\":2,\"marketFilter\":{\"marketIds\":[\"1.2345\"]}}\r\n");
        });
        QObject::connect(&ssl, &QSslSocket::readyRead, [&] {
            if (wireLines) {
                // wire: split lines in a reused buffer, count, nothing else.
                buffer += ssl.readAll();
                qsizetype start = 0;
                for (;;) {
                    const qsizetype nl = buffer.indexOf('\n', start);
                    if (nl < 0)
                        break;
                    if (!dataStarted && buffer.mid(start, 11) == "{\"op\":\"mcm\"")
                        dataStarted = true;
                    if (dataStarted)
                        onMessage(nl - start - 1);
                    start = nl + 1;
                    if (w.received >= count)
                        break;
                }
                buffer.remove(0, start);
            } else {
                while (ssl.canReadLine()) {
                    const QByteArray lineBytes = ssl.readLine();
                    if (!dataStarted && lineBytes.startsWith("{\"op\":\"mcm\""))
                        dataStarted = true;
                    if (dataStarted)
                        onMessage(lineBytes.size() - 2);
                    if (w.received >= count)
                        break;
                }
            }
        });
        ssl.connectToHostEncrypted(url.host(), quint16(url.port()), QStringLiteral("127.0.0.1"));
    } else {
        QObject::connect(&ws, &QWebSocket::textMessageReceived, [&](const QString &m) { onMessage(m.size()); });
        QObject::connect(&ws, &QWebSocket::binaryMessageReceived, [&](const QByteArray &m) { onMessage(m.size()); });
        if (isWssUrl(url)) {
            // The CA trusted and the peer verified, as the engine's transport does.
            QString error;
            ws.setSslConfiguration(tlsConfiguration(streamConfigFor(url, false, false), &error));
            QObject::connect(&ws, &QWebSocket::sslErrors, [&](const QList<QSslError> &errors) {
                w.error = QStringLiteral("TLS: ") + errors.value(0).errorString();
                loop.quit();
            });
        }
        ws.setMaxAllowedIncomingMessageSize(64 * 1024 * 1024);
        ws.setMaxAllowedIncomingFrameSize(64 * 1024 * 1024);
        ws.open(url);
    }
    QTimer::singleShot(int(timeoutS * 1000), &loop, [&] {
        w.error = QStringLiteral("timeout");
        loop.quit();
    });
    if (w.received < count)
        loop.exec();
    w.sizeMedian = quantile(sizes, 0.5);
    return w;
}

} // namespace streamscope::bench
