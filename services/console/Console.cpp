#include "Console.h"

#include <QtCore/QByteArray>
#include <QtCore/QtGlobal>

#include <cstdio>
#include <cstdlib>

#ifdef Q_OS_WIN
#include <windows.h>
#endif

namespace streamscope::console {

namespace {

void write(std::FILE *file, const ConsoleText &line)
{
    const QByteArray bytes = line.text().toUtf8() + '\n';
    std::fwrite(bytes.constData(), 1, std::size_t(bytes.size()), file);
    std::fflush(file);
}

void onQtMessage(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    err(ConsoleText::escapeLines(qFormatLogMessage(type, context, message)));
    if (type == QtFatalMsg)
        std::abort();
}

} // namespace

void out(const ConsoleText &line)
{
    write(stdout, line);
}

void err(const ConsoleText &line)
{
    write(stderr, line);
}

void out(const QList<ConsoleText> &lines)
{
    for (const ConsoleText &line : lines)
        write(stdout, line);
}

void err(const QList<ConsoleText> &lines)
{
    for (const ConsoleText &line : lines)
        write(stderr, line);
}

void installMessageHandler()
{
    qInstallMessageHandler(onQtMessage);
}

void attachParentConsole()
{
#ifdef Q_OS_WIN
    if (AttachConsole(ATTACH_PARENT_PROCESS)) {
        std::freopen("CONOUT$", "w", stdout);
        std::freopen("CONOUT$", "w", stderr);
    }
#endif
}

} // namespace streamscope::console
