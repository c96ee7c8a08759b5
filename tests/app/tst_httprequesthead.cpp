// The request-head parser without a network: whole heads, heads received a byte at a time,
// and the limits at their exact edges.

#include "../common/TestRegistry.h"
#include "HttpRequestHead.h"

#include <QtTest/QtTest>

using streamscope::app::HeadParseResult;
using streamscope::app::HeadParseStatus;
using streamscope::app::HttpServerLimits;
using streamscope::app::parseRequestHead;

Q_DECLARE_METATYPE(HeadParseStatus)

class TestHttpRequestHead : public QObject {
    Q_OBJECT
private slots:
    void parse_data();
    void parse();
    void limitsAtTheirEdges_data();
    void limitsAtTheirEdges();
};

void TestHttpRequestHead::parse_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<HeadParseStatus>("status");
    QTest::addColumn<QByteArray>("method");
    QTest::addColumn<QByteArray>("path");
    QTest::addColumn<int>("versionMinor");
    QTest::addColumn<QByteArray>("connection");
    QTest::addColumn<bool>("hasBody");
    const auto ok = HeadParseStatus::Complete;
    QTest::newRow("scrape") << QByteArray("GET /metrics HTTP/1.1\r\nHost: x\r\nAccept: */*\r\n\r\n") << ok
                            << QByteArray("GET") << QByteArray("/metrics") << 1 << QByteArray() << false;
    QTest::newRow("bare LF line ends") << QByteArray("HEAD /metrics HTTP/1.0\nHost: x\n\n") << ok << QByteArray("HEAD")
                                       << QByteArray("/metrics") << 0 << QByteArray() << false;
    QTest::newRow("query string dropped") << QByteArray("GET /metrics?a=b HTTP/1.1\r\n\r\n") << ok << QByteArray("GET")
                                          << QByteArray("/metrics") << 1 << QByteArray() << false;
    QTest::newRow("Connection headers joined, lower case")
        << QByteArray("GET / HTTP/1.1\r\nConnection: Keep-Alive\r\nconnection: TE\r\n\r\n") << ok << QByteArray("GET")
        << QByteArray("/") << 1 << QByteArray("keep-alive,te") << false;
    QTest::newRow("Content-Length 0 is no body") << QByteArray("POST / HTTP/1.1\r\nContent-Length: 00\r\n\r\n") << ok
                                                 << QByteArray("POST") << QByteArray("/") << 1 << QByteArray() << false;
    QTest::newRow("Content-Length 5 is a body") << QByteArray("POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\n") << ok
                                                << QByteArray("POST") << QByteArray("/") << 1 << QByteArray() << true;
    QTest::newRow("Transfer-Encoding is a body")
        << QByteArray("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n") << ok << QByteArray("POST")
        << QByteArray("/") << 1 << QByteArray() << true;
    const QByteArray none;
    QTest::newRow("HTTP/2.0") << QByteArray("GET / HTTP/2.0\r\n\r\n") << HeadParseStatus::VersionNotSupported << none
                              << none << 0 << none << false;
    QTest::newRow("HTTP/1.9") << QByteArray("GET / HTTP/1.9\r\n\r\n") << HeadParseStatus::VersionNotSupported << none
                              << none << 0 << none << false;
    QTest::newRow("HTTP/1.10") << QByteArray("GET / HTTP/1.10\r\n\r\n") << HeadParseStatus::BadRequest << none << none
                               << 0 << none << false;
    QTest::newRow("no version") << QByteArray("GET /\r\n\r\n") << HeadParseStatus::BadRequest << none << none << 0
                                << none << false;
    QTest::newRow("empty request line") << QByteArray("\r\n") << HeadParseStatus::BadRequest << none << none << 0
                                        << none << false;
    QTest::newRow("method with a slash") << QByteArray("G/T / HTTP/1.1\r\n\r\n") << HeadParseStatus::BadRequest << none
                                         << none << 0 << none << false;
    QTest::newRow("control byte in target") << QByteArray("GET /a\x01 HTTP/1.1\r\n\r\n") << HeadParseStatus::BadRequest
                                            << none << none << 0 << none << false;
    QTest::newRow("header name with space") << QByteArray("GET / HTTP/1.1\r\nX Y: 1\r\n\r\n")
                                            << HeadParseStatus::BadRequest << none << none << 0 << none << false;
    QTest::newRow("negative Content-Length") << QByteArray("GET / HTTP/1.1\r\nContent-Length: -1\r\n\r\n")
                                             << HeadParseStatus::BadRequest << none << none << 0 << none << false;
}

void TestHttpRequestHead::parse()
{
    QFETCH(QByteArray, bytes);
    QFETCH(HeadParseStatus, status);
    QFETCH(QByteArray, method);
    QFETCH(QByteArray, path);
    QFETCH(int, versionMinor);
    QFETCH(QByteArray, connection);
    QFETCH(bool, hasBody);
    const HttpServerLimits limits;
    const QByteArray trailing = "GET /next HTTP/1.1\r\n"; // a pipelined request is not consumed
    const HeadParseResult whole = parseRequestHead(bytes + trailing, limits);
    QCOMPARE(whole.status, status);
    if (status == HeadParseStatus::Complete) {
        QCOMPARE(whole.consumed, bytes.size());
        QCOMPARE(whole.head.method, method);
        QCOMPARE(whole.head.path, path);
        QCOMPARE(whole.head.versionMinor, versionMinor);
        QCOMPARE(whole.head.connection, connection);
        QCOMPARE(whole.head.hasBody, hasBody);
    }
    // Received in two parts split anywhere: incomplete until the end, or refused as early.
    for (qsizetype split = 0; split < bytes.size(); ++split) {
        const HeadParseStatus part = parseRequestHead(bytes.first(split), limits).status;
        if (part != HeadParseStatus::NeedMore)
            QCOMPARE(part, status);
    }
}

void TestHttpRequestHead::limitsAtTheirEdges_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<HeadParseStatus>("status");
    HttpServerLimits limits;
    const qsizetype line = limits.maxRequestLineBytes;
    const QByteArray prefix = "GET /";
    const QByteArray suffix = " HTTP/1.1";
    const auto requestLine = [&](qsizetype size) {
        return prefix + QByteArray(size - prefix.size() - suffix.size(), 'a') + suffix;
    };
    QTest::newRow("request line at the limit")
        << QByteArray(requestLine(line) + "\r\n\r\n") << HeadParseStatus::Complete;
    QTest::newRow("request line one over")
        << QByteArray(requestLine(line + 1) + "\r\n\r\n") << HeadParseStatus::UriTooLong;
    QTest::newRow("no line end at the limit") << QByteArray(line + 1, 'G') << HeadParseStatus::NeedMore;
    QTest::newRow("no line end past the limit") << QByteArray(line + 2, 'G') << HeadParseStatus::UriTooLong;
    // One header line whose bytes with CRLF are exactly the header limit.
    const qsizetype headers = limits.maxHeaderBytes;
    const auto header = [](qsizetype size) { return "X: " + QByteArray(size - 5, 'h') + "\r\n"; };
    QTest::newRow("headers at the limit")
        << QByteArray("GET / HTTP/1.1\r\n" + header(headers) + "\r\n") << HeadParseStatus::Complete;
    QTest::newRow("headers one over") << QByteArray("GET / HTTP/1.1\r\n" + header(headers + 1) + "\r\n")
                                      << HeadParseStatus::HeadersTooLarge;
    QTest::newRow("unfinished headers past the limit")
        << QByteArray("GET / HTTP/1.1\r\n" + QByteArray(headers + 3, 'h')) << HeadParseStatus::HeadersTooLarge;
}

void TestHttpRequestHead::limitsAtTheirEdges()
{
    QFETCH(QByteArray, bytes);
    QFETCH(HeadParseStatus, status);
    QCOMPARE(parseRequestHead(bytes, HttpServerLimits{}).status, status);
}

STREAMSCOPE_TEST_GUILESS_MAIN(TestHttpRequestHead)
#include "tst_httprequesthead.moc"
