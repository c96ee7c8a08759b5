#include "RestAnswer.h"

#include <QList>

namespace streamscope::replay {

namespace {
constexpr QByteArrayView kDepthPaths[] = {"/api/v3/depth", "/fapi/v1/depth"};
} // namespace

QByteArray headerValue(const QByteArray &head, const QByteArray &name)
{
    const QList<QByteArray> lines = head.split('\n');
    for (const QByteArray &line : lines) {
        const qsizetype colon = line.indexOf(':');
        if (colon > 0 && line.left(colon).trimmed().compare(name, Qt::CaseInsensitive) == 0)
            return line.mid(colon + 1).trimmed();
    }
    return {};
}

QByteArrayView depthPathOf(const QByteArray &target)
{
    const qsizetype query = target.indexOf('?');
    const QByteArrayView path = QByteArrayView(target).first(query < 0 ? target.size() : query);
    for (const QByteArrayView depth : kDepthPaths)
        if (path.endsWith(depth))
            return depth;
    return {};
}

QByteArray jsonAnswer(const QByteArray &head, const QByteArray &status, const QByteArray &body, bool *close)
{
    *close = headerValue(head, "Connection").compare("close", Qt::CaseInsensitive) == 0
        || head.left(head.indexOf("\r\n")).endsWith("HTTP/1.0");
    return "HTTP/1.1 " + status + "\r\nContent-Type: application/json;charset=UTF-8\r\nContent-Length: "
        + QByteArray::number(body.size()) + (*close ? "\r\nConnection: close" : "") + "\r\n\r\n" + body;
}

} // namespace streamscope::replay
