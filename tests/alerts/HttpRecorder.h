#pragma once

// A loopback HTTP/1.1 server for the notification tests: records every request it receives
// (method, path, headers, body, arrival time) and answers with scripted statuses (200 when
// the script is empty). One request per connection, answered with "Connection: close".
// Lives on the test's thread.

#include <QtCore/QByteArray>
#include <QtCore/QHash>
#include <QtCore/QList>
#include <QtCore/QObject>
#include <QtNetwork/QTcpServer>

#include <deque>

class HttpRecorder : public QObject {
    Q_OBJECT
public:
    struct Request {
        QByteArray method;
        QByteArray path;
        QHash<QByteArray, QByteArray> headers; // lower-case names
        QByteArray body;
        qint64 receivedMs = 0; // epoch ms
    };
    struct Answer {
        int status = 200;        // 0: no answer at all (the connection is held open)
        QByteArray extraHeaders; // "Retry-After: 1\r\n"
    };

    explicit HttpRecorder(QObject *parent = nullptr);
    bool listen();
    quint16 port() const { return m_server.serverPort(); }
    QString url(const QString &path) const;

    // Answers for the next requests, in order; then 200.
    void script(const QList<Answer> &answers);
    const QList<Request> &requests() const { return m_requests; }
    int count() const { return int(m_requests.size()); }

signals:
    void received();

private:
    void onConnection();

    QTcpServer m_server;
    QList<Request> m_requests;
    std::deque<Answer> m_script;
};
