// Workspace::parse (engine/api/Workspace.*): a workspace file, written by hand or handed to a
// user by someone else, read with --workspace or opened in the GUI.
//
// Input: the file's bytes. Checked: a file either loads, or is refused with an error that
// names the file and then where (line and column of bad JSON, or the key's path) and what was
// expected, leaving the caller's workspace as it was; every warning names its key; a loaded
// workspace holds no literal credential, no URL with a literal secret (findUrlSecret), and no header that would write
// another line into the handshake; and what a loaded workspace
// saves loads again and saves the same (so a save never writes a file the next start refuses).

#include "FuzzSupport.h"
#include "UrlSecrets.h"
#include "Workspace.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QRegularExpression>

using streamscope::StreamConfig;
using streamscope::Workspace;

namespace {

const QString kFile = QStringLiteral("fuzz.json");

// "fuzz.json:3:7: not valid JSON: ...", "fuzz.json: expected a JSON object ...", or
// "fuzz.json: streams[0].url: expected ..." (a key path, then what was expected).
bool namesWhere(const QString &error)
{
    static const QRegularExpression kForms(
        QStringLiteral(
            "^fuzz\\.json(:\\d+:\\d+: not valid JSON: .+|: expected a JSON object at the top level|: [^ :][^:]*: .+)$"),
        QRegularExpression::DotMatchesEverythingOption);
    return kForms.match(error).hasMatch();
}

void checkNotify(const QList<streamscope::NotifyTarget> &targets)
{
    for (const streamscope::NotifyTarget &t : targets)
        FUZZ_CHECK(streamscope::isSecretReference(t.url) || !streamscope::findUrlSecret(QUrl(t.url)).found(),
                   "no notification URL with a literal secret is loaded");
}

void checkLoaded(const Workspace &ws, const Workspace::LoadResult &r)
{
    checkNotify(ws.notify);
    for (const QString &w : r.warnings)
        FUZZ_CHECK(w.startsWith(kFile + QStringLiteral(": ")) && w.endsWith(QStringLiteral(": unknown key, ignored")),
                   "a warning names the file and the key");
    for (const StreamConfig &c : ws.streams) {
        FUZZ_CHECK(!c.name.trimmed().isEmpty(), "every stream has a name");
        FUZZ_CHECK(!streamscope::findUrlSecret(c.url).found(), "no URL with a literal secret is loaded");
        FUZZ_CHECK(!streamscope::findUrlSecret(c.serverTimeUrl).found(), "no server-time URL with a secret is loaded");
        checkNotify(c.notify);
        for (const auto &[name, value] : c.headers) {
            FUZZ_CHECK(!Workspace::isLiteralCredential(name, value), "no literal credential is loaded");
            FUZZ_CHECK(!name.isEmpty() && !name.contains(QLatin1Char(':')) && !name.contains(QLatin1Char(' ')),
                       "a header name is a token");
            FUZZ_CHECK(!value.contains(QLatin1Char('\n')) && !value.contains(QLatin1Char('\r')),
                       "a header value is one line");
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QByteArray json(reinterpret_cast<const char *>(data), qsizetype(size));
    Workspace ws;
    ws.alerts.append(QStringLiteral("untouched"));
    const Workspace::LoadResult r = Workspace::parse(json, kFile, ws);
    if (!r.ok) {
        FUZZ_CHECK(namesWhere(r.error), "an error names the file, where, and what was expected");
        FUZZ_CHECK(ws.streams.isEmpty() && ws.alerts.size() == 1, "a refused file leaves the workspace as it was");
        return 0;
    }
    FUZZ_CHECK(r.error.isEmpty(), "a loaded file has no error");
    checkLoaded(ws, r);

    const QJsonObject saved = ws.toJson();
    Workspace again;
    const Workspace::LoadResult r2 = Workspace::parse(QJsonDocument(saved).toJson(), kFile, again);
    if (!r2.ok)
        std::fprintf(stderr, "saved workspace refused: %s\n", qPrintable(r2.error));
    FUZZ_CHECK(r2.ok, "a saved workspace loads");
    FUZZ_CHECK(r2.warnings.isEmpty(), "a saved workspace loads without warnings");
    FUZZ_CHECK(again.toJson() == saved, "a saved workspace saves the same");
    return 0;
}
