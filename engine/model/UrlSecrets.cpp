#include "UrlSecrets.h"

#include <QtCore/QByteArray>
#include <QtCore/QList>

#include <algorithm>
#include <array>

namespace streamscope {

namespace {

// Parts of names, and whole names, that say a value is a credential: the one list.
constexpr std::array<QStringView, 13> kSecretParts = {u"token",      u"secret",  u"key", u"auth",       u"cookie",
                                                      u"password",   u"passwd",  u"pwd", u"passphrase", u"signature",
                                                      u"credential", u"session", u"jwt"};
constexpr std::array<QStringView, 3> kSecretNames = {u"sig", u"pass", u"ssoid"};

// Percent-decoding is repeated until nothing changes (a server may decode once more than we
// think): at most this many times, which undoes any encoding a URL of sane length can hold.
constexpr int kMaxDecodeRounds = 8;

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// One round of percent-decoding as a server does it: "%" and two hex digits become a byte, any
// other "%" stays. (QByteArray::fromPercentEncoding takes any two characters after a "%", so a
// second round over "%25%08%3A" would swallow the colon.)
QByteArray percentDecoded(const QByteArray &in)
{
    QByteArray out;
    out.reserve(in.size());
    for (qsizetype i = 0; i < in.size(); ++i) {
        const int hi = in[i] == '%' && i + 2 < in.size() ? hexValue(in[i + 1]) : -1;
        const int lo = hi >= 0 ? hexValue(in[i + 2]) : -1;
        if (lo < 0) {
            out += in[i];
            continue;
        }
        out += char(hi * 16 + lo);
        i += 2;
    }
    return out;
}

QString decodedFully(QStringView encoded)
{
    QByteArray bytes = encoded.toUtf8();
    for (int i = 0; i < kMaxDecodeRounds && bytes.contains('%'); ++i) {
        const QByteArray next = percentDecoded(bytes);
        if (next == bytes)
            break;
        bytes = next;
    }
    return QString::fromUtf8(bytes);
}

// One `name=value` piece of a query, a fragment or a path segment, in its encoded form.
bool isSecretPiece(QStringView piece, QString *name)
{
    const qsizetype eq = piece.indexOf(QLatin1Char('='));
    if (eq <= 0)
        return false;
    const QString decodedName = decodedFully(piece.first(eq));
    if (!isSecretName(decodedName))
        return false;
    // The value as the server (and SecretStore::resolveQuery) reads it: decoded once.
    const QString value = QString::fromUtf8(percentDecoded(piece.sliced(eq + 1).toUtf8()));
    if (value.isEmpty() || isSecretReference(value))
        return false;
    if (name)
        *name = decodedName;
    return true;
}

// The pieces of `encoded` between the separators in `separators`, each with the separator
// before it (none for the first).
struct Piece {
    QChar separator; // null for the first
    QStringView text;
};

QList<Piece> pieces(QStringView encoded, QStringView separators)
{
    QList<Piece> out;
    QChar separator;
    qsizetype start = 0;
    for (qsizetype i = 0; i <= encoded.size(); ++i) {
        if (i < encoded.size() && !separators.contains(encoded[i]))
            continue;
        out.append({separator, encoded.sliced(start, i - start)});
        if (i < encoded.size())
            separator = encoded[i];
        start = i + 1;
    }
    return out;
}

// The first secret piece of `encoded` (from `first` on); its name in `name`.
bool findSecretPiece(QStringView encoded, QStringView separators, qsizetype first, QString *name)
{
    const QList<Piece> list = pieces(encoded, separators);
    for (qsizetype i = first; i < list.size(); ++i)
        if (isSecretPiece(list[i].text, name))
            return true;
    return false;
}

// `encoded` without its secret pieces (from `first` on); a piece left first loses the
// separator before it. `changed` says whether any went.
QString withoutSecretPieces(QStringView encoded, QStringView separators, qsizetype first, bool *changed)
{
    QString out;
    bool any = false;
    const QList<Piece> list = pieces(encoded, separators);
    for (qsizetype i = 0; i < list.size(); ++i) {
        if (i >= first && isSecretPiece(list[i].text, nullptr)) {
            *changed = true;
            continue;
        }
        if (any && !list[i].separator.isNull())
            out += list[i].separator;
        out += list[i].text;
        any = true;
    }
    return out;
}

constexpr QStringView kQuerySeparators = u"&;";
// A fragment is not parsed by any standard: an app's router may put a query of its own after
// a path ("#/callback?token=…").
constexpr QStringView kFragmentSeparators = u"&;?";
constexpr QStringView kSegmentParameterSeparator = u";";

bool userNameHidesPassword(const QUrl &url)
{
    return decodedFully(url.userName(QUrl::FullyEncoded)).contains(QLatin1Char(':'));
}

} // namespace

bool isSecretName(QStringView name)
{
    QString folded;
    folded.reserve(name.size());
    for (const QChar c : name)
        if (c.isLetterOrNumber())
            folded += c.toLower();
    return std::any_of(kSecretParts.begin(), kSecretParts.end(),
                       [&](QStringView part) { return folded.contains(part); })
        || std::find(kSecretNames.begin(), kSecretNames.end(), QStringView(folded)) != kSecretNames.end();
}

bool isSecretReference(QStringView value)
{
    return value.startsWith(QLatin1String("env:")) || value.startsWith(QLatin1String("keychain:"));
}

QString UrlSecret::describe() const
{
    switch (part) {
    case Part::Password: return QStringLiteral("a password");
    case Part::PathParameter: return QStringLiteral("the path parameter '%1'").arg(name);
    case Part::QueryParameter: return QStringLiteral("the query parameter '%1'").arg(name);
    case Part::FragmentParameter: return QStringLiteral("the fragment parameter '%1'").arg(name);
    case Part::None: break;
    }
    return {};
}

UrlSecret findUrlSecret(const QUrl &url)
{
    UrlSecret s;
    if (!url.password(QUrl::FullyEncoded).isEmpty() || userNameHidesPassword(url)) {
        s.part = UrlSecret::Part::Password;
        return s;
    }
    const QString path = url.path(QUrl::FullyEncoded);
    if (path.contains(QLatin1Char(';'))) {
        for (const QStringView segment : QStringView(path).split(QLatin1Char('/')))
            if (findSecretPiece(segment, kSegmentParameterSeparator, 1, &s.name)) {
                s.part = UrlSecret::Part::PathParameter;
                return s;
            }
    }
    if (url.hasQuery() && findSecretPiece(url.query(QUrl::FullyEncoded), kQuerySeparators, 0, &s.name)) {
        s.part = UrlSecret::Part::QueryParameter;
        return s;
    }
    if (url.hasFragment() && findSecretPiece(url.fragment(QUrl::FullyEncoded), kFragmentSeparators, 0, &s.name)) {
        s.part = UrlSecret::Part::FragmentParameter;
        return s;
    }
    return s;
}

QUrl withoutUrlSecrets(const QUrl &url)
{
    QUrl out = url;
    const bool password = !out.password(QUrl::FullyEncoded).isEmpty();
    if (userNameHidesPassword(out) || (password && out.userName(QUrl::FullyEncoded).isEmpty()))
        out.setUserInfo(QString()); // "ws://:secret@host" leaves no "@" behind either
    else if (password)
        out.setPassword(QString());
    bool changed = false;
    const QString path = out.path(QUrl::FullyEncoded);
    if (path.contains(QLatin1Char(';'))) {
        QStringList segments;
        for (const QStringView segment : QStringView(path).split(QLatin1Char('/')))
            segments.append(withoutSecretPieces(segment, kSegmentParameterSeparator, 1, &changed));
        if (changed)
            out.setPath(segments.join(QLatin1Char('/')), QUrl::TolerantMode);
    }
    if (out.hasQuery()) {
        changed = false;
        const QString query = withoutSecretPieces(out.query(QUrl::FullyEncoded), kQuerySeparators, 0, &changed);
        if (changed)
            out.setQuery(query.isEmpty() ? QString() : query, QUrl::TolerantMode);
    }
    if (out.hasFragment()) {
        changed = false;
        const QString fragment =
            withoutSecretPieces(out.fragment(QUrl::FullyEncoded), kFragmentSeparators, 0, &changed);
        if (changed)
            out.setFragment(fragment.isEmpty() ? QString() : fragment, QUrl::TolerantMode);
    }
    return out;
}

} // namespace streamscope
