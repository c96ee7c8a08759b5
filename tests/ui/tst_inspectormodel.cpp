#include "../common/TestRegistry.h"
#include "InspectorModel.h"

#include <QtTest/QAbstractItemModelTester>
#include <QtTest/QTest>

using namespace streamscope;
using namespace streamscope::ui;

namespace {
QVector<InspectedMessage> messages(const QList<QByteArray> &texts, qint64 t0 = 1000)
{
    QVector<InspectedMessage> out;
    for (const QByteArray &t : texts) {
        InspectedMessage m;
        m.receivedMs = t0++;
        m.latencyMs = 1.5;
        m.text = t;
        out.append(m);
    }
    return out;
}
} // namespace

class tst_InspectorModel : public QObject {
    Q_OBJECT
private slots:
    void textFilter();
    void regexFilter();
    void matchSpansForHighlighting();
    void invalidRegexKeepsPreviousFilter();
    void newMessagesAreFilteredOnArrival();
    void freezeHoldsMessagesUntilResume();
    void capacityDropsOldestAndCounts();
    void htmlIsPlainText();
    void prettyPrintsJson();
};

void tst_InspectorModel::textFilter()
{
    InspectorModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.append(messages(
        {R"({"e":"trade","s":"BTCUSDT"})", R"({"e":"aggTrade","s":"ETHUSDT"})", R"({"e":"trade","s":"ethusdt"})"}));
    QCOMPARE(model.rowCount(), 3);
    QVERIFY(model.setFilter(QStringLiteral("ETHUSDT"), false));
    QCOMPARE(model.rowCount(), 2); // case-insensitive
    QVERIFY(model.setFilter(QStringLiteral("\"e\":\"trade\""), false));
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.entryAt(0)->receivedMs, 1000);
    QCOMPARE(model.entryAt(1)->receivedMs, 1002);
    QVERIFY(model.setFilter(QString(), false));
    QCOMPARE(model.rowCount(), 3);
}

void tst_InspectorModel::regexFilter()
{
    InspectorModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.append(messages({R"({"u":100})", R"({"u":101})", R"({"u":2000})", "error here"}));
    QVERIFY(model.setFilter(QStringLiteral(R"("u":10\d\})"), true));
    QCOMPARE(model.rowCount(), 2);
    QVERIFY(model.setFilter(QStringLiteral("^ERROR"), true)); // case-insensitive too
    QCOMPARE(model.rowCount(), 1);
}

void tst_InspectorModel::matchSpansForHighlighting()
{
    InspectorModel model;
    QVERIFY(model.matchSpans(QStringLiteral("anything")).isEmpty()); // no filter, no highlight
    QVERIFY(model.setFilter(QStringLiteral("usdt"), false));
    const QString text = QStringLiteral("{\"s\":\"BTCUSDT\",\"x\":\"ethusdt\"}");
    QVector<InspectorModel::Span> spans = model.matchSpans(text);
    QCOMPARE(spans.size(), 2);
    QCOMPARE(text.mid(spans[0].start, spans[0].length), QStringLiteral("USDT"));
    QCOMPARE(text.mid(spans[1].start, spans[1].length), QStringLiteral("usdt"));
    QVERIFY(model.setFilter(QStringLiteral("usdt"), false, nullptr, true)); // Match case
    spans = model.matchSpans(text);
    QCOMPARE(spans.size(), 1);
    QCOMPARE(text.mid(spans[0].start, spans[0].length), QStringLiteral("usdt"));
    QVERIFY(model.setFilter(QStringLiteral("[a-z]*usdt"), true));
    spans = model.matchSpans(text, 1); // at most as many as asked for
    QCOMPARE(spans.size(), 1);
    QCOMPARE(text.mid(spans[0].start, spans[0].length), QStringLiteral("BTCUSDT"));
    // In the pretty view, the spaces and line breaks of the indentation do not hide a match.
    QVERIFY(model.setFilter(QStringLiteral("\"m\":false,\"M\""), false, nullptr, true));
    const QString pretty = InspectorModel::prettyText(R"({"m":false,"M":true,"x":"m:false"})");
    spans = model.prettyMatchSpans(pretty);
    QCOMPARE(spans.size(), 1);
    QCOMPARE(pretty.mid(spans[0].start, spans[0].length), QStringLiteral("\"m\": false,\n    \"M\""));
    QVERIFY(model.setFilter(QStringLiteral("x*"), true)); // empty matches are no spans
    QCOMPARE(model.matchSpans(QStringLiteral("abc")).size(), 0);
}

void tst_InspectorModel::invalidRegexKeepsPreviousFilter()
{
    InspectorModel model;
    model.append(messages({"abc", "abd", "xyz"}));
    QVERIFY(model.setFilter(QStringLiteral("ab"), true));
    QCOMPARE(model.rowCount(), 2);
    QString error;
    QVERIFY(!model.setFilter(QStringLiteral("ab("), true, &error));
    QVERIFY2(error.startsWith(QStringLiteral("Invalid regular expression at 3")), qPrintable(error));
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.filterText(), QStringLiteral("ab"));
}

void tst_InspectorModel::newMessagesAreFilteredOnArrival()
{
    InspectorModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(model.setFilter(QStringLiteral("keep"), false));
    model.append(messages({"keep 1", "drop", "keep 2"}));
    model.append(messages({"drop", "keep 3"}, 2000));
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.storedCount(), 5);
    QCOMPARE(model.index(2, InspectorModel::ColMessage).data().toString(), QStringLiteral("keep 3"));
}

void tst_InspectorModel::freezeHoldsMessagesUntilResume()
{
    InspectorModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.append(messages({"a", "b"}));
    model.setFrozen(true);
    model.append(messages({"c", "d", "e"}));
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.pendingCount(), 3);
    model.setFrozen(false);
    QCOMPARE(model.rowCount(), 5);
    QCOMPARE(model.pendingCount(), 0);
    QCOMPARE(model.index(4, InspectorModel::ColMessage).data().toString(), QStringLiteral("e"));
}

void tst_InspectorModel::capacityDropsOldestAndCounts()
{
    InspectorModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setCapacity(4);
    QVERIFY(model.setFilter(QStringLiteral("even"), false));
    model.append(messages({"even 0", "odd 1", "even 2"}));
    model.append(messages({"odd 3", "even 4", "odd 5"}, 2000));
    QCOMPARE(model.storedCount(), 4);
    QCOMPARE(model.droppedCount(), 2u);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(0, InspectorModel::ColMessage).data().toString(), QStringLiteral("even 2"));
    model.append(messages({"0", "1", "2", "3", "4", "5", "6"}, 3000)); // more than capacity in one batch
    QCOMPARE(model.storedCount(), 4);
    QCOMPARE(model.rowCount(), 0);
}

void tst_InspectorModel::htmlIsPlainText()
{
    InspectorModel model;
    model.append(messages({"<b>bold</b>\n<script>x</script>"}));
    // Newlines are flattened for the one-line preview; the markup stays as typed.
    QCOMPARE(model.index(0, InspectorModel::ColMessage).data().toString(),
             QStringLiteral("<b>bold</b> <script>x</script>"));
}

void tst_InspectorModel::prettyPrintsJson()
{
    // The message's key order (not sorted), arrays without objects on one line, strings as
    // they came (escapes and all).
    const QByteArray message = "{\"s\":\"BTC\",\"E\":1,\"e\":\"depthUpdate\",\"b\":[[\"0.1\",\"2\"],[\"0.2\",\"3\"]],"
                               "\"x\":{\"k\":[1, 2,3],\"t\":\"a,\\\"b:{\"},\"n\":[],\"o\":{}}";
    QCOMPARE(InspectorModel::prettyText(message),
             QStringLiteral("{\n"
                            "    \"s\": \"BTC\",\n"
                            "    \"E\": 1,\n"
                            "    \"e\": \"depthUpdate\",\n"
                            "    \"b\": [\n"
                            "        [\"0.1\", \"2\"],\n"
                            "        [\"0.2\", \"3\"]\n"
                            "    ],\n"
                            "    \"x\": {\n"
                            "        \"k\": [1, 2, 3],\n"
                            "        \"t\": \"a,\\\"b:{\"\n"
                            "    },\n"
                            "    \"n\": [],\n"
                            "    \"o\": {}\n"
                            "}"));
    QCOMPARE(InspectorModel::prettyText("not json"), QStringLiteral("not json"));
    QCOMPARE(InspectorModel::prettyText("{\"a\":"), QStringLiteral("{\"a\":")); // cut short: as it came
}

STREAMSCOPE_TEST_MAIN(tst_InspectorModel)
#include "tst_inspectormodel.moc"
