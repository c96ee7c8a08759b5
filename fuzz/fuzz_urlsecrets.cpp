// findUrlSecret() and RedactedUrl::of() (engine/model/UrlSecrets.*, RedactedUrl.*): whether a
// URL carries a literal secret, and the URL without it, for every URL a user, a file or a peer
// hands over (workspaces, the stream and agent dialogs, notifications, capture headers,
// agents' answers).
//
// Input: an option byte, then the URL's text. The option byte picks QUrl's strict or tolerant
// parsing and a secret to plant (none, a password, a user name holding an encoded colon, a
// query parameter after '&' or ';', a fragment parameter, a path parameter), with one of a few
// secret names. Checked, for every input: the redacted URL carries no secret the check finds,
// in any form it is shown (toString, toDisplayString, fully encoded), read back as a URL;
// redacting twice changes nothing; a URL without a secret is shown as it was. For a planted
// secret: the check finds it, its description never holds the secret, and no form of the
// redacted URL holds it, even percent-decoded as often as it decodes.

#include "FuzzSupport.h"
#include "RedactedUrl.h"
#include "UrlSecrets.h"

#include <QtCore/QByteArray>
#include <QtCore/QStringList>

using streamscope::findUrlSecret;
using streamscope::RedactedUrl;

namespace {

const QString kMarker = QStringLiteral("Zq7PLANTEDx9");

// Percent-decoded as often as it decodes: "%" and two hex digits, any other "%" kept.
QString decodedFully(const QString &text)
{
    const auto hex = [](char c) {
        return c >= '0' && c <= '9' ? c - '0'
            : c >= 'a' && c <= 'f'  ? c - 'a' + 10
            : c >= 'A' && c <= 'F'  ? c - 'A' + 10
                                    : -1;
    };
    QByteArray bytes = text.toUtf8();
    for (int round = 0; round < 16; ++round) {
        QByteArray next;
        for (qsizetype i = 0; i < bytes.size(); ++i) {
            const int hi = bytes[i] == '%' && i + 2 < bytes.size() ? hex(bytes[i + 1]) : -1;
            const int lo = hi >= 0 ? hex(bytes[i + 2]) : -1;
            if (lo < 0) {
                next += bytes[i];
            } else {
                next += char(hi * 16 + lo);
                i += 2;
            }
        }
        if (next == bytes)
            break;
        bytes = next;
    }
    return QString::fromUtf8(bytes);
}

// How a redacted URL is shown, written and served.
QStringList shownForms(const RedactedUrl &shown)
{
    return {shown.toString(), shown.toDisplayString(), shown.url().toString(QUrl::FullyEncoded)};
}

void checkRedacted(const QUrl &url)
{
    const RedactedUrl shown = RedactedUrl::of(url);
    FUZZ_CHECK(!findUrlSecret(shown.url()).found(), "the redacted URL carries no secret");
    FUZZ_CHECK(RedactedUrl::of(shown.url()) == shown, "redacting twice changes nothing");
    for (const QString &form : shownForms(shown)) {
        if (form.isEmpty())
            continue;
        for (const QUrl::ParsingMode mode : {QUrl::TolerantMode, QUrl::StrictMode})
            FUZZ_CHECK(!findUrlSecret(QUrl(form, mode)).found(), "a shown form, read back, carries no secret");
    }
    if (!findUrlSecret(url).found())
        FUZZ_CHECK(shown.url() == url, "a URL without a secret is shown as it was");
}

// Plants kMarker as a secret of the kind `kind` picks; false when the URL cannot hold one.
bool plant(QUrl &url, unsigned kind, unsigned nameIndex)
{
    static const char *const kNames[] = {"token",   "pwd",          "passwd",          "apiKey",
                                         "%74oken", "access_token", "X-Amz-Signature", "sig"};
    const QString name = QString::fromLatin1(kNames[nameIndex % (sizeof kNames / sizeof kNames[0])]);
    const QString piece = name + QLatin1Char('=') + kMarker;
    switch (kind) {
    case 1: url.setPassword(kMarker); return true;
    case 2:
        url.setUserName(url.userName(QUrl::FullyEncoded) + QStringLiteral("%3A") + kMarker, QUrl::TolerantMode);
        return true;
    case 3:
    case 4: {
        const QString query = url.query(QUrl::FullyEncoded);
        url.setQuery(query.isEmpty() ? piece : query + QLatin1Char(kind == 3 ? '&' : ';') + piece, QUrl::TolerantMode);
        return true;
    }
    case 5: {
        const QString fragment = url.fragment(QUrl::FullyEncoded);
        url.setFragment(fragment.isEmpty() ? piece : fragment + QLatin1Char('&') + piece, QUrl::TolerantMode);
        return true;
    }
    case 6: {
        const QString path = url.path(QUrl::FullyEncoded);
        if (!path.startsWith(QLatin1Char('/')))
            return false;
        url.setPath(QStringLiteral("/seg;") + piece + path, QUrl::TolerantMode);
        return true;
    }
    default: return false;
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    streamscope::fuzz::InputReader in(data, size);
    const std::uint8_t options = in.byte();
    const QString text = QString::fromUtf8(in.rest(), qsizetype(in.restSize()));
    const QUrl::ParsingMode mode = (options & 1) ? QUrl::StrictMode : QUrl::TolerantMode;
    QUrl url(text, mode);
    checkRedacted(url);

    const unsigned kind = (options >> 1) & 7;
    if (!url.isValid() || decodedFully(text).contains(kMarker, Qt::CaseInsensitive) || !plant(url, kind, options >> 4))
        return 0;
    if (!url.isValid())
        return 0;
    const streamscope::UrlSecret secret = findUrlSecret(url);
    FUZZ_CHECK(secret.found(), "a planted secret is found");
    FUZZ_CHECK(!secret.describe().contains(kMarker), "the description never holds the secret");
    checkRedacted(url);
    const RedactedUrl shown = RedactedUrl::of(url);
    for (const QString &form : shownForms(shown))
        FUZZ_CHECK(!decodedFully(form).contains(kMarker, Qt::CaseInsensitive), "a planted secret is never shown");
    return 0;
}
