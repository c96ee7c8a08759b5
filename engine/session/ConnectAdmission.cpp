#include "ConnectAdmission.h"

#include "ConnectionGroup.h"
#include "DurationText.h"
#include "Link.h"
#include "model/RedactedUrl.h"
#include "model/StreamConfig.h"
#include "platform/SecretStore.h"
#include "transport/Transport.h"
#include "venues/VenueHandler.h"
#include "venues/VenueRegistry.h"

#include <vector>

namespace streamscope {

ConnectAdmission::ConnectAdmission(const StreamConfig &config, VenueHandler &venue)
    : m_config(config)
    , m_venue(venue)
{
}

QString ConnectAdmission::configProblem() const
{
    const QUrl &url = m_config.url;
    if (!url.isValid() || url.host().isEmpty())
        return QStringLiteral("invalid URL '%1'").arg(RedactedUrl::of(url).toDisplayString());
    const QString scheme = url.scheme();
    if (scheme != QLatin1String("ws") && scheme != QLatin1String("wss") && scheme != QLatin1String("tcp")
        && scheme != QLatin1String("tls"))
        return QStringLiteral("unsupported URL scheme '%1' (expected ws, wss, tcp or tls)").arg(scheme);
    for (const auto &header : std::as_const(m_config.headers)) {
        bool ok = true;
        SecretStore::resolve(header.second, &ok);
        if (!ok)
            return QStringLiteral("header %1: secret %2 is not set").arg(header.first, header.second);
    }
    QString unresolved;
    SecretStore::resolveQuery(url, &unresolved);
    if (!unresolved.isEmpty())
        return QStringLiteral("URL query parameter %1: the secret is not set").arg(unresolved);
    return {};
}

qint64 ConnectAdmission::admit(Link &link, qint64 nowMs)
{
    const VenueHandler::ConnectLimit limit = m_venue.connectLimit();
    const qint64 atMs = m_pacer ? m_pacer->reserve(m_config.venue, {limit.attempts, limit.windowMs}, nowMs) : nowMs;
    // The connect timeout runs from the attempt.
    link.watchdog.connecting(atMs);
    if (atMs <= nowMs)
        begin(link, nowMs); // or it waits for a place among the attempts under way
    else
        link.pendingOpen = ConnectSlot(m_pacer, m_config.venue, atMs);
    return atMs;
}

void ConnectAdmission::openDue(ConnectionGroup &links, qint64 nowMs)
{
    std::vector<int> due;
    for (const auto &l : links.links())
        if (l->awaitingHandshake || (l->pendingOpen.pending() && nowMs >= l->pendingOpen.atMs()))
            due.push_back(l->id);
    for (const int id : due) {
        Link *l = links.byId(id);
        if (!l)
            continue;
        if (l->pendingOpen.pending()) {
            l->pendingOpen.use(); // the venue's slot is taken; the attempt may still wait for a place
            l->awaitingHandshake = true;
        }
        if (l->awaitingHandshake && !begin(*l, nowMs))
            l->watchdog.connecting(nowMs); // its connect timeout runs from the attempt
    }
}

bool ConnectAdmission::waiting(const Link &link)
{
    return link.awaitingHandshake || link.pendingOpen.pending();
}

bool ConnectAdmission::begin(Link &link, qint64 nowMs)
{
    if (m_pacer) {
        link.handshake = HandshakeTicket::tryTake(m_pacer);
        if (!link.handshake.held()) {
            link.awaitingHandshake = true;
            return false;
        }
    }
    link.awaitingHandshake = false;
    link.watchdog.connecting(nowMs);
    link.transport->open();
    return true;
}

QString ConnectAdmission::limitText() const
{
    const VenueHandler::ConnectLimit limit = m_venue.connectLimit();
    const QString per =
        limit.windowMs == 1000 ? QStringLiteral("a second") : QStringLiteral("in %1").arg(secondsText(limit.windowMs));
    return QStringLiteral("%1 allows %2 connection attempts %3 per IP address")
        .arg(QLatin1String(VenueRegistry::entryOf(m_config.venue).title))
        .arg(limit.attempts)
        .arg(per);
}

} // namespace streamscope
