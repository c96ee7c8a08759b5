#include "ScenarioPool.h"

#include "ReplayOptions.h"
#include "VenueScenarios.h"

#include <QHash>
#include <QMutex>
#include <QMutexLocker>

#include <algorithm>
#include <random>

namespace streamscope::replay {

namespace {

constexpr int kPoolSize = 500;
// huge_ticker_arr messages are ~455 KB: 500 of them would hold 230 MB for nothing.
constexpr qsizetype kPoolBytesCap = 16 * 1024 * 1024;
constexpr std::uint64_t kSeed = 20240601;

} // namespace

QStringList scenarioNames()
{
    return scenario::VenueScenarios::names();
}

quint64 scenarioDefaultCount(const QString &name)
{
    const scenario::ScenarioDefinition *definition = scenario::VenueScenarios::find(name);
    return definition ? definition->defaultCount : 0;
}

std::shared_ptr<const ScenarioPool> ScenarioPool::get(const QString &name)
{
    const scenario::ScenarioDefinition *definition = scenario::VenueScenarios::find(name);
    if (!definition || definition->defaultCount == 0)
        return nullptr;
    static QMutex mutex;
    static QHash<QString, std::shared_ptr<const ScenarioPool>> cache;
    QMutexLocker lock(&mutex);
    auto &slot = cache[name];
    if (!slot)
        slot.reset(new ScenarioPool(name, *definition));
    return slot;
}

ScenarioPool::ScenarioPool(const QString &name, const scenario::ScenarioDefinition &definition)
    : m_name(name)
    , m_bookSymbol(definition.bookSymbol ? QString::fromLatin1(definition.bookSymbol) : QString())
{
    // A fixed seed per scenario (FNV-1a of the name), so every run serves the same pool.
    std::uint64_t seed = kSeed;
    for (const QChar c : name)
        seed = (seed ^ c.unicode()) * 1099511628211ull;
    std::mt19937_64 rng(seed);
    scenario::ScenarioBuilder b(rng);
    qsizetype bytes = 0;
    for (quint64 i = 0; i < kPoolSize && bytes < kPoolBytesCap; ++i) {
        PoolMessage message = definition.message(b, i);
        bytes += message.json.size();
        m_messages.push_back(std::move(message));
    }
    if (definition.specials)
        definition.specials(b, m_specials);
}

qint64 ScenarioPool::instrumentOf(const QString &symbol) const
{
    if (m_messages.empty() || m_messages.front().instrumentOffsets[0] < 0)
        return -1;
    constexpr int kDigits = scenario::kInstrumentDigits;
    if (symbol.size() != kDigits + 5 || !symbol.startsWith(QLatin1Char('S')) || !symbol.endsWith(QLatin1String("USDT")))
        return -1;
    qint64 number = 0;
    for (int k = 1; k <= kDigits; ++k) {
        const QChar c = symbol.at(k);
        if (c < QLatin1Char('0') || c > QLatin1Char('9'))
            return -1;
        number = number * 10 + (c.unicode() - '0');
    }
    return number;
}

qsizetype ScenarioPool::medianSize() const
{
    std::vector<qsizetype> sizes;
    sizes.reserve(m_messages.size());
    for (const PoolMessage &m : m_messages)
        sizes.push_back(m.json.size());
    if (sizes.empty())
        return 0;
    std::nth_element(sizes.begin(), sizes.begin() + qsizetype(sizes.size() / 2), sizes.end());
    return sizes[sizes.size() / 2];
}

} // namespace streamscope::replay
