#include "ConsoleText.h"

#include "PeerText.h"

namespace streamscope {

ConsoleText ConsoleText::escape(QStringView text)
{
    return ConsoleText(peerText(text));
}

ConsoleText ConsoleText::escape(const QString &text)
{
    return ConsoleText(peerText(text));
}

ConsoleText ConsoleText::escape(QByteArrayView utf8)
{
    return ConsoleText(peerText(utf8));
}

QList<ConsoleText> ConsoleText::escapeLines(QStringView text)
{
    QList<ConsoleText> lines;
    for (const QStringView line : text.split(QLatin1Char('\n')))
        lines.append(escape(line));
    return lines;
}

} // namespace streamscope
