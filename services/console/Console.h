#pragma once

// The process's console: every line StreamScope writes to stdout or stderr goes through
// out() or err(), and they take a ConsoleText, which only escaping makes (ConsoleText.h). A
// raw QString does not compile here, so no stream name, URL, workspace key, argument or
// peer's text reaches a terminal unescaped. installMessageHandler() sends Qt's own messages
// (qWarning and the like, from Qt or from us) the same way.
//
// Thread contract: any thread; each line is written whole (one fwrite on a locked FILE) and
// flushed.

#include "ConsoleText.h"

#include <QtCore/QList>

namespace streamscope::console {

void out(const ConsoleText &line);
void err(const ConsoleText &line);
void out(const QList<ConsoleText> &lines);
void err(const QList<ConsoleText> &lines);

// Qt's messages (qDebug ... qFatal) go to err(), formatted by QT_MESSAGE_PATTERN, escaped.
void installMessageHandler();

// Windows: a GUI-subsystem executable started from a console writes to it. Elsewhere nothing.
void attachParentConsole();

} // namespace streamscope::console
