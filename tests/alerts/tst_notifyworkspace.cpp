// The workspace's "notify" keys: what loads, what is refused with the file, the key and what
// was expected, and what is written back.

#include "../common/TestRegistry.h"
#include "Workspace.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtTest/QTest>

using namespace streamscope;

namespace {
QByteArray workspace(const QJsonArray &topNotify, const QJsonArray &streamNotify = {})
{
    QJsonObject stream{{QStringLiteral("name"), QStringLiteral("s")},
                       {QStringLiteral("url"), QStringLiteral("ws://127.0.0.1:9000/")}};
    if (!streamNotify.isEmpty())
        stream.insert(QStringLiteral("notify"), streamNotify);
    QJsonObject top{{QStringLiteral("version"), 1}, {QStringLiteral("streams"), QJsonArray{stream}}};
    if (!topNotify.isEmpty())
        top.insert(QStringLiteral("notify"), topNotify);
    return QJsonDocument(top).toJson();
}
QJsonObject obj(std::initializer_list<QPair<QString, QJsonValue>> pairs)
{
    QJsonObject o;
    for (const auto &[k, v] : pairs)
        o.insert(k, v);
    return o;
}
const QString kType = QStringLiteral("type");
const QString kUrl = QStringLiteral("url");
} // namespace

class tst_NotifyWorkspace : public QObject {
    Q_OBJECT
private slots:
    void loadsEveryType();
    void refuses_data();
    void refuses();
    void unknownKeyWarns();
    void roundTrip();
};

void tst_NotifyWorkspace::loadsEveryType()
{
    const QJsonArray top{
        obj({{kType, QStringLiteral("webhook")},
             {kUrl, QStringLiteral("https://alerts.example.com/in")},
             {QStringLiteral("headers"), obj({{QStringLiteral("Authorization"), QStringLiteral("env:HOOK_AUTH")}})},
             {QStringLiteral("max_per_minute"), 5}}),
        obj({{kType, QStringLiteral("slack")}, {kUrl, QStringLiteral("env:SLACK_URL")}}),
        obj({{kType, QStringLiteral("telegram")},
             {QStringLiteral("token"), QStringLiteral("keychain:tg")},
             {QStringLiteral("chat_id"), -100123}})};
    Workspace ws;
    const auto r = Workspace::parse(
        workspace(top, {obj({{kType, QStringLiteral("webhook")}, {kUrl, QStringLiteral("http://127.0.0.1:1/x")}})}),
        QStringLiteral("w.json"), ws);
    QVERIFY2(r.ok, qPrintable(r.error));
    QVERIFY(r.warnings.isEmpty());
    QCOMPARE(ws.notify.size(), 3);
    QCOMPARE(ws.notify[0].type, NotifyTarget::Type::Webhook);
    QCOMPARE(ws.notify[0].maxPerMinute, 5);
    QCOMPARE(ws.notify[0].headers.size(), 1);
    QCOMPARE(ws.notify[1].url, QStringLiteral("env:SLACK_URL"));
    QCOMPARE(ws.notify[2].chatId, QStringLiteral("-100123"));
    QCOMPARE(ws.notify[2].apiUrlOrDefault(), QStringLiteral("https://api.telegram.org"));
    QCOMPARE(ws.notify[2].maxPerMinute, NotifyTarget::kDefaultMaxPerMinute);
    QCOMPARE(ws.streams[0].notify.size(), 1);
}

void tst_NotifyWorkspace::refuses_data()
{
    QTest::addColumn<QJsonObject>("entry");
    QTest::addColumn<bool>("inStream");
    QTest::addColumn<QString>("error");
    QTest::newRow("unknown type") << obj({{kType, QStringLiteral("email")}, {kUrl, QStringLiteral("https://a/")}})
                                  << false
                                  << QStringLiteral("w.json: notify[0].type: expected \"webhook\", \"slack\" or "
                                                    "\"telegram\", found \"email\"");
    QTest::newRow("missing type") << obj({{kUrl, QStringLiteral("https://a/")}}) << false
                                  << QStringLiteral("w.json: notify[0].type: missing, expected a string");
    QTest::newRow("webhook without url") << obj({{kType, QStringLiteral("webhook")}}) << false
                                         << QStringLiteral("w.json: notify[0].url: missing, expected a string");
    QTest::newRow("literal slack url")
        << obj({{kType, QStringLiteral("slack")}, {kUrl, QStringLiteral("https://hooks.slack.com/services/T/B/X")}})
        << false
        << QStringLiteral("w.json: notify[0].url: expected a reference such as \"env:SLACK_WEBHOOK_URL\": a Slack "
                          "webhook URL is itself the secret, and secrets are never stored in a workspace");
    QTest::newRow("ftp url") << obj({{kType, QStringLiteral("webhook")}, {kUrl, QStringLiteral("ftp://a/b")}}) << true
                             << QStringLiteral("w.json: streams[0].notify[0].url: expected an http or https URL such "
                                               "as https://host/path, found 'ftp://a/b'");
    QTest::newRow("token in query")
        << obj({{kType, QStringLiteral("webhook")}, {kUrl, QStringLiteral("https://a/b?token=abc")}}) << false
        << QStringLiteral("w.json: notify[0].url: expected the query parameter 'token' as a reference such as "
                          "\"env:NAME\"; secrets are never stored in a workspace");
    const auto secretIn = [](const QString &what) {
        return QStringLiteral("w.json: notify[0].url: expected %1 as a reference such as \"env:NAME\"; secrets are "
                              "never stored in a workspace")
            .arg(what);
    };
    QTest::newRow("token after ';'") << obj(
        {{kType, QStringLiteral("webhook")}, {kUrl, QStringLiteral("https://a/b?x=1;token=abc")}})
                                     << false << secretIn(QStringLiteral("the query parameter 'token'"));
    QTest::newRow("pwd in query") << obj(
        {{kType, QStringLiteral("webhook")}, {kUrl, QStringLiteral("https://a/b?pwd=abc")}})
                                  << false << secretIn(QStringLiteral("the query parameter 'pwd'"));
    QTest::newRow("token in fragment") << obj(
        {{kType, QStringLiteral("webhook")}, {kUrl, QStringLiteral("https://a/b#token=abc")}})
                                       << false << secretIn(QStringLiteral("the fragment parameter 'token'"));
    QTest::newRow("user name with an encoded colon")
        << obj({{kType, QStringLiteral("webhook")}, {kUrl, QStringLiteral("https://u%3Aabc@a/b")}}) << false
        << QStringLiteral("w.json: notify[0].url: expected a URL without a password; put the whole URL in a "
                          "reference such as \"env:NAME\"");
    QTest::newRow("literal telegram token")
        << obj({{kType, QStringLiteral("telegram")},
                {QStringLiteral("token"), QStringLiteral("123:abc")},
                {QStringLiteral("chat_id"), 1}})
        << false
        << QStringLiteral("w.json: notify[0].token: expected a reference such as \"env:NAME\" or \"keychain:NAME\"; "
                          "secrets are never stored in a workspace");
    QTest::newRow("telegram without chat")
        << obj({{kType, QStringLiteral("telegram")}, {QStringLiteral("token"), QStringLiteral("env:T")}}) << false
        << QStringLiteral("w.json: notify[0].chat_id: missing, expected a chat id");
    QTest::newRow("literal credential header")
        << obj({{kType, QStringLiteral("webhook")},
                {kUrl, QStringLiteral("https://a/")},
                {QStringLiteral("headers"), obj({{QStringLiteral("X-Api-Key"), QStringLiteral("abc")}})}})
        << false
        << QStringLiteral("w.json: notify[0].headers.X-Api-Key: expected a reference such as \"env:NAME\" or "
                          "\"keychain:NAME\"; secrets are never stored in a workspace");
    QTest::newRow("cap out of range")
        << obj({{kType, QStringLiteral("webhook")},
                {kUrl, QStringLiteral("https://a/")},
                {QStringLiteral("max_per_minute"), 0}})
        << false << QStringLiteral("w.json: notify[0].max_per_minute: expected an integer from 1 to 600, found 0");
}

void tst_NotifyWorkspace::refuses()
{
    QFETCH(QJsonObject, entry);
    QFETCH(bool, inStream);
    QFETCH(QString, error);
    Workspace ws;
    const auto r =
        Workspace::parse(inStream ? workspace({}, {entry}) : workspace({entry}), QStringLiteral("w.json"), ws);
    QVERIFY(!r.ok);
    QCOMPARE(r.error, error);
}

void tst_NotifyWorkspace::unknownKeyWarns()
{
    Workspace ws;
    const auto r = Workspace::parse(workspace({obj({{kType, QStringLiteral("webhook")},
                                                    {kUrl, QStringLiteral("https://a/")},
                                                    {QStringLiteral("colour"), QStringLiteral("red")}})}),
                                    QStringLiteral("w.json"), ws);
    QVERIFY(r.ok);
    QCOMPARE(r.warnings, QStringList{QStringLiteral("w.json: notify[0].colour: unknown key, ignored")});
}

void tst_NotifyWorkspace::roundTrip()
{
    Workspace ws;
    QVERIFY(Workspace::parse(workspace({obj({{kType, QStringLiteral("slack")}, {kUrl, QStringLiteral("env:S")}})},
                                       {obj({{kType, QStringLiteral("telegram")},
                                             {QStringLiteral("token"), QStringLiteral("env:T")},
                                             {QStringLiteral("chat_id"), QStringLiteral("@ops")},
                                             {QStringLiteral("max_per_minute"), 3}})}),
                             QStringLiteral("w.json"), ws)
                .ok);
    Workspace again;
    const auto r = Workspace::parse(QJsonDocument(ws.toJson()).toJson(), QStringLiteral("again.json"), again);
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(again.notify, ws.notify);
    QCOMPARE(again.streams[0].notify, ws.streams[0].notify);
    QCOMPARE(again.streams[0].notify[0].maxPerMinute, 3);
}

STREAMSCOPE_TEST_GUILESS_MAIN(tst_NotifyWorkspace)
#include "tst_notifyworkspace.moc"
