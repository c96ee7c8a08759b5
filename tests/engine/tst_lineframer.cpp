// LineFramer: CRLF framing of a byte stream whose read boundaries fall anywhere. Fed bytes
// directly, no socket (as qtwebsockets' tst_dataprocessor feeds a QBuffer).

#include "../common/TestRegistry.h"
#include "transport/LineFramer.h"

#include <QtTest/QtTest>

using streamscope::LineFramer;

namespace {

using FramerStatus = LineFramer::Status;

// What the framer hands over, copied out of its callback.
struct Collector {
    QList<QByteArray> messages;
    void operator()(const char *data, qsizetype len) { messages.append(QByteArray(data, len)); }
};

FramerStatus feed(LineFramer &framer, const QByteArray &bytes, Collector &out)
{
    return framer.feed(bytes.constData(), bytes.size(), [&out](const char *d, qsizetype n) { out(d, n); });
}

// Reference framing: split on LF, drop one trailing CR, skip empty lines. Also returns, for
// each message, the offset of its LF (the byte at which it is complete).
QList<QByteArray> referenceMessages(const QByteArray &stream, QList<qsizetype> *terminators = nullptr)
{
    QList<QByteArray> out;
    qsizetype start = 0;
    for (qsizetype i = 0; i < stream.size(); ++i) {
        if (stream.at(i) != '\n')
            continue;
        QByteArray line = stream.mid(start, i - start);
        if (line.endsWith('\r'))
            line.chop(1);
        if (!line.isEmpty()) {
            out.append(line);
            if (terminators)
                terminators->append(i);
        }
        start = i + 1;
    }
    return out;
}

int completeBefore(const QList<qsizetype> &terminators, qsizetype fedBytes)
{
    int n = 0;
    for (qsizetype t : terminators)
        n += t < fedBytes ? 1 : 0;
    return n;
}

// The example Betfair session of docs/venues.md, server side, each line CRLF-terminated.
QByteArray betfairSession()
{
    return QByteArrayLiteral(
        "{\"op\":\"connection\",\"connectionId\":\"002-051134157842-432409\"}\r\n"
        "{\"op\":\"status\",\"id\":1,\"statusCode\":\"SUCCESS\",\"connectionClosed\":false,\"connectionsAvailable\":9}"
        "\r\n"
        "{\"op\":\"mcm\",\"id\":2,\"clk\":\"AEYAVAA7\",\"pt\":1449855401068,\"mc\":[{\"id\":\"1.120684740\",\"rc\":[{"
        "\"id\":47972,\"ltp\":2.52}]}]}\r\n"
        "{\"op\":\"mcm\",\"id\":2,\"clk\":\"AIEBAJ4BAIEB\",\"pt\":1449855402068,\"ct\":\"HEARTBEAT\"}\r\n");
}

QList<QByteArray> chunks(const QByteArray &bytes, qsizetype size)
{
    QList<QByteArray> out;
    for (qsizetype i = 0; i < bytes.size(); i += size)
        out.append(bytes.mid(i, size));
    return out;
}

} // namespace

class tst_LineFramer : public QObject {
    Q_OBJECT

private slots:
    void feedReads_data();
    void feedReads();
    void splitAtEveryPosition_data();
    void splitAtEveryPosition();
    void oversized_data();
    void oversized();
    void deliversFromCallerBufferWhenWhole();
};

void tst_LineFramer::feedReads_data()
{
    QTest::addColumn<QList<QByteArray>>("reads");
    QTest::addColumn<QList<QByteArray>>("expected");
    // Messages delivered in total after each read: a complete message is never held back.
    QTest::addColumn<QList<int>>("deliveredAfterRead");
    QTest::addColumn<int>("bufferedAtEnd");

    QTest::newRow("two messages in one read") << QList<QByteArray>{"{\"a\":1}\r\n{\"b\":2}\r\n"}
                                              << QList<QByteArray>{"{\"a\":1}", "{\"b\":2}"} << QList<int>{2} << 0;
    QTest::newRow("two messages and a partial third in one read")
        << QList<QByteArray>{"one\r\ntwo\r\nthr", "ee\r\n"} << QList<QByteArray>{"one", "two", "three"}
        << QList<int>{2, 3} << 0;
    QTest::newRow("CR at end of one read, LF at start of next")
        << QList<QByteArray>{"hello\r", "\nworld\r\n"} << QList<QByteArray>{"hello", "world"} << QList<int>{0, 2} << 0;
    QTest::newRow("CR alone, then LF alone")
        << QList<QByteArray>{"abc", "\r", "\n"} << QList<QByteArray>{"abc"} << QList<int>{0, 0, 1} << 0;
    QTest::newRow("bare LF") << QList<QByteArray>{"one\ntwo\n"} << QList<QByteArray>{"one", "two"} << QList<int>{2}
                             << 0;
    QTest::newRow("bare LF split before the LF")
        << QList<QByteArray>{"one", "\ntwo", "\n"} << QList<QByteArray>{"one", "two"} << QList<int>{0, 1, 2} << 0;
    QTest::newRow("CRLF and bare LF mixed")
        << QList<QByteArray>{"a\r\nb\nc\r\n"} << QList<QByteArray>{"a", "b", "c"} << QList<int>{3} << 0;
    QTest::newRow("empty lines skipped") << QList<QByteArray>{"\r\n\r\na\r\n\n\r\n", "\r\n", "\nb\r\n\r\n"}
                                         << QList<QByteArray>{"a", "b"} << QList<int>{1, 1, 2} << 0;
    QTest::newRow("empty line split inside its CRLF")
        << QList<QByteArray>{"a\r\n\r", "\nb\r\n"} << QList<QByteArray>{"a", "b"} << QList<int>{1, 2} << 0;
    QTest::newRow("CR inside a message is data")
        << QList<QByteArray>{"a\rb\r\n"} << QList<QByteArray>{"a\rb"} << QList<int>{1} << 0;
    QTest::newRow("empty reads change nothing") << QList<QByteArray>{"", "ab", "", "c\r", "", "\n", ""}
                                                << QList<QByteArray>{"abc"} << QList<int>{0, 0, 0, 0, 0, 1, 1} << 0;
    QTest::newRow("partial message held until its terminator")
        << QList<QByteArray>{"{\"op\":\"mcm\""} << QList<QByteArray>{} << QList<int>{0} << 11;

    const QByteArray big = QByteArray(1000, 'x') + "END";
    QList<QByteArray> bigReads = chunks(big + "\r\nafter\r\n", 7);
    QList<int> bigDelivered(145, 0); // 1012 bytes in reads of 7
    // The big message's LF is at offset 1004 (read 143, 1001..1007), "after"'s at 1011 (read 144).
    bigDelivered[143] = 1;
    bigDelivered[144] = 2;
    QTest::newRow("message larger than any single read")
        << bigReads << QList<QByteArray>{big, "after"} << bigDelivered << 0;
}

void tst_LineFramer::feedReads()
{
    QFETCH(QList<QByteArray>, reads);
    QFETCH(QList<QByteArray>, expected);
    QFETCH(QList<int>, deliveredAfterRead);
    QFETCH(int, bufferedAtEnd);
    QCOMPARE(deliveredAfterRead.size(), reads.size());

    LineFramer framer;
    Collector out;
    for (qsizetype i = 0; i < reads.size(); ++i) {
        QCOMPARE(feed(framer, reads.at(i), out), FramerStatus::Ok);
        QCOMPARE(out.messages.size(), deliveredAfterRead.at(i));
    }
    QCOMPARE(out.messages, expected);
    QCOMPARE(framer.bufferedBytes(), qsizetype(bufferedAtEnd));
}

void tst_LineFramer::splitAtEveryPosition_data()
{
    QTest::addColumn<QByteArray>("stream");
    QTest::addColumn<int>("messageCount");

    QTest::newRow("Betfair session, CRLF") << betfairSession() << 4;
    QByteArray lf = betfairSession();
    lf.replace("\r\n", "\n");
    QTest::newRow("Betfair session, bare LF") << lf << 4;
    QTest::newRow("short messages and empty lines") << QByteArrayLiteral("a\r\n\r\nbc\n\ndef\r\n\r\n\r\ng\r\n") << 4;
}

void tst_LineFramer::splitAtEveryPosition()
{
    QFETCH(QByteArray, stream);
    QFETCH(int, messageCount);

    QList<qsizetype> terminators;
    const QList<QByteArray> expected = referenceMessages(stream, &terminators);
    QCOMPARE(expected.size(), messageCount);

    // One cut at every position: nothing lost, nothing held back after the first part.
    for (qsizetype cut = 0; cut <= stream.size(); ++cut) {
        LineFramer framer;
        Collector out;
        QCOMPARE(feed(framer, stream.left(cut), out), FramerStatus::Ok);
        if (out.messages.size() != completeBefore(terminators, cut))
            QFAIL(qPrintable(QStringLiteral("cut at %1: %2 messages delivered after the first part, expected %3")
                                 .arg(cut)
                                 .arg(out.messages.size())
                                 .arg(completeBefore(terminators, cut))));
        QCOMPARE(feed(framer, stream.mid(cut), out), FramerStatus::Ok);
        if (out.messages != expected)
            QFAIL(qPrintable(QStringLiteral("cut at %1: messages differ").arg(cut)));
        QCOMPARE(framer.bufferedBytes(), qsizetype(0));
    }

    // Two cuts at every pair of positions.
    for (qsizetype a = 0; a <= stream.size(); ++a) {
        for (qsizetype b = a; b <= stream.size(); ++b) {
            LineFramer framer;
            Collector out;
            QCOMPARE(feed(framer, stream.left(a), out), FramerStatus::Ok);
            QCOMPARE(feed(framer, stream.mid(a, b - a), out), FramerStatus::Ok);
            if (out.messages.size() != completeBefore(terminators, b))
                QFAIL(qPrintable(QStringLiteral("cuts at %1 and %2: held back").arg(a).arg(b)));
            QCOMPARE(feed(framer, stream.mid(b), out), FramerStatus::Ok);
            if (out.messages != expected)
                QFAIL(qPrintable(QStringLiteral("cuts at %1 and %2: messages differ").arg(a).arg(b)));
        }
    }

    // One byte per read.
    LineFramer framer;
    Collector out;
    for (qsizetype i = 0; i < stream.size(); ++i) {
        QCOMPARE(feed(framer, stream.mid(i, 1), out), FramerStatus::Ok);
        QCOMPARE(out.messages.size(), completeBefore(terminators, i + 1));
    }
    QCOMPARE(out.messages, expected);
}

void tst_LineFramer::oversized_data()
{
    QTest::addColumn<int>("limit");
    QTest::addColumn<QList<QByteArray>>("reads");
    QTest::addColumn<int>("oversizedAtRead"); // -1: never
    QTest::addColumn<QList<QByteArray>>("expected");

    const QByteArray ten = "0123456789";
    const QByteArray eleven = "0123456789A";

    QTest::newRow("exactly the limit, one read")
        << 10 << QList<QByteArray>{ten + "\r\n"} << -1 << QList<QByteArray>{ten};
    QTest::newRow("exactly the limit, split")
        << 10 << QList<QByteArray>{"01234", "56789\r\n"} << -1 << QList<QByteArray>{ten};
    QTest::newRow("exactly the limit, CR then LF")
        << 10 << QList<QByteArray>{ten + "\r", "\n"} << -1 << QList<QByteArray>{ten};
    QTest::newRow("exactly the limit, bare LF split")
        << 10 << QList<QByteArray>{"01234", "56789\n"} << -1 << QList<QByteArray>{ten};
    QTest::newRow("one over, one read, CRLF") << 10 << QList<QByteArray>{eleven + "\r\n"} << 0 << QList<QByteArray>{};
    QTest::newRow("one over, one read, bare LF") << 10 << QList<QByteArray>{eleven + "\n"} << 0 << QList<QByteArray>{};
    QTest::newRow("one over, split, CRLF")
        << 10 << QList<QByteArray>{"01234", "56789A\r\n"} << 1 << QList<QByteArray>{};
    QTest::newRow("one over, split, bare LF")
        << 10 << QList<QByteArray>{"01234", "56789A\n"} << 1 << QList<QByteArray>{};
    QTest::newRow("one over, then LF alone") << 10 << QList<QByteArray>{eleven, "\n"} << 1 << QList<QByteArray>{};
    QTest::newRow("grows past the limit without a terminator")
        << 10 << QList<QByteArray>{"012345", "6789AB"} << 1 << QList<QByteArray>{};
    QTest::newRow("tail of one read already too long")
        << 10 << QList<QByteArray>{"ok\r\n" + ten + "AB"} << 0 << QList<QByteArray>{"ok"};
    QTest::newRow("messages before the oversized one are delivered")
        << 10 << QList<QByteArray>{"ok\r\n" + eleven + "BC\r\n"} << 0 << QList<QByteArray>{"ok"};
    QTest::newRow("big message in small reads")
        << 100 << chunks(QByteArray(150, 'z') + "\r\n", 16) << 6 << QList<QByteArray>{};
}

void tst_LineFramer::oversized()
{
    QFETCH(int, limit);
    QFETCH(QList<QByteArray>, reads);
    QFETCH(int, oversizedAtRead);
    QFETCH(QList<QByteArray>, expected);

    LineFramer framer(limit);
    Collector out;
    for (qsizetype i = 0; i < reads.size(); ++i) {
        const FramerStatus status = feed(framer, reads.at(i), out);
        if (i == oversizedAtRead) {
            QCOMPARE(status, FramerStatus::Oversized);
            QCOMPARE(framer.bufferedBytes(), qsizetype(0)); // the partial message is dropped
            break;
        }
        QCOMPARE(status, FramerStatus::Ok);
    }
    QCOMPARE(out.messages, expected);
    for (const QByteArray &m : std::as_const(out.messages))
        QVERIFY(m.size() <= limit);

    // After reset (a new connection) the framer works normally.
    framer.reset();
    QCOMPARE(framer.bufferedBytes(), qsizetype(0));
    out.messages.clear();
    QCOMPARE(feed(framer, "next\r\n" + QByteArray(limit, 'm') + "\r", out), FramerStatus::Ok);
    QCOMPARE(feed(framer, "\nlast", out), FramerStatus::Ok);
    QCOMPARE(feed(framer, "\r\n", out), FramerStatus::Ok);
    QCOMPARE(out.messages, (QList<QByteArray>{"next", QByteArray(limit, 'm'), "last"}));
    QCOMPARE(framer.bufferedBytes(), qsizetype(0));
}

void tst_LineFramer::deliversFromCallerBufferWhenWhole()
{
    // A message lying whole inside one read is handed over without a copy.
    const QByteArray read = "one\r\ntwo\r\n";
    LineFramer framer;
    QList<const char *> starts;
    QCOMPARE(framer.feed(read.constData(), read.size(), [&starts](const char *d, qsizetype) { starts.append(d); }),
             FramerStatus::Ok);
    QCOMPARE(starts, (QList<const char *>{read.constData(), read.constData() + 5}));
}

STREAMSCOPE_TEST_GUILESS_MAIN(tst_LineFramer)
#include "tst_lineframer.moc"
