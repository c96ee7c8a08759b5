// peerText(): what a peer sent, made safe to show on a terminal, in a log or a tooltip.

#include "../common/TestRegistry.h"
#include "model/PeerText.h"

#include <QtTest/QtTest>

using namespace streamscope;

class TestPeerText : public QObject {
    Q_OBJECT
private slots:
    void bytes_data();
    void bytes();
    void text_data();
    void text();
    void escapingTwiceChangesNothing();
};

void TestPeerText::bytes_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<int>("maxChars");
    QTest::addColumn<QString>("expected");

    QTest::newRow("plain ASCII") << QByteArray("all streams OK") << -1 << QStringLiteral("all streams OK");
    QTest::newRow("clear screen") << QByteArray("\x1b[2J\x1b[Hall streams OK") << -1
                                  << QStringLiteral("\\x1b[2J\\x1b[Hall streams OK");
    QTest::newRow("window title (OSC, BEL)")
        << QByteArray("\x1b]0;pwned\x07") << -1 << QStringLiteral("\\x1b]0;pwned\\x07");
    QTest::newRow("tab, line feed, carriage return")
        << QByteArray("a\tb\nc\rd") << -1 << QStringLiteral("a\\tb\\nc\\rd");
    QTest::newRow("NUL") << QByteArray("a\0b", 3) << -1 << QStringLiteral("a\\x00b");
    QTest::newRow("DEL") << QByteArray("a\x7f") << -1 << QStringLiteral("a\\x7f");
    QTest::newRow("C1 CSI as UTF-8") << QByteArray("\xc2\x9b"
                                                   "2J")
                                     << -1 << QStringLiteral("\\u009b2J");
    QTest::newRow("NEL as UTF-8") << QByteArray("a\xc2\x85"
                                                "b")
                                  << -1 << QStringLiteral("a\\u0085b");
    QTest::newRow("right-to-left override") << QByteArray("\xe2\x80\xae"
                                                          "KO")
                                            << -1 << QStringLiteral("\\u202eKO");
    QTest::newRow("first strong isolate")
        << QByteArray("\xe2\x81\xa8x\xe2\x81\xa9") << -1 << QStringLiteral("\\u2068x\\u2069");
    QTest::newRow("line separator") << QByteArray("a\xe2\x80\xa8"
                                                  "b")
                                    << -1 << QStringLiteral("a\\u2028b");
    QTest::newRow("valid UTF-8 kept") << QByteArray("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80") << -1
                                      << QString::fromUtf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
    QTest::newRow("invalid byte") << QByteArray("a\xff"
                                                "b")
                                  << -1 << QStringLiteral("a\\xffb");
    QTest::newRow("raw C1 byte (not UTF-8)") << QByteArray("\x9b"
                                                           "2J")
                                             << -1 << QStringLiteral("\\x9b2J");
    QTest::newRow("truncated sequence") << QByteArray("a\xe2\x82") << -1 << QStringLiteral("a\\xe2\\x82");
    QTest::newRow("overlong ESC") << QByteArray("\xc0\x9b") << -1 << QStringLiteral("\\xc0\\x9b");
    QTest::newRow("encoded surrogate") << QByteArray("\xed\xa0\x80") << -1 << QStringLiteral("\\xed\\xa0\\x80");
    QTest::newRow("above U+10FFFF") << QByteArray("\xf4\x90\x80\x80") << -1 << QStringLiteral("\\xf4\\x90\\x80\\x80");
    QTest::newRow("cut") << QByteArray("abcdefgh") << 5 << QStringLiteral("abcde\u2026");
    QTest::newRow("not cut at the limit") << QByteArray("abcde") << 5 << QStringLiteral("abcde");
    QTest::newRow("cut before an escape") << QByteArray("abc\x1b[2J") << 5 << QStringLiteral("abc\u2026");
    QTest::newRow("cut before a surrogate pair")
        << QByteArray("abcd\xf0\x9f\x98\x80") << 5 << QStringLiteral("abcd\u2026");
    QTest::newRow("empty") << QByteArray() << 10 << QString();
}

void TestPeerText::bytes()
{
    QFETCH(QByteArray, input);
    QFETCH(int, maxChars);
    QFETCH(QString, expected);
    QCOMPARE(peerText(QByteArrayView(input), maxChars), expected);
}

void TestPeerText::text_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("expected");

    QTest::newRow("plain") << QStringLiteral("server going away") << QStringLiteral("server going away");
    QTest::newRow("ESC and BEL") << QStringLiteral("\x1b[2J bye\a") << QStringLiteral("\\x1b[2J bye\\x07");
    QTest::newRow("C1") << QStringLiteral("\u009b2J") << QStringLiteral("\\u009b2J");
    QTest::newRow("bidi") << QStringLiteral("\u202Dx\u2066") << QStringLiteral("\\u202dx\\u2066");
    QTest::newRow("lone surrogate") << QString(QChar(0xd800)) + QLatin1Char('x') << QStringLiteral("\\ud800x");
    QTest::newRow("surrogate pair kept") << QString::fromUtf8("\xf0\x9f\x98\x80")
                                         << QString::fromUtf8("\xf0\x9f\x98\x80");
}

void TestPeerText::text()
{
    QFETCH(QString, input);
    QFETCH(QString, expected);
    QCOMPARE(peerText(input), expected);
    QCOMPARE(isPeerTextSafe(input), input == expected);
}

void TestPeerText::escapingTwiceChangesNothing()
{
    const QString once = peerText(QByteArrayView("\x1b[2J\n\xc2\x9b\xff"));
    QVERIFY(isPeerTextSafe(once));
    QCOMPARE(peerText(once), once);
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestPeerText)
#include "tst_peertext.moc"
