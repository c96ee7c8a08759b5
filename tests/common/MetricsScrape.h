#pragma once

// One plain HTTP GET of a headless run's /metrics on loopback (the endpoint answers HTTP/1.0
// and closes): the whole answer, head and body, or empty when nothing listens.

#include <QtCore/QByteArray>
#include <QtNetwork/QHostAddress>
#include <QtNetwork/QTcpSocket>

namespace streamscope::testing {

inline QByteArray scrapeMetrics(quint16 port)
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, port);
    if (!socket.waitForConnected(5000))
        return {};
    socket.write("GET /metrics HTTP/1.0\r\nAccept: text/plain;version=0.0.4\r\n\r\n");
    QByteArray answer;
    while (socket.waitForReadyRead(5000))
        answer += socket.readAll();
    return answer;
}

} // namespace streamscope::testing
