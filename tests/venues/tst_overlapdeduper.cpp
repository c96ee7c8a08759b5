// OverlapDeduper: two connections delivering one ordered event sequence from different
// starting points, in any interleaving, are counted exactly once. No network.

#include "../common/TestRegistry.h"
#include "protocol/MessageDecoder.h"
#include "venues/OverlapDeduper.h"

#include <QtTest/QtTest>

using namespace streamscope;

class TestOverlapDeduper : public QObject {
    Q_OBJECT
private slots:
    void interleavings_data();
    void interleavings();
    void keylessFollowsTheSwitch();
};

namespace {
DecodedFields tradeEvent(const char *stream, std::int64_t id)
{
    DecodedFields f;
    f.stream = stream;
    f.tradeId = id;
    return f;
}
} // namespace

void TestOverlapDeduper::interleavings_data()
{
    // Old delivers [0, oldEnd); new delivers [newStart, 100). `pattern` says which one
    // the next message comes from ('o' old, 'n' new), repeated; the old connection is
    // switched away from as soon as caughtUp() says so.
    QTest::addColumn<int>("oldEnd");
    QTest::addColumn<int>("newStart");
    QTest::addColumn<QByteArray>("pattern");
    QTest::newRow("new starts where old is, alternating") << 100 << 40 << QByteArray("on");
    QTest::newRow("old far behind (its backlog in flight)") << 100 << 40 << QByteArray("onnnn");
    QTest::newRow("old far ahead") << 100 << 10 << QByteArray("oooon");
    QTest::newRow("old ends before the new one starts delivering") << 45 << 40 << QByteArray("ooooooooon");
}

void TestOverlapDeduper::interleavings()
{
    QFETCH(int, oldEnd);
    QFETCH(int, newStart);
    QFETCH(QByteArray, pattern);
    OverlapDeduper d;
    d.begin();
    QMap<std::int64_t, int> counted;
    int oldNext = 0;
    int newNext = newStart;
    bool oldOpen = true;
    int step = 0;
    while (newNext < 100 || (oldOpen && oldNext < oldEnd)) {
        const bool oldCan = oldOpen && oldNext < oldEnd;
        const bool fromOld = oldCan && (newNext >= 100 || pattern.at(step++ % pattern.size()) == 'o');
        if (fromOld) {
            const auto f = tradeEvent("btcusdt@aggTrade", oldNext++);
            if (d.acceptOld(f))
                ++counted[f.tradeId];
            if (d.caughtUp() || oldNext == oldEnd) {
                d.switchOver();
                oldOpen = false;
            }
        } else {
            const auto f = tradeEvent("btcusdt@aggTrade", newNext++);
            if (d.acceptNew(f))
                ++counted[f.tradeId];
            if (oldOpen && d.caughtUp()) {
                d.switchOver();
                oldOpen = false;
            }
        }
    }
    QCOMPARE(int(counted.size()), 100);
    for (auto it = counted.cbegin(); it != counted.cend(); ++it)
        QCOMPARE(it.value(), 1);
    QVERIFY(d.switched());
    QVERIFY(d.settled());
}

void TestOverlapDeduper::keylessFollowsTheSwitch()
{
    OverlapDeduper d;
    d.begin();
    const DecodedFields keyless;
    QVERIFY(d.acceptOld(keyless));
    QVERIFY(!d.acceptNew(keyless));
    d.switchOver();
    QVERIFY(d.acceptNew(keyless));
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestOverlapDeduper)
#include "tst_overlapdeduper.moc"
