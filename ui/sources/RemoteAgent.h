#pragma once

// One headless agent (`streamscope --headless --metrics-port N`) watched from the desktop
// application: polls its GET /api/v1/streams once a second and turns each stream of the
// answer into a StreamSnapshot, so that the table, the charts, the details pane and the alert
// rules show it beside the local streams, read-only. Its streams' ids come from a block of
// their own (isRemoteStream), stable per stream name; their names carry the agent's
// (" @ agent"). An agent that does not answer keeps its rows, as failed, with the reason.
//
// Thread contract: GUI thread only; the requests are asynchronous (QNetworkAccessManager), so
// an agent that is slow or gone never holds the window up; every request has a timeout and
// an answer is read up to kMaxReplyBytes.

#include "StreamSnapshot.h"

#include <QtCore/QHash>
#include <QtCore/QObject>
#include <QtCore/QUrl>
#include <QtNetwork/QSslCertificate>

#include <memory>

class QNetworkAccessManager;
class QNetworkReply;
class QTimer;

namespace streamscope::ui {

// Remote streams' ids: agent k (0, 1, ...) has the block kFirstRemoteId + k · kIdsPerAgent.
constexpr StreamId kFirstRemoteId = 0xF000'0000u;
constexpr StreamId kIdsPerAgent = 0x1'0000u;
constexpr bool isRemoteStream(StreamId id)
{
    return id >= kFirstRemoteId;
}

class RemoteAgent : public QObject {
    Q_OBJECT
public:
    static constexpr int kPollMs = 1000;
    static constexpr int kTimeoutMs = 5000;
    static constexpr qint64 kMaxReplyBytes = 64 * 1024 * 1024;

    struct Settings {
        QString name;                          // shown after each stream's name
        QUrl url;                              // http(s)://host:port of the agent's metrics endpoint
        QByteArray basicAuth;                  // "user:password", empty: none
        QList<QSslCertificate> caCertificates; // trusted besides the system's (https)
        // What a workspace saves (AgentConfig): the user, the password's reference and the CA
        // file. A reference is resolved for each request, so a keychain entry that arrives
        // late is used from the next poll on; set, it takes the place of basicAuth.
        QString user;
        QString passwordRef;
        QString caFile;
    };

    RemoteAgent(const Settings &settings, int index, QObject *parent = nullptr);
    ~RemoteAgent() override;

    const Settings &settings() const { return m_settings; }
    // The agent's streams as of its last answer (or failed rows since it stopped answering).
    const QVector<StreamSnapshot> &streams() const { return m_streams; }
    // "connected", or why not ("HTTP 401: wrong user or password", "connection refused", ...).
    QString status() const { return m_status; }
    bool isConnected() const { return m_connected; }
    void pollNow();

    // Reads an answer of GET /api/v1/streams (docs/operations.md) into snapshots named
    // "NAME @ agent". False, with `error` set, when it is not such an answer.
    bool parse(const QByteArray &json, QVector<StreamSnapshot> *out, QString *error);

signals:
    // Connected, or not any more (its rows turned failed), or the reason changed.
    void statusChanged(const QString &agent, const QString &status, bool connected);
    // streams() changed: the agent answered, or its rows turned failed.
    void streamsChanged();

private:
    void onFinished(QNetworkReply *reply);
    // Its rows turn failed, with `error` as the reason.
    void fail(const QString &error);
    void setStatus(const QString &status, bool connected);
    StreamId idFor(const QString &name);

    Settings m_settings;
    StreamId m_idBase;
    QNetworkAccessManager *m_network = nullptr;
    QTimer *m_timer = nullptr;
    QNetworkReply *m_pending = nullptr;
    QHash<QString, StreamId> m_ids;
    StreamId m_nextOffset = 1; // the next id of the block (ids are never reused)
    QVector<StreamSnapshot> m_streams;
    QString m_status;
    bool m_connected = false;
    qint64 m_lastTakenNs = 0;
};

} // namespace streamscope::ui
