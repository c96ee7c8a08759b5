// ConnectAdmission alone: what keeps a configuration from connecting, and when each of a
// stream's connections begins its attempt — at once, at the venue's per-IP slot (OKX: 3 a
// second), or when a place among the attempts under way is free — with links built by hand
// on fake transports and times given by the test.

#include "../common/SessionRig.h"
#include "../common/TestRegistry.h"
#include "protocol/ReceiveBuffer.h"
#include "session/ConnectAdmission.h"
#include "session/ConnectionGroup.h"
#include "session/Link.h"
#include "venues/VenueHandler.h"
#include "venues/VenueHost.h"

#include <QtCore/QTimer>
#include <QtTest/QtTest>

using namespace streamscope;
using namespace streamscope::testing;

namespace {

constexpr qint64 kNowMs = 1'000'000;

// A venue handler's host that takes everything and does nothing with it.
class SilentHost final : public InertVenueHost {
public:
    explicit SilentHost(const StreamConfig &config)
        : m_shared(0, config)
    {
    }
    StreamShared &shared() override { return m_shared; }
    qint64 monotonicMs() const override { return kNowMs; }
    qint64 wallMs() const override { return 0; }

private:
    StreamShared m_shared;
};

StreamConfig configOf(const char *venue, const QString &url)
{
    StreamConfig c;
    c.name = QStringLiteral("admission");
    c.venue = Venue(venue);
    c.url = QUrl(url);
    return c;
}

// One stream: its venue's handler, its admission, its connections.
struct Stream {
    explicit Stream(const StreamConfig &c)
        : config(c)
        , host(config)
        , venue(VenueHandler::create(config, host))
        , admission(config, *venue)
    {
    }
    ~Stream()
    {
        group.retireAll();
        group.freeRetired();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    }
    Link &add()
    {
        auto link = std::make_unique<Link>(nullptr, group.nextId(), 0, false);
        link->config = config;
        link->transport = new FakeTransport(link->config, buffer, *link);
        link->outboxTimer = new QTimer;
        return group.add(std::move(link));
    }
    static bool opened(const Link &l) { return static_cast<const FakeTransport *>(l.transport)->opened; }

    StreamConfig config;
    SilentHost host;
    std::unique_ptr<VenueHandler> venue;
    ConnectAdmission admission;
    ReceiveBuffer buffer;
    ConnectionGroup group;
};

} // namespace

class TestConnectAdmission : public QObject {
    Q_OBJECT
private slots:
    void configProblems_data();
    void configProblems();
    void unpacedAttemptsBeginAtOnce();
    void theVenuesLimitMakesTheFourthWaitForItsSlot();
    void attemptsUnderWayAreBounded();
};

void TestConnectAdmission::configProblems_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("header");
    QTest::addColumn<QString>("problem");
    QTest::newRow("ws") << "ws://127.0.0.1:9/ws" << QString() << QString();
    QTest::newRow("tls") << "tls://127.0.0.1:9" << QString() << QString();
    QTest::newRow("no host") << "ws:///ws" << QString() << "invalid URL 'ws:///ws'";
    QTest::newRow("http") << "http://127.0.0.1:9/" << QString()
                          << "unsupported URL scheme 'http' (expected ws, wss, tcp or tls)";
    QTest::newRow("header secret unset") << "wss://127.0.0.1:9/ws"
                                         << "env:STREAMSCOPE_TEST_UNSET_KEY"
                                         << "header X-Api-Key: secret env:STREAMSCOPE_TEST_UNSET_KEY is not set";
    QTest::newRow("query secret unset") << "wss://127.0.0.1:9/ws?token=env:STREAMSCOPE_TEST_UNSET_TOKEN" << QString()
                                        << "URL query parameter token (env:STREAMSCOPE_TEST_UNSET_TOKEN): the secret "
                                           "is not set";
}

void TestConnectAdmission::configProblems()
{
    QFETCH(QString, url);
    QFETCH(QString, header);
    QFETCH(QString, problem);
    StreamConfig config = configOf("generic", url);
    if (!header.isEmpty())
        config.headers << qMakePair(QStringLiteral("X-Api-Key"), header);
    Stream s(config);
    QCOMPARE(s.admission.configProblem(), problem);
}

void TestConnectAdmission::unpacedAttemptsBeginAtOnce()
{
    Stream s(configOf("okx", QStringLiteral("ws://127.0.0.1:9/ws/v5/public")));
    for (int i = 0; i < 5; ++i) {
        Link &l = s.add();
        QCOMPARE(s.admission.admit(l, kNowMs), kNowMs);
        QVERIFY(Stream::opened(l));
        QVERIFY(!ConnectAdmission::waiting(l));
        QVERIFY(!l.handshake.held()); // no pacer: no place is counted
    }
}

void TestConnectAdmission::theVenuesLimitMakesTheFourthWaitForItsSlot()
{
    Stream s(configOf("okx", QStringLiteral("ws://127.0.0.1:9/ws/v5/public")));
    auto pacer = std::make_shared<ConnectionPacer>();
    s.admission.setPacer(pacer);
    QCOMPARE(s.admission.limitText(), QStringLiteral("OKX allows 3 connection attempts a second per IP address"));
    for (int i = 0; i < 3; ++i) {
        Link &l = s.add();
        QCOMPARE(s.admission.admit(l, kNowMs), kNowMs);
        QVERIFY(Stream::opened(l));
        QVERIFY(l.handshake.held());
    }
    Link &fourth = s.add();
    const qint64 atMs = s.admission.admit(fourth, kNowMs);
    QVERIFY2(atMs >= kNowMs + 1000, qPrintable(QString::number(atMs - kNowMs)));
    QVERIFY(ConnectAdmission::waiting(fourth));
    QVERIFY(!Stream::opened(fourth));

    s.admission.openDue(s.group, atMs - 1);
    QVERIFY(!Stream::opened(fourth));
    s.admission.openDue(s.group, atMs);
    QVERIFY(Stream::opened(fourth));
    QVERIFY(!ConnectAdmission::waiting(fourth));
    QCOMPARE(pacer->handshakesInFlight(), 4);
}

void TestConnectAdmission::attemptsUnderWayAreBounded()
{
    Stream s(configOf("binance", QStringLiteral("ws://127.0.0.1:9/ws")));
    auto pacer = std::make_shared<ConnectionPacer>();
    pacer->setMaxHandshakes(1);
    s.admission.setPacer(pacer);
    Link &first = s.add();
    Link &second = s.add();
    QCOMPARE(s.admission.admit(first, kNowMs), kNowMs);
    QCOMPARE(s.admission.admit(second, kNowMs), kNowMs); // its slot is now, its place is not
    QVERIFY(Stream::opened(first));
    QVERIFY(!Stream::opened(second));
    QVERIFY(ConnectAdmission::waiting(second));

    s.admission.openDue(s.group, kNowMs + 5000);
    QVERIFY(!Stream::opened(second)); // the first is still under way
    first.handshake.release();        // it is up
    s.admission.openDue(s.group, kNowMs + 5001);
    QVERIFY(Stream::opened(second));
    QVERIFY(!ConnectAdmission::waiting(second));
    QCOMPARE(pacer->handshakesInFlight(), 1);
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestConnectAdmission)
#include "tst_connectadmission.moc"
