#pragma once

// Where alert notifications go, as written in a workspace's "notify" arrays (at the top
// level: every stream's alerts; inside a stream: its own). The engine never sends them: the
// alerts library (services/alerts/Notifier) does; the type lives here so that the workspace loader
// can validate it like every other key. Secrets stay "env:NAME" / "keychain:NAME" references
// (a Slack URL, a Telegram token, a credential header) and are resolved when a message is sent.
// Plain value type. docs/alerts.md describes every key.

#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QPair>
#include <QtCore/QString>

namespace streamscope {

struct NotifyTarget {
    enum class Type { Unknown = 0, Webhook, Slack, Telegram };
    static constexpr int kDefaultMaxPerMinute = 20;
    static inline const QString kTelegramApi = QStringLiteral("https://api.telegram.org");

    Type type = Type::Unknown;
    // webhook: the URL posted to (literal or a reference); slack: the incoming-webhook URL (a
    // reference: the URL is the secret); telegram: the Bot API base, empty for kTelegramApi.
    QString url;
    QString token;                           // telegram: the bot token (a reference)
    QString chatId;                          // telegram: the chat to write to
    QList<QPair<QString, QString>> headers;  // webhook: extra request headers
    int maxPerMinute = kDefaultMaxPerMinute; // the rate cap; the rest are counted and summarised

    QString apiUrlOrDefault() const { return url.isEmpty() && type == Type::Telegram ? kTelegramApi : url; }
    bool operator==(const NotifyTarget &o) const
    {
        return type == o.type && url == o.url && token == o.token && chatId == o.chatId && headers == o.headers
            && maxPerMinute == o.maxPerMinute;
    }
    bool operator!=(const NotifyTarget &o) const { return !(*this == o); }

    static QString typeName(Type type)
    {
        switch (type) {
        case Type::Webhook: return QStringLiteral("webhook");
        case Type::Slack: return QStringLiteral("slack");
        case Type::Telegram: return QStringLiteral("telegram");
        case Type::Unknown: break;
        }
        return QStringLiteral("unknown");
    }
    static Type typeFromName(const QString &name)
    {
        for (Type t : {Type::Webhook, Type::Slack, Type::Telegram})
            if (typeName(t) == name)
                return t;
        return Type::Unknown;
    }

    QJsonObject toJson() const
    {
        QJsonObject o{{QStringLiteral("type"), typeName(type)}};
        if (!url.isEmpty())
            o.insert(QStringLiteral("url"), url);
        if (!token.isEmpty())
            o.insert(QStringLiteral("token"), token);
        if (!chatId.isEmpty())
            o.insert(QStringLiteral("chat_id"), chatId);
        if (!headers.isEmpty()) {
            QJsonObject h;
            for (const auto &[k, v] : headers)
                h.insert(k, v);
            o.insert(QStringLiteral("headers"), h);
        }
        if (maxPerMinute != kDefaultMaxPerMinute)
            o.insert(QStringLiteral("max_per_minute"), maxPerMinute);
        return o;
    }
};

} // namespace streamscope
