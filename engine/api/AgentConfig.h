#pragma once

// A headless agent the desktop application watches, as a workspace holds it ("agents",
// docs/workspace.md): the address of its metrics endpoint, the name its streams are shown
// with, and how to log in. The password is a reference ("env:NAME", "keychain:NAME"),
// resolved for each request, never the secret itself.
//
// Thread contract: plain value type.

#include <QtCore/QString>
#include <QtCore/QUrl>

namespace streamscope {

struct AgentConfig {
    QString name;     // shown after each of its streams' names ("btc @ ny4")
    QUrl url;         // http(s)://HOST:PORT
    QString user;     // empty: no login
    QString password; // a reference; empty exactly when `user` is
    QString caFile;   // an extra trusted CA (PEM) for https; absolute once loaded

    friend bool operator==(const AgentConfig &, const AgentConfig &) = default;
};

} // namespace streamscope
