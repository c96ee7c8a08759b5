#include "BetfairImages.h"

#include "model/PeerText.h"
#include "stats/StreamShared.h"
#include "venues/VenueHost.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

#include <algorithm>

namespace streamscope {

namespace {
constexpr std::string_view kSegStart = "SEG_START";
constexpr std::string_view kSegEnd = "SEG_END";
constexpr qsizetype kMaxIdChars = 40;
} // namespace

void BetfairImages::subscribed(bool resumed)
{
    m_subscribedAtMs = m_host.monotonicMs();
    m_awaitingImage = !resumed;
}

bool BetfairImages::follow(std::string_view segmentType, bool subImage, bool market)
{
    if (segmentType.empty()) {
        if (m_segmented != Segmented::None)
            interrupted(QStringLiteral("a whole change message came before its SEG_END"));
        if (!subImage || !market)
            return false;
        beginImage();
        imageComplete();
        return true;
    }
    if (segmentType == kSegStart) {
        if (m_segmented != Segmented::None)
            interrupted(QStringLiteral("another SEG_START came before its SEG_END"));
        m_segmented = Segmented::Open;
        m_runIsImage = subImage && market;
        if (m_runIsImage)
            beginImage();
    } else if (m_segmented == Segmented::None) {
        // Its SEG_START never came: counted once, up to its SEG_END.
        m_segmented = Segmented::Orphan;
        m_runIsImage = false;
        m_host.shared().venue.incompleteImages.add();
        m_host.venueEvent(EventKind::Info, QStringLiteral("segmented change without its SEG_START: incomplete"));
    }
    const bool wanted = m_inImage;
    if (segmentType == kSegEnd) {
        if (m_segmented == Segmented::Open && m_runIsImage)
            imageComplete();
        m_segmented = Segmented::None;
        m_runIsImage = false;
    }
    return wanted;
}

void BetfairImages::heartbeat()
{
    if (m_segmented != Segmented::None)
        interrupted(QStringLiteral("a heartbeat came before its SEG_END"));
}

void BetfairImages::disconnected()
{
    if (m_segmented != Segmented::None)
        interrupted(QStringLiteral("the connection ended before its SEG_END"));
    m_awaitingImage = false;
    m_inImage = false;
}

void BetfairImages::interrupted(const QString &why)
{
    m_host.shared().venue.incompleteImages.add();
    m_host.venueEvent(
        EventKind::Info,
        QStringLiteral("%1 incomplete: %2")
            .arg(m_runIsImage ? QStringLiteral("segmented image") : QStringLiteral("segmented change"), why));
    if (m_runIsImage) {
        // Neither its markets nor its time are an image's.
        m_inImage = false;
        m_imageEnds = false;
        m_markets.clear();
    }
    m_segmented = Segmented::None;
    m_runIsImage = false;
}

void BetfairImages::beginImage()
{
    m_inImage = true;
    m_imageEnds = false;
    m_markets.clear();
}

void BetfairImages::imageComplete()
{
    m_imageEnds = true; // its last markets are read from the whole message, then published
    if (!m_awaitingImage)
        return;
    m_awaitingImage = false;
    const qint64 ms = std::max<qint64>(0, m_host.monotonicMs() - m_subscribedAtMs);
    m_host.shared().venue.initialImageMs.store(ms);
    m_host.venueEvent(EventKind::Info, QStringLiteral("initial image complete %1 ms after the subscription").arg(ms));
}

// The image's markets (mc[].id) and their versions (mc[].marketDefinition.version; -1 when
// the message has no definition). Read only for images, so the copy into a QJsonDocument is
// not on the path of every message.
void BetfairImages::readMarkets(const char *data, qsizetype len)
{
    if (!m_inImage)
        return;
    if (len <= kMaxCheckBytes) {
        const QJsonArray markets =
            QJsonDocument::fromJson(QByteArray::fromRawData(data, len)).object().value(QLatin1String("mc")).toArray();
        for (const QJsonValue &m : markets) {
            const QJsonObject market = m.toObject();
            const QString id = market.value(QLatin1String("id")).toString();
            if (id.isEmpty())
                continue;
            const qint64 version = market.value(QLatin1String("marketDefinition"))
                                       .toObject()
                                       .value(QLatin1String("version"))
                                       .toInteger(-1);
            const auto it = m_markets.find(id);
            if (it == m_markets.end()) {
                if (m_markets.size() < kMaxMarkets)
                    m_markets.insert(id, version);
                continue;
            }
            m_host.shared().venue.duplicateMarkets.add();
            const qint64 kept = std::max(*it, version);
            m_host.venueEvent(EventKind::Info,
                              QStringLiteral("market %1 twice in one image (versions %2 and %3): version %4 kept")
                                  .arg(peerText(id, kMaxIdChars))
                                  .arg(*it)
                                  .arg(version)
                                  .arg(kept));
            *it = kept;
        }
    }
    if (m_imageEnds) {
        m_host.shared().venue.imageMarkets.store(int(m_markets.size()));
        m_inImage = false;
        m_imageEnds = false;
    }
}

} // namespace streamscope
