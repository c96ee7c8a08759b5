// The stream dialog's generic page on its own: any stored stream read into the page gives
// its URL, headers, messages and latency field back.

#include "../common/TestRegistry.h"
#include "GenericPage.h"

#include <QtTest/QTest>

using namespace streamscope;
using namespace streamscope::ui;

using Headers = QList<QPair<QString, QString>>;
Q_DECLARE_METATYPE(Headers)

class tst_GenericPage : public QObject {
    Q_OBJECT
private slots:
    void roundTrip_data();
    void roundTrip();
};

void tst_GenericPage::roundTrip_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<Headers>("headers");
    QTest::addColumn<QStringList>("sendOnConnect");
    QTest::addColumn<QString>("latencyField");
    QTest::addColumn<int>("latencyUnit");
    QTest::addColumn<QString>("suggestedName");

    QTest::newRow("websocket with headers and messages")
        << QStringLiteral("wss://example.com/feed")
        << Headers{{QStringLiteral("X-Token"), QStringLiteral("env:FEED_TOKEN")},
                   {QStringLiteral("X-Client"), QStringLiteral("streamscope")}}
        << QStringList{QStringLiteral("{\"op\":\"hello\"}"), QStringLiteral("PING")} << QStringLiteral("/ts")
        << int(LatencyUnit::Microseconds) << QStringLiteral("example.com");
    QTest::newRow("CRLF lines over TLS, no latency")
        << QStringLiteral("tls://127.0.0.1:9000") << Headers{} << QStringList{} << QString()
        << int(LatencyUnit::Milliseconds) << QStringLiteral("127.0.0.1");
    QTest::newRow("nanosecond event times")
        << QStringLiteral("ws://feed.local:8080/x?y=1") << Headers{} << QStringList{} << QStringLiteral("/data/T")
        << int(LatencyUnit::Nanoseconds) << QStringLiteral("feed.local");
}

void tst_GenericPage::roundTrip()
{
    QFETCH(QString, url);
    QFETCH(Headers, headers);
    QFETCH(QStringList, sendOnConnect);
    QFETCH(QString, latencyField);
    QFETCH(int, latencyUnit);
    QFETCH(QString, suggestedName);
    StreamConfig stored;
    stored.url = QUrl(url);
    stored.headers = headers;
    stored.sendOnConnect = sendOnConnect;
    stored.latencyField = latencyField;
    stored.latencyUnit = LatencyUnit(latencyUnit);

    GenericPage page;
    page.fromConfig(stored);
    QCOMPARE(page.suggestedName(), suggestedName);
    StreamConfig back;
    back.venue = Venue("betfair"); // whatever it was, the generic page makes it generic
    QString error;
    QVERIFY2(page.toConfig(back, &error), qPrintable(error));
    QCOMPARE(back.venue, Venue::Generic);
    QCOMPARE(back.url.toString(), url);
    QCOMPARE(back.headers, headers);
    QCOMPARE(back.sendOnConnect, sendOnConnect);
    QCOMPARE(back.latencyField, latencyField);
    QCOMPARE(int(back.latencyUnit), latencyUnit);
}

STREAMSCOPE_TEST_MAIN(tst_GenericPage)
#include "tst_genericpage.moc"
