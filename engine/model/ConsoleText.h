#pragma once

// One line of text that may go to a terminal or a log (stdout, stderr, a journal): made only
// by escaping, so that nothing written there can clear the screen, set the window title,
// move the cursor or forge a line, whoever wrote the text (a peer, a workspace file, a
// command-line argument, Qt). The console writers (services/console, console::out/err) take
// this type and nothing else, so a raw QString cannot reach them: the compiler refuses it.
// Escaping is peerText()'s (PeerText.h): control characters, bidi controls and invalid
// UTF-8 become visible escapes (\x1b, \n, \u202e); escaping text twice changes nothing.
//
// Thread contract: a value type; any thread.

#include <QtCore/QByteArrayView>
#include <QtCore/QList>
#include <QtCore/QString>
#include <QtCore/QStringView>

namespace streamscope {

class ConsoleText {
public:
    // `text` made safe as one line: a line feed in it is shown as \n, not obeyed.
    static ConsoleText escape(QStringView text);
    static ConsoleText escape(const QString &text); // shares `text` when it needs nothing
    static ConsoleText escape(QByteArrayView utf8); // bytes that are not UTF-8 become \xNN
    template<qsizetype N>
    static ConsoleText escape(const char (&literal)[N]) // our own text, escaped all the same
    {
        return escape(QByteArrayView(literal));
    }
    // Our own text of several lines (--help): one line per line feed, each escaped.
    static QList<ConsoleText> escapeLines(QStringView text);

    const QString &text() const { return m_text; }

private:
    explicit ConsoleText(QString escaped)
        : m_text(std::move(escaped))
    {
    }

    QString m_text;
};

} // namespace streamscope
