#include "DepthSnapshot.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <map>

namespace streamscope::replay {

namespace {
// A price's text by its value: the book's order. The scenario writes prices of at most 8
// decimals, so a double orders them exactly.
using Side = std::map<double, std::pair<QString, QString>>;

void applyLevels(Side &side, const QJsonArray &levels)
{
    for (const QJsonValue &v : levels) {
        const QJsonArray level = v.toArray();
        const QString price = level.at(0).toString();
        const QString qty = level.at(1).toString();
        if (qty.toDouble() == 0.0)
            side.erase(price.toDouble());
        else
            side[price.toDouble()] = {price, qty};
    }
}

template<typename It>
QJsonArray levels(It begin, It end, int limit)
{
    QJsonArray out;
    for (It it = begin; it != end && out.size() < limit; ++it)
        out.append(QJsonArray{it->second.first, it->second.second});
    return out;
}
} // namespace

QByteArray depthSnapshotJson(const ScenarioPool &pool, qint64 lastIndex, quint64 lastUpdateId, int limit)
{
    const std::vector<PoolMessage> &messages = pool.messages();
    const auto n = qint64(messages.size());
    Side bids;
    Side asks;
    const qint64 end = lastIndex < 0 ? n - 1 : lastIndex % n;
    for (qint64 k = 1; k <= n; ++k) {
        const PoolMessage &m = messages[size_t((end + k) % n)];
        const QJsonObject data = QJsonDocument::fromJson(m.json).object().value(QStringLiteral("data")).toObject();
        applyLevels(bids, data.value(QStringLiteral("b")).toArray());
        applyLevels(asks, data.value(QStringLiteral("a")).toArray());
    }
    const QJsonObject answer{{QStringLiteral("lastUpdateId"), qint64(lastUpdateId)},
                             {QStringLiteral("bids"), levels(bids.rbegin(), bids.rend(), limit)},
                             {QStringLiteral("asks"), levels(asks.begin(), asks.end(), limit)}};
    return QJsonDocument(answer).toJson(QJsonDocument::Compact);
}

} // namespace streamscope::replay
