#include "CaptureFormat.h"

#include <algorithm>
#include <cstring>

namespace streamscope::capture {

namespace {

constexpr qint64 kUsPerSecond = 1'000'000;
constexpr qint64 kSecondsPerDay = 86'400;
// 9999-12-31T23:59:59.999999Z
constexpr qint64 kMaxEpochUs = 253'402'300'799'999'999;

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// Days since 1970-01-01 to a civil date (Howard Hinnant's days_from_civil, inverted).
void civilFromDays(qint64 days, int &year, int &month, int &day)
{
    days += 719468;
    const qint64 era = (days >= 0 ? days : days - 146096) / 146097;
    const qint64 doe = days - era * 146097;
    const qint64 yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const qint64 doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const qint64 mp = (5 * doy + 2) / 153;
    day = int(doy - (153 * mp + 2) / 5 + 1);
    month = int(mp < 10 ? mp + 3 : mp - 9);
    year = int(yoe + era * 400 + (month <= 2 ? 1 : 0));
}

void digits(char *out, qint64 value, int width)
{
    for (int i = width - 1; i >= 0; --i) {
        out[i] = char('0' + value % 10);
        value /= 10;
    }
}

} // namespace

void writeTime(char *out, qint64 epochUs)
{
    epochUs = std::clamp<qint64>(epochUs, 0, kMaxEpochUs);
    const qint64 seconds = epochUs / kUsPerSecond;
    const qint64 micros = epochUs % kUsPerSecond;
    const qint64 days = seconds / kSecondsPerDay;
    const qint64 secondOfDay = seconds % kSecondsPerDay;
    int year = 0;
    int month = 0;
    int day = 0;
    civilFromDays(days, year, month, day);
    digits(out, year, 4);
    out[4] = '-';
    digits(out + 5, month, 2);
    out[7] = '-';
    digits(out + 8, day, 2);
    out[10] = 'T';
    digits(out + 11, secondOfDay / 3600, 2);
    out[13] = ':';
    digits(out + 14, secondOfDay / 60 % 60, 2);
    out[16] = ':';
    digits(out + 17, secondOfDay % 60, 2);
    out[19] = '.';
    digits(out + 20, micros, 6);
    out[26] = 'Z';
}

QByteArray formatTime(qint64 epochUs)
{
    QByteArray out(kTimeChars, Qt::Uninitialized);
    writeTime(out.data(), epochUs);
    return out;
}

bool needsBase64(const char *data, std::size_t len, bool binary)
{
    return binary || std::memchr(data, '\n', len) != nullptr || std::memchr(data, '\r', len) != nullptr;
}

void appendBase64(std::string &out, const char *data, std::size_t len)
{
    const auto *in = reinterpret_cast<const unsigned char *>(data);
    const std::size_t start = out.size();
    out.resize(start + (len + 2) / 3 * 4);
    char *o = out.data() + start;
    std::size_t i = 0;
    for (; i + 3 <= len; i += 3) {
        const unsigned v = unsigned(in[i]) << 16 | unsigned(in[i + 1]) << 8 | in[i + 2];
        *o++ = kAlphabet[v >> 18];
        *o++ = kAlphabet[v >> 12 & 63];
        *o++ = kAlphabet[v >> 6 & 63];
        *o++ = kAlphabet[v & 63];
    }
    if (const std::size_t rest = len - i; rest > 0) {
        const unsigned v = unsigned(in[i]) << 16 | (rest == 2 ? unsigned(in[i + 1]) << 8 : 0u);
        *o++ = kAlphabet[v >> 18];
        *o++ = kAlphabet[v >> 12 & 63];
        *o++ = rest == 2 ? kAlphabet[v >> 6 & 63] : '=';
        *o++ = '=';
    }
}

bool decodeBase64(const char *text, std::size_t len, QByteArray *out)
{
    const auto decoded = QByteArray::fromBase64Encoding(QByteArray::fromRawData(text, qsizetype(len)),
                                                        QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        return false;
    *out = decoded.decoded;
    return true;
}

void appendMessageLine(std::string &out, qint64 epochUs, const char *data, std::size_t len, bool binary)
{
    const std::size_t start = out.size();
    out.resize(start + kTimeChars + 1);
    writeTime(out.data() + start, epochUs);
    if (needsBase64(data, len, binary)) {
        out[start + kTimeChars] = kBase64Separator;
        appendBase64(out, data, len);
    } else {
        out[start + kTimeChars] = kMessageSeparator;
        out.append(data, len);
    }
    out.push_back('\n');
}

void appendEventLine(std::string &out, qint64 epochUs, const QByteArray &json)
{
    const std::size_t start = out.size();
    out.resize(start + kTimeChars + 1);
    writeTime(out.data() + start, epochUs);
    out[start + kTimeChars] = kEventSeparator;
    out.append(json.constData(), std::size_t(json.size()));
    out.push_back('\n');
}

QString fileName(const QString &stream, qint64 epochUs, int serial, bool compress)
{
    QString safe = stream;
    for (QChar &c : safe)
        if (!(c.unicode() < 0x80
              && (c.isLetterOrNumber() || c == QLatin1Char('.') || c == QLatin1Char('_') || c == QLatin1Char('-'))))
            c = QLatin1Char('_');
    if (safe.isEmpty() || safe.startsWith(QLatin1Char('.')))
        safe.prepend(QLatin1String("stream"));
    const QByteArray t = formatTime(epochUs);
    // 2026-11-30T22:49:13.123456Z -> 20261130T224913Z
    const QString stamp = QString::fromLatin1(t.mid(0, 4) + t.mid(5, 2) + t.mid(8, 2) + 'T' + t.mid(11, 2)
                                              + t.mid(14, 2) + t.mid(17, 2) + 'Z');
    QString name = safe + QLatin1Char('-') + stamp;
    if (serial > 0)
        name += QLatin1Char('_') + QString::number(serial); // after the unnumbered name in name order
    return name + (compress ? QLatin1String(".ndjson.zst") : QLatin1String(".ndjson"));
}

} // namespace streamscope::capture
