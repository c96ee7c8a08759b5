// The workspace's "record" objects (docs/capture.md): top level for every stream, per stream
// over it; every key checked like the rest of the file; saved and loaded back unchanged.
#include "../common/TestRegistry.h"
#include "Workspace.h"

#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

using namespace streamscope;

namespace {
QByteArray workspace(const QByteArray &top, const QByteArray &first, const QByteArray &second = {})
{
    return "{\"version\": 1" + top + ", \"streams\": [" + "{\"name\": \"a\", \"url\": \"ws://127.0.0.1:1/a\"" + first
        + "}," + "{\"name\": \"b\", \"url\": \"ws://127.0.0.1:1/b\"" + second + "}]}";
}
} // namespace

class TestCaptureWorkspace : public QObject {
    Q_OBJECT
private slots:
    void topLevelAndPerStream()
    {
        Workspace ws;
        const auto r = Workspace::parse(
            workspace(", \"record\": {\"dir\": \"/data/captures\", \"rotate_mb\": 512, \"rotate_s\": 3600}",
                      ", \"record\": {\"compress\": false, \"level\": 3, \"buffer_mb\": 32}",
                      ", \"record\": {\"enabled\": false}"),
            QStringLiteral("w.json"), ws);
        QVERIFY2(r.ok, qPrintable(r.error));
        QVERIFY(r.warnings.isEmpty());
        const RecordConfig &a = ws.streams[0].record;
        QCOMPARE(a.dir, QStringLiteral("/data/captures"));
        QCOMPARE(a.rotateMb, 512);
        QCOMPARE(a.rotateS, 3600);
        QCOMPARE(a.compress, false);
        QCOMPARE(a.level, 3);
        QCOMPARE(a.bufferMb, 32);
        QVERIFY(a.active());
        QVERIFY(!ws.streams[1].record.active());
        QCOMPARE(ws.streams[1].record.dir, QStringLiteral("/data/captures"));

        // Saved: the top level once, each stream with its differences only; loaded back the same.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("saved.json"));
        QString error;
        QVERIFY2(ws.save(path, &error), qPrintable(error));
        Workspace back;
        const auto loaded = Workspace::load(path, back);
        QVERIFY2(loaded.ok, qPrintable(loaded.error));
        QVERIFY(back.streams[0].record == a);
        QVERIFY(back.streams[1].record == ws.streams[1].record);
        QVERIFY(back.record == ws.record);
        const QJsonObject saved = ws.toJson();
        QCOMPARE(saved.value(QStringLiteral("record")).toObject().value(QStringLiteral("dir")).toString(),
                 QStringLiteral("/data/captures"));
        QVERIFY(!saved.value(QStringLiteral("streams"))
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(QStringLiteral("record"))
                     .toObject()
                     .contains(QStringLiteral("dir")));
    }

    void relativeFolderIsBesideTheWorkspace()
    {
        Workspace ws;
        const auto r =
            Workspace::parse(workspace({}, ", \"record\": {\"dir\": \"caps\"}"), QStringLiteral("/home/u/w.json"), ws);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(ws.streams[0].record.dir, QStringLiteral("/home/u/caps"));
        QVERIFY(!ws.streams[1].record.active()); // no folder: not recording
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("top");
        QTest::addColumn<QByteArray>("stream");
        QTest::addColumn<QString>("error");
        QTest::newRow("dir not a string")
            << QByteArray() << QByteArray(", \"record\": {\"dir\": 5}")
            << QStringLiteral("w.json: streams[0].record.dir: expected a string, found a number");
        QTest::newRow("record not an object") << QByteArray(", \"record\": true") << QByteArray()
                                              << QStringLiteral("w.json: record: expected an object, found a boolean");
        QTest::newRow("rotate_mb negative")
            << QByteArray() << QByteArray(", \"record\": {\"rotate_mb\": -1}")
            << QStringLiteral("w.json: streams[0].record.rotate_mb: expected an integer "
                              "from 0 to 1048576, found -1");
        QTest::newRow("compress a string") << QByteArray(", \"record\": {\"compress\": \"yes\"}") << QByteArray()
                                           << QStringLiteral("w.json: record.compress: expected true or false, found "
                                                             "a string");
        QTest::newRow("level out of range") << QByteArray() << QByteArray(", \"record\": {\"level\": 22}")
                                            << QStringLiteral("w.json: streams[0].record.level: expected an integer "
                                                              "from 1 to 19, found 22");
        QTest::newRow("empty dir") << QByteArray(", \"record\": {\"dir\": \" \"}") << QByteArray()
                                   << QStringLiteral("w.json: record.dir: expected a folder name");
    }
    void errors()
    {
        QFETCH(QByteArray, top);
        QFETCH(QByteArray, stream);
        QFETCH(QString, error);
        Workspace ws;
        const auto r = Workspace::parse(workspace(top, stream), QStringLiteral("w.json"), ws);
        QVERIFY(!r.ok);
        QCOMPARE(r.error, error);
    }

    void unknownKeyWarns()
    {
        Workspace ws;
        const auto r = Workspace::parse(workspace(", \"record\": {\"dir\": \"/x\", \"rotate\": 5}", {}),
                                        QStringLiteral("w.json"), ws);
        QVERIFY(r.ok);
        QCOMPARE(r.warnings, QStringList{QStringLiteral("w.json: record.rotate: unknown key, ignored")});
    }
};

STREAMSCOPE_TEST_GUILESS_MAIN(TestCaptureWorkspace)
#include "tst_captureworkspace.moc"
