#pragma once

// The peer clients of streamscope-bench (issue 15): other stacks reading the same replay server
// in the same run, each speaking streamscope-bench-client's protocol (same options, one JSON
// object on the last line of standard output), so that the driver runs them as clients.
//   node-ws, node-ws-parse:             node + the `ws` package (bench/peers/node-ws.mjs)
//   py-websockets, py-websockets-parse: /usr/bin/python3 + python3-websockets
//                                       (bench/peers/py-websockets.py)
// "-parse": every message through the stack's usual JSON parser, its event time `E` read.
// Websocket (ws:// and wss://) only.
//
// Thread contract: main thread (it runs short probe processes).

#include <QtCore/QHash>
#include <QtCore/QString>
#include <QtCore/QStringList>

namespace streamscope::bench {

class PeerClients {
public:
    struct Command {
        QString program;
        QStringList args;
    };

    // peersDir: where the scripts and node_modules are; node/python: the interpreters
    // (empty: `node` or `nodejs` on PATH; /usr/bin/python3).
    PeerClients(QString peersDir, QString node = QString(), QString python = QString());

    static QStringList names();
    static bool isPeer(const QString &client);

    // Empty when the peer can run here, else why not (one line, for "skipped: ...").
    QString missing(const QString &client);
    // The command that runs `client` on a websocket URL (caFile: trusted for wss://).
    Command command(const QString &client, const QString &url, quint64 count, double timeoutS,
                    const QString &caFile) const;

private:
    QString family(const QString &client) const;

    QString m_dir;
    QString m_node;
    QString m_python;
    QHash<QString, QString> m_missing; // family → reason ("" = available), probed once
};

} // namespace streamscope::bench
