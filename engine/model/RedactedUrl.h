#pragma once

// A URL without its secrets: the only form in which a URL is shown, written or served (the
// snapshot, the report and its CSV, /api, the live lines, the UI, capture headers, state
// reasons and events). Only of() makes one, through withoutUrlSecrets() (UrlSecrets.h), so a
// struct field of this type cannot hold a password or a literal token, whoever fills it: a
// stream's config, a capture's header, another agent's answer.
//
// Thread contract: a value type; any thread.

#include <QtCore/QString>
#include <QtCore/QUrl>

namespace streamscope {

class RedactedUrl {
public:
    RedactedUrl() = default; // no URL
    static RedactedUrl of(const QUrl &url);
    // Text from outside (a capture's header, an agent's JSON), read as QUrl reads a user's.
    static RedactedUrl fromText(const QString &text);
    // `text` that quotes `url` (an error Qt wrote about a request: "Error transferring URL -
    // server replied: ...") with the URL, in each spelling Qt writes, shown redacted.
    static QString replaceIn(QString text, const QUrl &url);

    const QUrl &url() const { return m_url; }
    QString toString() const { return m_url.toString(); }
    QString toDisplayString() const { return m_url.toDisplayString(); }
    bool isEmpty() const { return m_url.isEmpty(); }

    friend bool operator==(const RedactedUrl &a, const RedactedUrl &b) { return a.m_url == b.m_url; }
    friend bool operator!=(const RedactedUrl &a, const RedactedUrl &b) { return !(a == b); }

private:
    explicit RedactedUrl(QUrl url)
        : m_url(std::move(url))
    {
    }

    QUrl m_url;
};

} // namespace streamscope
