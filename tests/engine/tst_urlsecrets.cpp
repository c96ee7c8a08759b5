// The one check of where a URL carries a secret (findUrlSecret), the one list of secret names
// (isSecretName) and the one redaction (RedactedUrl::of), row by row: every spelling a
// hostile-input run used to get a literal secret past the workspace loader into the report,
// the CSV, /metrics and /api, the ones that were caught before, and URLs that hold none.

#include "../common/TestRegistry.h"
#include "RedactedUrl.h"
#include "UrlSecrets.h"

#include <QtTest/QtTest>

using namespace streamscope;

class TestUrlSecrets : public QObject {
    Q_OBJECT
private slots:
    void secretNames_data();
    void secretNames();
    void urls_data();
    void urls();
    void redactionIsIdempotent();
    void textFromOutside();
};

void TestUrlSecrets::secretNames_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("secret");
    for (
        const char *name :
        {"token",         "access_token",  "X-Token",   "apiKey",          "api_key",          "X-MBX-APIKEY", "secret",
         "client_secret", "Authorization", "auth",      "Cookie",          "password",         "passwd",       "pwd",
         "PWD",           "passphrase",    "signature", "X-Amz-Signature", "X-Amz-Credential", "sig",          "pass",
         "ssoid",         "session",       "jwt",       "pass_word",       "Pass-Word"})
        QTest::newRow(name) << QString::fromLatin1(name) << true;
    for (const char *name :
         {"streams", "symbol", "stream", "limit", "id", "compass", "passive", "signal", "format", "a", ""})
        QTest::newRow(name[0] ? name : "(empty)") << QString::fromLatin1(name) << false;
}

void TestUrlSecrets::secretNames()
{
    QFETCH(QString, name);
    QFETCH(bool, secret);
    QCOMPARE(isSecretName(name), secret);
}

void TestUrlSecrets::urls_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("found"); // describe(), empty: none
    QTest::addColumn<QString>("redacted");
    const auto P = [](const char *text = nullptr) { return text ? QString::fromUtf8(text) : QString(); };
    // What a hostile-input run found accepted verbatim.
    QTest::newRow("userinfo with an encoded colon")
        << P("ws://user%3ASECRET@host/feed") << P("a password") << P("ws://host/feed");
    QTest::newRow("userinfo with an encoded colon, lower case")
        << P("ws://user%3aSECRET@host/feed") << P("a password") << P("ws://host/feed");
    // Found by fuzz_urlsecrets: a second round of decoding must not read "%\x08:" as one byte.
    QTest::newRow("userinfo with an encoded colon after an encoded percent")
        << P("ws://u%25%08%3ASECRET@host/feed") << P("a password") << P("ws://host/feed");
    QTest::newRow("userinfo with a doubly encoded colon")
        << P("ws://user%253ASECRET@host/feed") << P("a password") << P("ws://host/feed");
    QTest::newRow("';' as a query separator")
        << P("wss://host/feed?a=1;token=SECRET") << P("the query parameter 'token'") << P("wss://host/feed?a=1");
    QTest::newRow("pwd") << P("wss://host/feed?pwd=SECRET") << P("the query parameter 'pwd'") << P("wss://host/feed");
    QTest::newRow("passwd") << P("wss://host/feed?x=1&passwd=SECRET&y=2") << P("the query parameter 'passwd'")
                            << P("wss://host/feed?x=1&y=2");
    QTest::newRow("fragment") << P("wss://host/feed#token=SECRET") << P("the fragment parameter 'token'")
                              << P("wss://host/feed");
    // Caught before, caught still.
    QTest::newRow("password") << P("ws://user:SECRET@host/feed") << P("a password") << P("ws://user@host/feed");
    QTest::newRow("password alone") << P("ws://:SECRET@host/feed") << P("a password") << P("ws://host/feed");
    QTest::newRow("token") << P("wss://host/feed?token=SECRET") << P("the query parameter 'token'")
                           << P("wss://host/feed");
    QTest::newRow("apiKey after streams")
        << P("wss://host/stream?streams=a@trade&apiKey=SECRET") << P("the query parameter 'apiKey'")
        << P("wss://host/stream?streams=a@trade");
    QTest::newRow("every secret parameter") << P("wss://host/feed?token=SECRET&a=1&signature=SECRET;apikey=SECRET")
                                            << P("the query parameter 'token'") << P("wss://host/feed?a=1");
    // Other spellings of the same.
    QTest::newRow("encoded name") << P("wss://host/feed?%74oken=SECRET") << P("the query parameter 'token'")
                                  << P("wss://host/feed");
    QTest::newRow("doubly encoded name") << P("wss://host/feed?%2574oken=SECRET") << P("the query parameter 'token'")
                                         << P("wss://host/feed");
    QTest::newRow("upper-case name") << P("wss://host/feed?TOKEN=SECRET") << P("the query parameter 'TOKEN'")
                                     << P("wss://host/feed");
    QTest::newRow("';' first") << P("wss://host/feed?token=SECRET;a=1") << P("the query parameter 'token'")
                               << P("wss://host/feed?a=1");
    QTest::newRow("fragment route") << P("https://host/#/callback?state=1&access_token=SECRET")
                                    << P("the fragment parameter 'access_token'")
                                    << P("https://host/#/callback?state=1");
    QTest::newRow("fragment after ';'") << P("https://host/#a=1;id_token=SECRET")
                                        << P("the fragment parameter 'id_token'") << P("https://host/#a=1");
    QTest::newRow("path parameter") << P("https://host/app;jsessionid=SECRET/feed?x=1")
                                    << P("the path parameter 'jsessionid'") << P("https://host/app/feed?x=1");
    QTest::newRow("query and fragment") << P("https://host/?token=SECRET#pwd=SECRET")
                                        << P("the query parameter 'token'") << P("https://host/");
    // No secret: shown as they are.
    QTest::newRow("plain") << P("wss://stream.binance.com:9443/stream?streams=btcusdt@aggTrade") << P()
                           << P("wss://stream.binance.com:9443/stream?streams=btcusdt@aggTrade");
    QTest::newRow("a user name alone") << P("ws://user@host/feed") << P() << P("ws://user@host/feed");
    QTest::newRow("references") << P("wss://host/feed?token=env:FEED_TOKEN;key=keychain:k#pwd=env:P") << P()
                                << P("wss://host/feed?token=env:FEED_TOKEN;key=keychain:k#pwd=env:P");
    QTest::newRow("encoded reference") << P("wss://host/feed?token=env%3AFEED_TOKEN") << P()
                                       << P("wss://host/feed?token=env%3AFEED_TOKEN");
    QTest::newRow("empty values") << P("wss://host/feed?token=&pwd#token=") << P()
                                  << P("wss://host/feed?token=&pwd#token=");
    QTest::newRow("a separator inside a value")
        << P("wss://host/feed?a=%26token%3Dvalue") << P() << P("wss://host/feed?a=%26token%3Dvalue");
    QTest::newRow("a secret name in the path") << P("wss://host/token/feed") << P() << P("wss://host/token/feed");
    QTest::newRow("a plain fragment") << P("https://host/#section-2") << P() << P("https://host/#section-2");
    QTest::newRow("empty") << P() << P() << P();
}

void TestUrlSecrets::urls()
{
    QFETCH(QString, url);
    QFETCH(QString, found);
    QFETCH(QString, redacted);
    const QUrl u(url, QUrl::StrictMode);
    const UrlSecret secret = findUrlSecret(u);
    QCOMPARE(secret.found(), !found.isEmpty());
    QCOMPARE(secret.describe(), found);
    const RedactedUrl shown = RedactedUrl::of(u);
    QCOMPARE(shown.toString(), redacted);
    QVERIFY(!findUrlSecret(shown.url()).found());
    for (const QString &form : {shown.toString(), shown.toDisplayString(), shown.url().toString(QUrl::FullyEncoded),
                                QUrl::fromPercentEncoding(shown.url().toEncoded())})
        QVERIFY2(!form.contains(QLatin1String("SECRET")), qPrintable(form));
}

void TestUrlSecrets::redactionIsIdempotent()
{
    for (const char *text : {"ws://user%3ASECRET@host/p;a=1;sig=x/q?token=SECRET;b=2&c=3#x=1&token=SECRET",
                             "https://u:p@host/#/route?pwd=SECRET"}) {
        const RedactedUrl once = RedactedUrl::of(QUrl(QString::fromLatin1(text)));
        QCOMPARE(RedactedUrl::of(once.url()), once);
    }
}

// A URL read from a capture's header or another agent's answer: parsed as QUrl parses a
// user's, then redacted; text that is no URL at all shows nothing of itself.
void TestUrlSecrets::textFromOutside()
{
    QCOMPARE(RedactedUrl::fromText(QStringLiteral("ws://u:SECRET@host/a b?pwd=SECRET")).toString(),
             QStringLiteral("ws://u@host/a b"));
    QVERIFY(RedactedUrl::fromText(QString()).isEmpty());
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestUrlSecrets)
#include "tst_urlsecrets.moc"
