#include "RedactedUrl.h"

#include "UrlSecrets.h"

namespace streamscope {

RedactedUrl RedactedUrl::of(const QUrl &url)
{
    return RedactedUrl(withoutUrlSecrets(url));
}

RedactedUrl RedactedUrl::fromText(const QString &text)
{
    return of(QUrl(text, QUrl::TolerantMode));
}

QString RedactedUrl::replaceIn(QString text, const QUrl &url)
{
    const QString shown = of(url).toString();
    for (const QString &spelling : {url.toString(), url.toString(QUrl::FullyEncoded), url.toDisplayString()})
        if (!spelling.isEmpty() && spelling != shown)
            text.replace(spelling, shown);
    return text;
}

} // namespace streamscope
