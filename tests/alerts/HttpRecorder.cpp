#include "HttpRecorder.h"

#include <QtCore/QDateTime>
#include <QtNetwork/QTcpSocket>

HttpRecorder::HttpRecorder(QObject *parent)
    : QObject(parent)
{
    connect(&m_server, &QTcpServer::newConnection, this, &HttpRecorder::onConnection);
}

bool HttpRecorder::listen()
{
    return m_server.listen(QHostAddress::LocalHost, 0);
}

QString HttpRecorder::url(const QString &path) const
{
    return QStringLiteral("http://127.0.0.1:%1%2").arg(port()).arg(path);
}

void HttpRecorder::script(const QList<Answer> &answers)
{
    m_script.assign(answers.begin(), answers.end());
}

void HttpRecorder::onConnection()
{
    while (QTcpSocket *socket = m_server.nextPendingConnection()) {
        auto buffer = std::make_shared<QByteArray>();
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        connect(socket, &QTcpSocket::readyRead, this, [this, socket, buffer] {
            *buffer += socket->readAll();
            const qsizetype headEnd = buffer->indexOf("\r\n\r\n");
            if (headEnd < 0)
                return;
            Request r;
            const QList<QByteArray> lines = buffer->left(headEnd).split('\n');
            const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
            r.method = first.value(0);
            r.path = first.value(1);
            for (qsizetype i = 1; i < lines.size(); ++i) {
                const qsizetype colon = lines[i].indexOf(':');
                if (colon > 0)
                    r.headers.insert(lines[i].left(colon).trimmed().toLower(), lines[i].mid(colon + 1).trimmed());
            }
            const qsizetype length = r.headers.value("content-length").toLongLong();
            if (buffer->size() < headEnd + 4 + length)
                return;
            r.body = buffer->mid(headEnd + 4, length);
            r.receivedMs = QDateTime::currentMSecsSinceEpoch();
            buffer->clear();
            Answer a;
            if (!m_script.empty()) {
                a = m_script.front();
                m_script.pop_front();
            }
            m_requests.append(r);
            emit received();
            if (a.status == 0)
                return;
            socket->write("HTTP/1.1 " + QByteArray::number(a.status) + " Scripted\r\nContent-Length: 2\r\n"
                          + a.extraHeaders + "Connection: close\r\n\r\nok");
            socket->disconnectFromHost();
        });
    }
}
