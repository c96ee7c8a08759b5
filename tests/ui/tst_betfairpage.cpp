// The stream dialog's Betfair page on its own: a stored stream read into the page gives
// the same config back, and a secret typed in clear leaves the config as a keychain entry.

#include "../common/TestRegistry.h"
#include "BetfairPage.h"

#include <QtCore/QJsonArray>
#include <QtTest/QTest>
#include <QtWidgets/QLineEdit>

using namespace streamscope;
using namespace streamscope::ui;

class tst_BetfairPage : public QObject {
    Q_OBJECT
private slots:
    void roundTrip_data();
    void roundTrip();
    void secretTypedInClearGoesToTheKeychain();
};

static QJsonObject subscription(const QStringList &ids, const QStringList &fields)
{
    return QJsonObject{
        {QStringLiteral("marketFilter"), QJsonObject{{QStringLiteral("marketIds"), QJsonArray::fromStringList(ids)}}},
        {QStringLiteral("marketDataFilter"),
         QJsonObject{{QStringLiteral("fields"), QJsonArray::fromStringList(fields)}}}};
}

void tst_BetfairPage::roundTrip_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("appKey");
    QTest::addColumn<QString>("session");
    QTest::addColumn<QJsonObject>("marketSubscription");
    QTest::addColumn<int>("heartbeatMs");
    QTest::addColumn<QString>("caFile");

    QTest::newRow("production, one market, best offers")
        << QStringLiteral("tls://stream-api.betfair.com:443") << QStringLiteral("keychain:bf-app-key")
        << QStringLiteral("env:BF_SESSION")
        << subscription({QStringLiteral("1.120684740")}, {QStringLiteral("EX_BEST_OFFERS")}) << 5000 << QString();
    QTest::newRow("test server with its CA, two markets, three fields")
        << QStringLiteral("tls://127.0.0.1:8443") << QStringLiteral("env:BF_APP_KEY")
        << QStringLiteral("keychain:bf-session")
        << subscription({QStringLiteral("1.1"), QStringLiteral("1.2")},
                        {QStringLiteral("EX_BEST_OFFERS"), QStringLiteral("EX_TRADED"), QStringLiteral("EX_LTP")})
        << 1500 << QStringLiteral("/tmp/ca.pem");
}

void tst_BetfairPage::roundTrip()
{
    QFETCH(QString, url);
    QFETCH(QString, appKey);
    QFETCH(QString, session);
    QFETCH(QJsonObject, marketSubscription);
    QFETCH(int, heartbeatMs);
    QFETCH(QString, caFile);
    StreamConfig stored;
    stored.name = QStringLiteral("bf");
    stored.venue = Venue("betfair");
    stored.url = QUrl(url);
    stored.appKey = appKey;
    stored.session = session;
    stored.marketSubscription = marketSubscription;
    stored.heartbeatMs = heartbeatMs;
    stored.caFile = caFile;

    BetfairPage page;
    page.fromConfig(stored);
    StreamConfig back;
    back.name = stored.name;
    BetfairPage::Secrets secrets;
    QString error;
    QVERIFY2(page.toConfig(back, &secrets, &error), qPrintable(error));
    QVERIFY(secrets.isEmpty());
    QCOMPARE(back.venue, Venue("betfair"));
    QCOMPARE(back.url.toString(), url);
    QCOMPARE(back.appKey, appKey);
    QCOMPARE(back.session, session);
    QCOMPARE(back.marketSubscription, marketSubscription);
    QCOMPARE(back.heartbeatMs, heartbeatMs);
    QCOMPARE(back.caFile, caFile);
}

void tst_BetfairPage::secretTypedInClearGoesToTheKeychain()
{
    BetfairPage page;
    page.findChild<QLineEdit *>(QStringLiteral("appKey"))->setText(QStringLiteral("s3cr3t"));
    page.findChild<QLineEdit *>(QStringLiteral("session"))->setText(QStringLiteral("env:BF_SESSION"));
    page.findChild<QLineEdit *>(QStringLiteral("marketIds"))->setText(QStringLiteral("1.5"));
    StreamConfig c;
    c.name = QStringLiteral("my markets");
    BetfairPage::Secrets secrets;
    QString error;
    QVERIFY2(page.toConfig(c, &secrets, &error), qPrintable(error));
    QCOMPARE(c.appKey, QStringLiteral("keychain:betfair-my-markets-app-key"));
    QCOMPARE(secrets, (BetfairPage::Secrets{{QStringLiteral("betfair-my-markets-app-key"), QStringLiteral("s3cr3t")}}));
    QCOMPARE(c.url.toString(), QStringLiteral("tls://stream-api.betfair.com:443"));
}

STREAMSCOPE_TEST_MAIN(tst_BetfairPage)
#include "tst_betfairpage.moc"
