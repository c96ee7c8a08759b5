#include "ScenarioKit.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>

#include <algorithm>
#include <cstdio>

namespace streamscope::scenario {

ScenarioBuilder &ScenarioBuilder::raw(const char *text)
{
    m_out += text;
    return *this;
}

ScenarioBuilder &ScenarioBuilder::num(quint64 value)
{
    m_out += std::to_string(value);
    return *this;
}

ScenarioBuilder &ScenarioBuilder::price()
{
    return fmt("\"%.2f\"", uniform(20000.0, 70000.0));
}

ScenarioBuilder &ScenarioBuilder::qty()
{
    return fmt("\"%.5f\"", uniform(0.0001, 5.0));
}

ScenarioBuilder &ScenarioBuilder::odds()
{
    return fmt("%.2f", uniform(1.01, 100.0));
}

ScenarioBuilder &ScenarioBuilder::timeMs(quint64 ms, bool patched)
{
    if (patched)
        m_msg.timeMsOffset = int(m_out.size());
    return num(ms);
}

ScenarioBuilder &ScenarioBuilder::seq(quint64 value, bool first)
{
    (first ? m_msg.firstSeqOffset : m_msg.lastSeqOffset) = int(m_out.size());
    return fmt("%*llu", kSeqWidth, static_cast<unsigned long long>(value));
}

ScenarioBuilder &ScenarioBuilder::tradeId(quint64 value)
{
    m_msg.tradeIdOffset = int(m_out.size());
    return fmt("%*llu", kSeqWidth, static_cast<unsigned long long>(value));
}

ScenarioBuilder &ScenarioBuilder::heartbeatMs()
{
    m_msg.heartbeatMsOffset = int(m_out.size());
    return fmt("%*d", kHeartbeatWidth, 5000);
}

ScenarioBuilder &ScenarioBuilder::clk()
{
    m_msg.clkOffset = int(m_out.size());
    return fmt("%0*d", kClkWidth, 0);
}

PoolMessage ScenarioBuilder::take()
{
    m_msg.json = QByteArray(m_out.data(), qsizetype(m_out.size()));
    PoolMessage done = m_msg;
    m_msg = {};
    m_out.clear();
    return done;
}

double ScenarioBuilder::uniform(double lo, double hi)
{
    return std::uniform_real_distribution<double>(lo, hi)(m_rng);
}

template<typename... Args>
ScenarioBuilder &ScenarioBuilder::fmt(const char *format, Args... args)
{
    char buf[64];
    const int n = std::snprintf(buf, sizeof buf, format, args...);
    m_out.append(buf, size_t(std::clamp(n, 0, int(sizeof buf) - 1)));
    return *this;
}

QByteArray jsonString(const QString &text)
{
    const QByteArray array = QJsonDocument(QJsonArray{text}).toJson(QJsonDocument::Compact); // ["..."]
    return array.mid(1, array.size() - 2);
}

} // namespace streamscope::scenario
