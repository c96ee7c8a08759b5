#pragma once

// Which names and which parts of a URL carry a secret: the one list of secret names, and the
// one check of a URL, used by the workspace loader (which refuses a literal secret), the stream
// and agent dialogs, the notifications, and RedactedUrl (which takes secrets out of every URL
// shown, written or served).
//
// A URL carries a literal secret in:
//   - its password, or a user name that holds a colon in any percent-encoding
//     (`ws://user%3ASECRET@host` is a password by another spelling); a user name alone is not
//     a secret;
//   - a query parameter with a secret name and a literal value, whichever separator comes
//     before it (`&` or `;`), its name decoded from any percent-encoding (`%74oken`);
//   - a path segment's parameter (`/feed;token=SECRET`), which servlet containers read;
//   - a fragment parameter (`#token=…`, `#/path?token=…`, separated by `&`, `;` or `?`), which
//     is never sent but is where OAuth hands out tokens.
// A value that is a reference (`env:NAME`, `keychain:NAME`) is no secret: it names one. An
// empty value is none either.
//
// Thread contract: pure functions; any thread.

#include <QtCore/QString>
#include <QtCore/QStringView>
#include <QtCore/QUrl>

namespace streamscope {

// Whether a header, URL parameter or field of this name carries a credential. Case and the
// characters between letters are ignored ("X-Api-Key", "api_key", "APIKEY" alike); the name
// holds one of: token, secret, key, auth, cookie, password, passwd, pwd, passphrase,
// signature, credential, session, jwt; or is exactly: sig, pass, ssoid.
bool isSecretName(QStringView name);

// "env:NAME" or "keychain:NAME": the name of a secret kept elsewhere (SecretStore resolves it).
bool isSecretReference(QStringView value);

// Where a URL carries a literal secret, first found first: the userinfo, the path, the query,
// then the fragment.
struct UrlSecret {
    enum class Part : quint8 { None = 0, Password, PathParameter, QueryParameter, FragmentParameter };
    Part part = Part::None;
    QString name; // the parameter's name, decoded (not the password's or the value's text)

    bool found() const { return part != Part::None; }
    // For messages, never repeating the secret: "a password", "the query parameter 'token'".
    QString describe() const;
};

UrlSecret findUrlSecret(const QUrl &url);

// `url` without every part findUrlSecret() finds: the password (and a user name with a colon),
// the path, query and fragment parameters with literal secrets; whatever else it holds stays as
// it was (references included). Used through RedactedUrl::of().
QUrl withoutUrlSecrets(const QUrl &url);

} // namespace streamscope
