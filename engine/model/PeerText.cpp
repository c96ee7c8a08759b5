#include "PeerText.h"

namespace streamscope {

namespace {

bool needsEscape(char32_t c)
{
    return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x061c || c == 0x200e || c == 0x200f
        || (c >= 0x2028 && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || (c >= 0xd800 && c <= 0xdfff);
}

const char16_t kHex[] = u"0123456789abcdef";

// Appends what shows code point `c` (or, with `byte`, one byte that is not UTF-8), unless
// that would cross `maxChars`: then the text ends in "…" and false is returned.
class Writer {
public:
    explicit Writer(qsizetype inputSize, qsizetype maxChars)
        : m_max(maxChars)
    {
        m_out.reserve(maxChars >= 0 ? std::min(inputSize, maxChars) + 1 : inputSize);
    }

    bool codePoint(char32_t c)
    {
        if (!needsEscape(c)) {
            const qsizetype n = c > 0xffff ? 2 : 1;
            if (!fits(n))
                return false;
            if (n == 2) {
                m_out += QChar(QChar::highSurrogate(c));
                m_out += QChar(QChar::lowSurrogate(c));
            } else {
                m_out += QChar(char16_t(c));
            }
            return true;
        }
        if (c == u'\t' || c == u'\n' || c == u'\r') {
            if (!fits(2))
                return false;
            m_out += QLatin1Char('\\');
            m_out += QLatin1Char(c == u'\t' ? 't' : c == u'\n' ? 'n' : 'r');
            return true;
        }
        if (c < 0x80)
            return byte(quint8(c));
        if (!fits(6))
            return false;
        m_out += QLatin1String("\\u");
        for (int shift = 12; shift >= 0; shift -= 4)
            m_out += QChar(kHex[(c >> shift) & 0xf]);
        return true;
    }

    bool byte(quint8 b)
    {
        if (!fits(4))
            return false;
        m_out += QLatin1String("\\x");
        m_out += QChar(kHex[b >> 4]);
        m_out += QChar(kHex[b & 0xf]);
        return true;
    }

    QString take() { return std::move(m_out); }

private:
    bool fits(qsizetype n)
    {
        if (m_max < 0 || m_out.size() + n <= m_max)
            return true;
        m_out += QChar(0x2026);
        return false;
    }

    QString m_out;
    qsizetype m_max;
};

// The length of the UTF-8 sequence starting at s[i] (RFC 3629: no overlong forms, no
// surrogates, nothing above U+10FFFF), 0 when it is not one; its code point in `c`.
qsizetype utf8Sequence(const quint8 *s, qsizetype i, qsizetype n, char32_t &c)
{
    const quint8 b = s[i];
    if (b < 0x80) {
        c = b;
        return 1;
    }
    qsizetype len = 0;
    quint8 lo = 0x80;
    quint8 hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) {
        len = 2;
        c = b & 0x1f;
    } else if (b >= 0xe0 && b <= 0xef) {
        len = 3;
        c = b & 0x0f;
        if (b == 0xe0)
            lo = 0xa0;
        else if (b == 0xed)
            hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
        len = 4;
        c = b & 0x07;
        if (b == 0xf0)
            lo = 0x90;
        else if (b == 0xf4)
            hi = 0x8f;
    } else {
        return 0;
    }
    if (i + len > n)
        return 0;
    for (qsizetype k = 1; k < len; ++k) {
        const quint8 t = s[i + k];
        if (t < (k == 1 ? lo : 0x80) || t > (k == 1 ? hi : 0xbf))
            return 0;
        c = (c << 6) | (t & 0x3f);
    }
    return len;
}

} // namespace

QString peerText(QByteArrayView utf8, qsizetype maxChars)
{
    const auto *s = reinterpret_cast<const quint8 *>(utf8.data());
    const qsizetype n = utf8.size();
    Writer w(n, maxChars);
    for (qsizetype i = 0; i < n;) {
        char32_t c = 0;
        const qsizetype len = utf8Sequence(s, i, n, c);
        if (!(len ? w.codePoint(c) : w.byte(s[i])))
            break;
        i += len ? len : 1;
    }
    return w.take();
}

QString peerText(const QString &text, qsizetype maxChars)
{
    if ((maxChars < 0 || text.size() <= maxChars) && isPeerTextSafe(text))
        return text;
    return peerText(QStringView(text), maxChars);
}

QString peerText(QStringView text, qsizetype maxChars)
{
    if (maxChars < 0 && isPeerTextSafe(text))
        return text.toString();
    Writer w(text.size(), maxChars);
    const qsizetype n = text.size();
    for (qsizetype i = 0; i < n; ++i) {
        char32_t c = text[i].unicode();
        if (QChar::isHighSurrogate(c) && i + 1 < n && text[i + 1].isLowSurrogate()) {
            c = QChar::surrogateToUcs4(text[i], text[i + 1]);
            ++i;
        }
        if (!w.codePoint(c))
            break;
    }
    return w.take();
}

bool isPeerTextSafe(QStringView text)
{
    const qsizetype n = text.size();
    for (qsizetype i = 0; i < n; ++i) {
        const char16_t c = text[i].unicode();
        if (QChar::isHighSurrogate(c) && i + 1 < n && text[i + 1].isLowSurrogate()) {
            ++i;
            continue;
        }
        if (needsEscape(c))
            return false;
    }
    return true;
}

} // namespace streamscope
