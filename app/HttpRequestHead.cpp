#include "HttpRequestHead.h"

namespace streamscope::app {

namespace {

// RFC 9110's tchar: the characters of a method or a header name.
bool isTokenChar(char c)
{
    if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
        return true;
    switch (c) {
    case '!':
    case '#':
    case '$':
    case '%':
    case '&':
    case '\'':
    case '*':
    case '+':
    case '-':
    case '.':
    case '^':
    case '_':
    case '`':
    case '|':
    case '~': return true;
    default: return false;
    }
}

bool isToken(QByteArrayView s)
{
    if (s.isEmpty())
        return false;
    for (char c : s)
        if (!isTokenChar(c))
            return false;
    return true;
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// The line from `from` up to (not including) its LF, without a trailing CR; `end` is the
// index of the LF or -1 if the line is not complete yet.
QByteArrayView lineAt(QByteArrayView buffered, qsizetype from, qsizetype *end)
{
    *end = buffered.indexOf('\n', from);
    if (*end < 0)
        return {};
    QByteArrayView line = buffered.sliced(from, *end - from);
    if (line.endsWith('\r'))
        line.chop(1);
    return line;
}

HeadParseStatus parseRequestLine(QByteArrayView line, HttpRequestHead *head)
{
    const qsizetype sp1 = line.indexOf(' ');
    const qsizetype sp2 = sp1 < 0 ? -1 : line.indexOf(' ', sp1 + 1);
    if (sp2 < 0 || line.indexOf(' ', sp2 + 1) >= 0)
        return HeadParseStatus::BadRequest;
    const QByteArrayView method = line.first(sp1);
    const QByteArrayView target = line.sliced(sp1 + 1, sp2 - sp1 - 1);
    const QByteArrayView version = line.sliced(sp2 + 1);
    if (!isToken(method) || !target.startsWith('/'))
        return HeadParseStatus::BadRequest;
    for (char c : target)
        if (uchar(c) <= 0x20 || uchar(c) == 0x7f)
            return HeadParseStatus::BadRequest;
    // HTTP-version = "HTTP/" DIGIT "." DIGIT; a well-formed other version is unsupported.
    if (version.size() != 8 || !version.startsWith("HTTP/") || !isDigit(version[5]) || version[6] != '.'
        || !isDigit(version[7]))
        return HeadParseStatus::BadRequest;
    if (version[5] != '1' || (version[7] != '0' && version[7] != '1'))
        return HeadParseStatus::VersionNotSupported;
    head->method = method.toByteArray();
    const qsizetype query = target.indexOf('?');
    head->path = (query < 0 ? target : target.first(query)).toByteArray();
    head->versionMinor = version[7] - '0';
    return HeadParseStatus::Complete;
}

HeadParseStatus parseHeaderLine(QByteArrayView line, HttpRequestHead *head)
{
    const qsizetype colon = line.indexOf(':');
    // No name, whitespace before the colon, or an obsolete folded line: RFC 9112 says 400.
    if (colon <= 0 || !isToken(line.first(colon)))
        return HeadParseStatus::BadRequest;
    const QByteArray name = line.first(colon).toByteArray().toLower();
    const QByteArray value = line.sliced(colon + 1).toByteArray().trimmed();
    if (name == "connection" || name == "accept") {
        QByteArray &list = name == "connection" ? head->connection : head->accept;
        if (!list.isEmpty())
            list += ',';
        list += value.toLower();
    } else if (name == "authorization") {
        // Credentials are one value: two headers are ambiguous, and refused.
        if (!head->authorization.isEmpty())
            return HeadParseStatus::BadRequest;
        head->authorization = value;
    } else if (name == "content-length") {
        if (value.isEmpty())
            return HeadParseStatus::BadRequest;
        for (char c : value)
            if (!isDigit(c))
                return HeadParseStatus::BadRequest;
        if (value.count('0') != value.size())
            head->hasBody = true;
    } else if (name == "transfer-encoding") {
        head->hasBody = true;
    }
    return HeadParseStatus::Complete;
}

} // namespace

HeadParseResult parseRequestHead(QByteArrayView buffered, const HttpServerLimits &limits)
{
    HeadParseResult result;
    qsizetype end = -1;
    const QByteArrayView requestLine = lineAt(buffered, 0, &end);
    if (end < 0) {
        // +1: the line's CR may already be here without its LF.
        result.status =
            buffered.size() > limits.maxRequestLineBytes + 1 ? HeadParseStatus::UriTooLong : HeadParseStatus::NeedMore;
        return result;
    }
    if (requestLine.size() > limits.maxRequestLineBytes) {
        result.status = HeadParseStatus::UriTooLong;
        return result;
    }
    result.status = parseRequestLine(requestLine, &result.head);
    if (result.status != HeadParseStatus::Complete)
        return result;
    const qsizetype headersStart = end + 1;
    qsizetype from = headersStart;
    for (;;) {
        const QByteArrayView line = lineAt(buffered, from, &end);
        const qsizetype headerBytes = (end < 0 ? buffered.size() : end + 1) - headersStart;
        if (end < 0) {
            // +2: the empty line's CRLF that ends the section is not counted.
            result.status =
                headerBytes > limits.maxHeaderBytes + 2 ? HeadParseStatus::HeadersTooLarge : HeadParseStatus::NeedMore;
            return result;
        }
        if (line.isEmpty()) {
            result.consumed = end + 1;
            result.status = HeadParseStatus::Complete;
            return result;
        }
        if (headerBytes > limits.maxHeaderBytes) {
            result.status = HeadParseStatus::HeadersTooLarge;
            return result;
        }
        result.status = parseHeaderLine(line, &result.head);
        if (result.status != HeadParseStatus::Complete)
            return result;
        from = end + 1;
    }
}

int statusCode(HeadParseStatus status)
{
    switch (status) {
    case HeadParseStatus::UriTooLong: return 414;
    case HeadParseStatus::HeadersTooLarge: return 431;
    case HeadParseStatus::VersionNotSupported: return 505;
    case HeadParseStatus::Unknown:
    case HeadParseStatus::NeedMore:
    case HeadParseStatus::Complete:
    case HeadParseStatus::BadRequest: break;
    }
    return 400;
}

} // namespace streamscope::app
