#include "HyperliquidVenue.h"

#include "venues/VenueHost.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

namespace streamscope::hyperliquid {

bool HyperliquidVenue::request(int link, Op op, const std::vector<ChannelSubscription> &pairs)
{
    const QString name = opName(op);
    for (const ChannelSubscription &pair : pairs) {
        const QJsonObject subscription{{QStringLiteral("type"), pair.channel},
                                       {QStringLiteral("coin"), pair.instrument}};
        const QJsonObject message{{QStringLiteral("method"), name}, {QStringLiteral("subscription"), subscription}};
        m_host.sendOn(link, QString::fromUtf8(QJsonDocument(message).toJson(QJsonDocument::Compact)), name, QString());
    }
    return !pairs.empty();
}

void HyperliquidVenue::onResponse(int link, bool isError, const ResponseRecord &record)
{
    Q_UNUSED(link);
    if (!isError)
        return;
    // {"channel":"error","data":"<text>"}: no code.
    const QJsonValue data = QJsonDocument::fromJson(record.body).object().value(QStringLiteral("data"));
    noteVenueError(QString(),
                   data.isString() ? data.toString()
                                   : QString::fromUtf8(QJsonDocument(data.toObject()).toJson(QJsonDocument::Compact)));
}

} // namespace streamscope::hyperliquid
