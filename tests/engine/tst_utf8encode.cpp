// encodeUtf8: the ASCII fast path and the QStringEncoder fallback give exactly
// QString::toUtf8(), whatever the length and wherever the first non-ASCII unit stands.

#include "../common/TestRegistry.h"
#include "transport/Utf8Encode.h"

#include <QtTest/QtTest>

#include <vector>

using streamscope::encodeUtf8;
using streamscope::narrowAscii;

class tst_Utf8Encode : public QObject {
    Q_OBJECT
private slots:
    void asciiOfEveryLength();
    void nonAsciiAtEveryPosition_data();
    void nonAsciiAtEveryPosition();
    void narrowStopsAtTheFirstNonAsciiUnit();
    void isAsciiFindsAnyNonAsciiUnit();
};

namespace {

QByteArray encoded(const QString &text)
{
    QStringEncoder encoder(QStringEncoder::Utf8);
    std::vector<char> out(std::size_t(text.size()) * 3 + 1, '\x7f');
    char *end = encodeUtf8(encoder, text, out.data());
    return QByteArray(out.data(), end - out.data());
}

QString asciiText(int n)
{
    QString s;
    for (int i = 0; i < n; ++i)
        s += QChar(u"{\"E\":17,x}[]0123456789 "[i % 23]);
    return s;
}

} // namespace

void tst_Utf8Encode::asciiOfEveryLength()
{
    for (int n = 0; n <= 70; ++n) {
        const QString text = asciiText(n);
        QCOMPARE(encoded(text), text.toUtf8());
    }
}

void tst_Utf8Encode::nonAsciiAtEveryPosition_data()
{
    QTest::addColumn<QString>("unit");
    QTest::newRow("U+0080") << QString(QChar(0x80));
    QTest::newRow("U+00E9 e acute") << QStringLiteral("\u00e9");
    QTest::newRow("U+0100") << QString(QChar(0x100));
    QTest::newRow("U+7FFF") << QString(QChar(0x7fff));
    QTest::newRow("U+8000 (negative as int16)") << QString(QChar(0x8000));
    QTest::newRow("U+FFFD") << QString(QChar(0xfffd));
    QTest::newRow("surrogate pair U+1F4C8") << QString::fromUcs4(U"\U0001F4C8");
}

void tst_Utf8Encode::nonAsciiAtEveryPosition()
{
    QFETCH(QString, unit);
    for (int n = 0; n <= 80; ++n) {
        for (int at = 0; at <= n; ++at) {
            QString text = asciiText(n);
            text.insert(at, unit);
            QCOMPARE(encoded(text), text.toUtf8());
        }
    }
}

void tst_Utf8Encode::narrowStopsAtTheFirstNonAsciiUnit()
{
    for (int at = 0; at < 80; ++at) {
        std::u16string text(80, u'a');
        text[std::size_t(at)] = char16_t(0x8000);
        std::vector<char> out(80, 0);
        QCOMPARE(narrowAscii(text.data(), qsizetype(text.size()), out.data()), qsizetype(at));
        for (int i = 0; i < at; ++i)
            QCOMPARE(out[std::size_t(i)], 'a');
    }
}

void tst_Utf8Encode::isAsciiFindsAnyNonAsciiUnit()
{
    for (int n = 0; n <= 200; n += 7) {
        std::u16string text(std::size_t(n), u'z');
        QVERIFY(streamscope::isAscii(text.data(), qsizetype(text.size())));
        for (int at = 0; at < n; ++at) {
            for (const char16_t unit : {char16_t(0x80), char16_t(0x100), char16_t(0x8000), char16_t(0xffff)}) {
                text[std::size_t(at)] = unit;
                QVERIFY(!streamscope::isAscii(text.data(), qsizetype(text.size())));
                text[std::size_t(at)] = u'z';
            }
        }
    }
}

STREAMSCOPE_TEST_APPLESS_MAIN(tst_Utf8Encode)
#include "tst_utf8encode.moc"
