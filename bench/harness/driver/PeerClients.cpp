#include "PeerClients.h"

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QProcess>
#include <QtCore/QStandardPaths>

namespace streamscope::bench {

namespace {

const QString kNode = QStringLiteral("node-ws");
const QString kPython = QStringLiteral("py-websockets");
const QString kParse = QStringLiteral("-parse");

} // namespace

PeerClients::PeerClients(QString peersDir, QString node, QString python)
    : m_dir(std::move(peersDir))
    , m_node(std::move(node))
    , m_python(std::move(python))
{
    if (m_node.isEmpty()) {
        m_node = QStandardPaths::findExecutable(QStringLiteral("node"));
        if (m_node.isEmpty())
            m_node = QStandardPaths::findExecutable(QStringLiteral("nodejs"));
    }
    if (m_python.isEmpty())
        m_python = QStringLiteral("/usr/bin/python3"); // Debian's, with python3-websockets; not a pyenv one
}

QStringList PeerClients::names()
{
    return {kNode, kNode + kParse, kPython, kPython + kParse};
}

bool PeerClients::isPeer(const QString &client)
{
    return names().contains(client);
}

QString PeerClients::family(const QString &client) const
{
    return client.startsWith(kNode) ? kNode : kPython;
}

QString PeerClients::missing(const QString &client)
{
    const QString f = family(client);
    const auto known = m_missing.constFind(f);
    if (known != m_missing.cend())
        return known.value();
    QString why;
    const QDir dir(m_dir);
    if (f == kNode) {
        if (m_node.isEmpty())
            why = QStringLiteral("node is not installed (scripts/deps.sh --with-peers)");
        else if (!QFile::exists(dir.filePath(QStringLiteral("node-ws.mjs"))))
            why = QStringLiteral("%1 has no node-ws.mjs (--peers-dir)").arg(m_dir);
        else if (!QFile::exists(dir.filePath(QStringLiteral("node_modules/ws/package.json"))))
            why =
                QStringLiteral("the ws package is not installed in %1 (scripts/deps.sh --with-peers runs npm ci there)")
                    .arg(m_dir);
    } else {
        if (!QFile::exists(m_python)) {
            why = QStringLiteral("%1 is not installed").arg(m_python);
        } else if (!QFile::exists(dir.filePath(QStringLiteral("py-websockets.py")))) {
            why = QStringLiteral("%1 has no py-websockets.py (--peers-dir)").arg(m_dir);
        } else {
            QProcess probe;
            probe.start(m_python, {QStringLiteral("-c"), QStringLiteral("import websockets")});
            if (!probe.waitForFinished(20000) || probe.exitStatus() != QProcess::NormalExit || probe.exitCode() != 0) {
                probe.kill();
                why = QStringLiteral("%1 cannot import websockets (python3-websockets; scripts/deps.sh --with-peers)")
                          .arg(m_python);
            }
        }
    }
    m_missing.insert(f, why);
    return why;
}

PeerClients::Command PeerClients::command(const QString &client, const QString &url, quint64 count, double timeoutS,
                                          const QString &caFile) const
{
    const QDir dir(m_dir);
    Command c;
    if (family(client) == kNode) {
        c.program = m_node;
        c.args << dir.filePath(QStringLiteral("node-ws.mjs"));
    } else {
        c.program = m_python;
        c.args << dir.filePath(QStringLiteral("py-websockets.py"));
    }
    c.args << QStringLiteral("--client") << client << QStringLiteral("--url") << url << QStringLiteral("--count")
           << QString::number(count) << QStringLiteral("--timeout") << QString::number(timeoutS);
    if (client.endsWith(kParse))
        c.args << QStringLiteral("--parse");
    if (!caFile.isEmpty())
        c.args << QStringLiteral("--ca") << caFile;
    return c;
}

} // namespace streamscope::bench
