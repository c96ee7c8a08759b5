#include "ScenarioRest.h"

#include "DepthSnapshot.h"
#include "ReplayServer.h"
#include "RestAnswer.h"
#include "ScenarioPool.h"
#include "VenueScenarios.h"

#include <QUrl>
#include <QUrlQuery>

#include <algorithm>
#include <chrono>

namespace streamscope::replay {

namespace {

// The path of a target, without its query.
QByteArrayView pathOf(const QByteArray &target)
{
    const qsizetype query = target.indexOf('?');
    return QByteArrayView(target).first(query < 0 ? target.size() : query);
}

RestReply serverTimeAnswer(const scenario::ServerTimeRoute &route, const QUrl &target,
                           const ReplayOptions &serverOptions)
{
    // The clock of the request's own options: ?clock_offset_ms=N pairs with a stream's.
    const ReplayOptions options = ReplayOptions::fromUrl(serverOptions, target);
    return {"200 OK", route.body(venueNowNs(options.clockOffsetMs))};
}

// Binance's REST depth snapshot, after an optional /<scenario> prefix (a book scenario's).
RestReply depthAnswer(const QUrl &target, const ReplayOptions &serverOptions, const ReplayServer *server)
{
    QString scenario = target.path().chopped(depthPathOf(target.path().toLatin1()).size());
    while (scenario.startsWith(QLatin1Char('/')))
        scenario.remove(0, 1);
    if (scenario.isEmpty())
        scenario = serverOptions.scenario;
    const std::shared_ptr<const ScenarioPool> pool = ScenarioPool::get(scenario);
    const QUrlQuery query(target);
    const QString symbol = query.queryItemValue(QStringLiteral("symbol"));
    bool limitOk = false;
    const int limit = query.queryItemValue(QStringLiteral("limit")).toInt(&limitOk);
    const qint64 instrument = pool ? pool->instrumentOf(symbol) : -1;
    if (!pool || pool->bookSymbol().isEmpty() || (symbol != pool->bookSymbol() && instrument < 0)) {
        // Binance's answer to a symbol it does not list.
        return {"400 Bad Request", R"({"code":-1121,"msg":"Invalid symbol."})"};
    }
    ReplayServer::DepthPosition at;
    if (server) {
        at = instrument >= 0 ? server->depthPosition(pool->name(), quint64(instrument), pool->messages().size())
                             : server->depthPosition(pool->name());
    }
    const quint64 lastUpdateId = at.poolIndex < 0 ? ScenarioPool::kFirstSeq - 1 : at.lastUpdateId;
    return {"200 OK",
            depthSnapshotJson(*pool, at.poolIndex, lastUpdateId, limitOk && limit > 0 ? std::min(limit, 5000) : 100)};
}

} // namespace

std::optional<RestReply> scenarioRestAnswer(const QByteArray &target, const ReplayOptions &serverOptions,
                                            const ReplayServer *server)
{
    if (!depthPathOf(target).isEmpty())
        return depthAnswer(QUrl(QString::fromLatin1(target)), serverOptions, server);
    if (const scenario::ServerTimeRoute *route = scenario::VenueScenarios::findServerTime(pathOf(target)))
        return serverTimeAnswer(*route, QUrl(QString::fromLatin1(target)), serverOptions);
    return std::nullopt;
}

quint64 venueNowNs(qint64 clockOffsetMs)
{
    using namespace std::chrono;
    const auto now = duration_cast<nanoseconds>(system_clock::now().time_since_epoch()).count();
    // A request's own offset is not validated (a stream's is, to a day): bounded, the sum never wraps.
    constexpr qint64 kYearMs = 366LL * 24 * 3600 * 1000;
    return quint64(qint64(now) + std::clamp(clockOffsetMs, -kYearMs, kYearMs) * 1000000);
}

quint64 venueNowMs(qint64 clockOffsetMs)
{
    return venueNowNs(clockOffsetMs) / 1000000;
}

} // namespace streamscope::replay
