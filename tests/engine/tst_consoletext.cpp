// ConsoleText, the only text the console writers (console::out/err) take: made by escaping
// alone, one line each; and the proof, at compile time, that a raw string reaches no console.

#include "../common/TestRegistry.h"
#include "Console.h"
#include "ConsoleText.h"

#include <QtTest/QtTest>

#include <type_traits>

using streamscope::ConsoleText;

// What the gate is: no way to a console but escape().
static_assert(!std::is_constructible_v<ConsoleText, QString>, "a QString is not console text");
static_assert(!std::is_constructible_v<ConsoleText, const char *>, "nor is a literal");
static_assert(!std::is_convertible_v<QString, ConsoleText>, "nor does one convert");
static_assert(!std::is_default_constructible_v<ConsoleText>, "no empty text made outside escape()");

namespace {
// Whether console::out and console::err (all their overloads) take an argument of type T.
template<typename T, typename = void>
struct WritersTake : std::false_type {
};
template<typename T>
struct WritersTake<T,
                   std::void_t<decltype(streamscope::console::out(std::declval<T>())),
                               decltype(streamscope::console::err(std::declval<T>()))>> : std::true_type {
};
static_assert(WritersTake<ConsoleText>::value && WritersTake<QList<ConsoleText>>::value, "escaped lines are written");
static_assert(!WritersTake<QString>::value && !WritersTake<const char *>::value && !WritersTake<QByteArray>::value
                  && !WritersTake<QStringView>::value,
              "a raw string does not compile as a console write");
} // namespace

class TestConsoleText : public QObject {
    Q_OBJECT
private slots:
    void escape_data();
    void escape();
    void linesAreEscapedEachOnItsOwn();
};

void TestConsoleText::escape_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("shown");
    QTest::newRow("plain") << QStringLiteral("streamscope: reloaded w.json")
                           << QStringLiteral("streamscope: reloaded w.json");
    QTest::newRow("window title, clear screen, NUL")
        << (QStringLiteral("\x1b]0;title\x07\x1b[2J") + QChar(0) + QStringLiteral("x"))
        << QStringLiteral("\\x1b]0;title\\x07\\x1b[2J\\x00x");
    QTest::newRow("a line feed inside a value is shown, not obeyed")
        << QStringLiteral("name\nstreamscope: all streams OK") << QStringLiteral("name\\nstreamscope: all streams OK");
    QTest::newRow("carriage return") << QStringLiteral("a\rb") << QStringLiteral("a\\rb");
    QTest::newRow("C1 and bidi") << QStringLiteral("a\u009b2J\u202eb") << QStringLiteral("a\\u009b2J\\u202eb");
    QTest::newRow("already escaped: unchanged") << QStringLiteral("\\x1b[2J") << QStringLiteral("\\x1b[2J");
}

void TestConsoleText::escape()
{
    QFETCH(QString, text);
    QFETCH(QString, shown);
    QCOMPARE(ConsoleText::escape(text).text(), shown);
    QCOMPARE(ConsoleText::escape(QStringView(text)).text(), shown);
    QCOMPARE(ConsoleText::escape(QByteArrayView(text.toUtf8())).text(), shown);
}

void TestConsoleText::linesAreEscapedEachOnItsOwn()
{
    const QList<ConsoleText> lines = ConsoleText::escapeLines(QStringLiteral("Usage: x\n  --a\x1b[2J\n"));
    QCOMPARE(lines.size(), 3);
    QCOMPARE(lines[0].text(), QStringLiteral("Usage: x"));
    QCOMPARE(lines[1].text(), QStringLiteral("  --a\\x1b[2J"));
    QCOMPARE(lines[2].text(), QString());
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestConsoleText)
#include "tst_consoletext.moc"
