// Event times as RFC 3339 text (protocol/TimeText.h), the form Kraken and Coinbase write: read
// to the microsecond; anything that is not such a time is refused, never guessed. And the
// replay server's writer (scenario::writeTimeText) gives back what the reader reads.

#include "../common/TestRegistry.h"
#include "ScenarioKit.h"
#include "protocol/TimeText.h"

#include <QtTest/QtTest>

using namespace streamscope;

class TestTimeText : public QObject {
    Q_OBJECT
private slots:
    void reads_data();
    void reads();
    void writerAndReaderAgree();
};

void TestTimeText::reads_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<qint64>("micros");
    QTest::newRow("the epoch") << QByteArray("1970-01-01T00:00:00Z") << true << qint64(0);
    QTest::newRow("Kraken's, microseconds")
        << QByteArray("2023-09-25T07:48:36.925533Z") << true << qint64(1695628116925533);
    QTest::newRow("Coinbase's, nanoseconds cut to microseconds")
        << QByteArray("2023-02-09T20:19:35.39625135Z") << true << qint64(1675973975396251);
    QTest::newRow("one digit of fraction") << QByteArray("2023-02-09T20:19:35.5Z") << true << qint64(1675973975500000);
    QTest::newRow("lower case t and z") << QByteArray("2023-02-09t20:19:35z") << true << qint64(1675973975000000);
    QTest::newRow("an offset") << QByteArray("2023-02-09T21:19:35+01:00") << true << qint64(1675973975000000);
    QTest::newRow("a negative offset") << QByteArray("2023-02-09T15:49:35-04:30") << true << qint64(1675973975000000);
    QTest::newRow("a leap day") << QByteArray("2024-02-29T00:00:00Z") << true << qint64(1709164800000000);
    QTest::newRow("before the epoch") << QByteArray("1969-12-31T23:59:59.999999Z") << true << qint64(-1);
    QTest::newRow("no leap day in 2023") << QByteArray("2023-02-29T00:00:00Z") << false << qint64(0);
    QTest::newRow("month 13") << QByteArray("2023-13-01T00:00:00Z") << false << qint64(0);
    QTest::newRow("hour 24") << QByteArray("2023-01-01T24:00:00Z") << false << qint64(0);
    QTest::newRow("no zone") << QByteArray("2023-01-01T00:00:00") << false << qint64(0);
    QTest::newRow("an empty fraction") << QByteArray("2023-01-01T00:00:00.Z") << false << qint64(0);
    QTest::newRow("ten digits of fraction") << QByteArray("2023-01-01T00:00:00.1234567890Z") << false << qint64(0);
    QTest::newRow("something after it") << QByteArray("2023-01-01T00:00:00Zx") << false << qint64(0);
    QTest::newRow("a date only") << QByteArray("2023-01-01") << false << qint64(0);
    QTest::newRow("digits") << QByteArray("1695628116925") << false << qint64(0);
    QTest::newRow("a space for T") << QByteArray("2023-01-01 00:00:00Z") << false << qint64(0);
    QTest::newRow("year 0") << QByteArray("0000-01-01T00:00:00Z") << false << qint64(0);
    QTest::newRow("empty") << QByteArray() << false << qint64(0);
}

void TestTimeText::reads()
{
    QFETCH(QByteArray, text);
    QFETCH(bool, ok);
    QFETCH(qint64, micros);
    std::int64_t out = 0;
    QCOMPARE(rfc3339Micros(std::string_view(text.constData(), std::size_t(text.size())), out), ok);
    if (ok)
        QCOMPARE(qint64(out), micros);
}

void TestTimeText::writerAndReaderAgree()
{
    for (const quint64 ms : {quint64(0), quint64(951782400000), quint64(1700000000123), quint64(1709164799999),
                             quint64(4102444800000), quint64(253402300799999)}) {
        char text[scenario::kTimeTextWidth];
        scenario::writeTimeText(text, ms);
        std::int64_t micros = 0;
        QVERIFY2(rfc3339Micros(std::string_view(text, sizeof text), micros), QByteArray(text, sizeof text).constData());
        QCOMPARE(qint64(micros), qint64(ms) * 1000);
    }
    char text[scenario::kTimeTextWidth];
    scenario::writeTimeText(text, 1700000000123);
    QCOMPARE(QByteArray(text, sizeof text), QByteArray("2023-11-14T22:13:20.123000Z"));
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestTimeText)
#include "tst_timetext.moc"
