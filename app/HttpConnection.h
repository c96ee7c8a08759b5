#pragma once

// One client connection of the metrics endpoint: reads request heads within the limits,
// answers them one at a time through the handler, keeps the connection alive or closes it
// (Connection: close, HTTP/1.0 without keep-alive, any error), and drops a connection that is
// idle, slow to send its request or slow to take its response. Memory per connection is
// bounded by the head limits: no more is read from the socket than one head can hold, and
// nothing more is read while a response is being sent. It is busy while it sends an answer and
// waiting otherwise (busyChanged); the server closes waiting ones when it needs their slot
// (ConnectionSlots), after pollRequest() has taken a request that is already there.
//
// Thread contract: created, used and destroyed on the server's thread; owns its socket.
// Emits finished() once, after the socket is closed, then deletes itself later.

#include "HttpRequestHead.h"
#include "HttpServerLimits.h"

#include <QtCore/QByteArray>
#include <QtCore/QObject>

#include <functional>

class QTcpSocket;
class QTimer;

namespace streamscope::app {

struct HttpResponse {
    int status = 0;
    QByteArray contentType;   // empty: no Content-Type
    QByteArray body;          // sent only for GET; a HEAD answer has the same headers and no body
    QByteArray extraHeaders;  // whole lines with their CRLF, such as "Allow: GET, HEAD\r\n"
    bool closeAtOnce = false; // the connection is closed once the answer is handed to the kernel
};

// A short plain-text answer: the status's reason phrase as the body ("Not Found\n").
HttpResponse plainTextResponse(int status, QByteArray extraHeaders = {});

class HttpConnection : public QObject {
    Q_OBJECT
public:
    using Handler = std::function<HttpResponse(const HttpRequestHead &)>;

    // Takes ownership of `socket`, a connected socket.
    HttpConnection(QTcpSocket *socket, const HttpServerLimits &limits, Handler handler, QObject *parent = nullptr);
    ~HttpConnection() override;

    // Takes what the kernel holds for this connection now, without waiting, and answers a
    // request that is whole. True when the connection is busy answering, or closed.
    bool pollRequest();
    // Closes the connection now (its slot is needed).
    void close();

signals:
    void finished();
    void busyChanged(bool busy);

private:
    enum class Phase {
        Unknown = 0,
        Idle, // kept alive, waiting for a request
        ReadingHead,
        Writing,   // a response is being sent; nothing more is read
        Lingering, // answered and closing: our side is shut, what arrives is discarded
        Done,
    };

    void onReadyRead();
    void onBytesWritten();
    void onTimeout();
    void readAndParse();
    void respond(const HttpResponse &response, bool head, bool keepAlive, int versionMinor);
    void respondError(int status);
    void startLingering();
    void finish();
    void setPhase(Phase phase);
    static bool isBusy(Phase phase) { return phase == Phase::Writing; }

    QTcpSocket *m_socket;
    QTimer *m_timer;
    HttpServerLimits m_limits;
    Handler m_handler;
    QByteArray m_buffer; // the head being read (and any pipelined bytes after it)
    Phase m_phase = Phase::Unknown;
    bool m_keepAlive = false;
    bool m_closeAtOnce = false; // the answer being sent is the last: close once it is out
};

} // namespace streamscope::app
