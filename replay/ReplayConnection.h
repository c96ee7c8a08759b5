#pragma once

#include "FrameSet.h"
#include "ReplayOptions.h"
#include "WebSocketFrameParser.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QStringList>

#include <memory>

class QTcpSocket;
class QTimer;

namespace streamscope::replay {

class ReplayServer;
class ScenarioPool;

// One client of the replay server: a websocket (our own RFC 6455 server side, see
// ReplayServer) or a CRLF-line session, plain or TLS. It answers the client's control
// messages and sends the scenario's pre-serialized frames, as fast as the socket takes them
// (kept 1-4 MB ahead of the kernel, refilled on bytesWritten) or paced by a token bucket. The
// session and control: ReplayConnection.cpp; the data stream: ReplayConnectionData.cpp; plain
// HTTP GETs (server time, depth snapshots) are answered from ScenarioRest.h.
// Thread contract: lives on the server's thread, created and driven only there. Owns its
// socket; deletes itself (deleteLater) once the socket is disconnected.
class ReplayConnection : public QObject {
    Q_OBJECT
public:
    ReplayConnection(QTcpSocket *socket, const ReplayOptions &serverOptions, quint64 serial, ReplayServer *server);
    ~ReplayConnection() override;

    // Begins the session (the socket is connected, and encrypted for TLS).
    void start();
    void abortNow();
    void setSilent(bool silent);

signals:
    void opened(); // handshake done (websocket) or session started (lines)
    void closed(); // the socket is gone; emitted once, and only after opened()
    void controlReceived(const QString &text);

private:
    enum class Event { None = 0, Silent, Drop, BadFrame, InvalidUtf8, Oversized, Gap, Shutdown };

    void onReadyRead();
    void onBytesWritten();
    void onDisconnected();
    void onPaceTick();
    void onPingTick();

    // The websocket upgrade, or a plain GET that ScenarioRest.h answers.
    bool handleHttpRequest();
    // An answer to a plain HTTP request, closing the connection when the client asked to.
    void answerHttp(const QByteArray &head, const QByteArray &status, const QByteArray &body);
    quint64 venueNowMs() const; // the server's clock: now plus the clock offset
    void rejectHttp(const QByteArray &status, const QByteArray &body);
    void handleClientMessage(const WebSocketFrameParser::Message &message);
    void handleBinanceControl(const QByteArray &text);
    // A scenario whose venue answers its own requests (ScenarioSpecials::control).
    void handleVenueControl(const QByteArray &text);
    void handleLine(const QByteArray &line);
    void sendControl(const QByteArray &json);
    void sendCloseAndFinish(quint16 code);

    bool setupStream(const ReplayOptions &options, QString *error);
    void beginData();
    bool canSend() const;
    quint64 pacedAllowance() const;
    void pump();
    void writeBatch(quint64 limit);
    const FrameSet::Frame &pickFrame(quint64 index);
    void fireEvent();
    void resumeFromSilence();
    void resetPacing();
    // The server's pace ticker calls onPaceTick() at a tenth of the spacing (paced streams).
    void startPaceTicks();
    void stopPaceTicks();
    void maybeFinishDrop();
    void startAgeLimit();
    void sendPerStream(const QStringList &streams);

    QPointer<QTcpSocket> m_socket;
    QPointer<ReplayServer> m_server;
    ReplayOptions m_serverOptions;
    ReplayOptions m_options;
    quint64 m_serial = 0;
    bool m_webSocket = true;
    QString m_requestTarget; // websocket: path and query of the upgrade request

    // Session
    QByteArray m_input; // handshake bytes, or partial lines
    bool m_handshakeDone = false;
    bool m_open = false;
    bool m_closing = false; // a close frame was sent or the session is ending
    bool m_closedEmitted = false;
    WebSocketFrameParser m_parser;
    QStringList m_subscriptions;
    bool m_authenticated = false;
    QTimer *m_pingTimer = nullptr;

    // Data stream
    std::shared_ptr<const ScenarioPool> m_pool;
    std::shared_ptr<const FrameSet> m_frames;
    quint64 m_target = 0; // messages to send on this connection
    quint64 m_sent = 0;
    quint64 m_poolIndex = 0;
    quint64 m_depthSeq = 0;  // depth-diff updates emitted (sequence numbers derive from it)
    bool m_numbered = false; // the messages name their instrument (depth_books): sent in turn
    quint64 m_clk = 0;
    bool m_resubscribed = false; // Betfair: the subscription carried clk/initialClk
    bool m_dataStarted = false;
    bool m_halted = false; // after a fatal frame: no more data, wait for the close
    bool m_serverSilent = false;
    bool m_eventSilent = false;
    bool m_dropPending = false;
    Event m_event = Event::None;
    bool m_eventArmed = false;
    bool m_badJson = false;
    char m_nowMsText[16] = {};    // the send time in ms, 13 digits, once per batch
    char m_nowTimeText[32] = {};  // the same as RFC 3339 text, kTimeTextWidth characters
    quint64 m_heartbeatMs = 5000; // Betfair: as requested by the subscription, echoed
    quint64 m_perStreamSerial = 0;
    quint64 m_apiRequests = 0; // websocket-API requests (string ids) answered

    int m_paceHandle = -1; // in the server's PaceTicker while paced
    QElapsedTimer m_paceClock;
    QElapsedTimer m_dataClock; // since the data began (lag_ms_per_s)
    quint64 m_paceBase = 0;
};

} // namespace streamscope::replay
