#include "ScenarioRest.h"

#include "DepthSnapshot.h"
#include "ReplayServer.h"
#include "RestAnswer.h"
#include "ScenarioPool.h"

#include <QUrl>
#include <QUrlQuery>

#include <algorithm>
#include <chrono>
#include <iterator>

namespace streamscope::replay {

namespace {

// Plain HTTP GETs answered with the server time, as Binance's REST endpoints do.
constexpr QByteArrayView kServerTimePaths[] = {"/api/v3/time", "/fapi/v1/time"};

bool isServerTimeTarget(const QByteArray &target)
{
    const qsizetype query = target.indexOf('?');
    const QByteArrayView path = QByteArrayView(target).first(query < 0 ? target.size() : query);
    return std::find(std::begin(kServerTimePaths), std::end(kServerTimePaths), path) != std::end(kServerTimePaths);
}

RestReply serverTimeAnswer(const QUrl &target, const ReplayOptions &serverOptions)
{
    // The clock of the request's own options: ?clock_offset_ms=N pairs with a stream's.
    const ReplayOptions options = ReplayOptions::fromUrl(serverOptions, target);
    return {"200 OK", R"({"serverTime":)" + QByteArray::number(venueNowMs(options.clockOffsetMs)) + '}'};
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
    if (isServerTimeTarget(target))
        return serverTimeAnswer(QUrl(QString::fromLatin1(target)), serverOptions);
    return std::nullopt;
}

quint64 venueNowMs(qint64 clockOffsetMs)
{
    using namespace std::chrono;
    const auto now = duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
    return quint64(qint64(now) + clockOffsetMs);
}

} // namespace streamscope::replay
