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

ScenarioBuilder &ScenarioBuilder::bidPrice()
{
    return fmt("\"%.2f\"", uniform(20000.0, 44999.99));
}

ScenarioBuilder &ScenarioBuilder::askPrice()
{
    return fmt("\"%.2f\"", uniform(45000.01, 69999.99));
}

ScenarioBuilder &ScenarioBuilder::bidPriceNumber()
{
    return fmt("%.1f", uniform(20000.0, 44999.9));
}

ScenarioBuilder &ScenarioBuilder::askPriceNumber()
{
    return fmt("%.1f", uniform(45000.1, 69999.9));
}

ScenarioBuilder &ScenarioBuilder::qty()
{
    return fmt("\"%.5f\"", uniform(0.0001, 5.0));
}

ScenarioBuilder &ScenarioBuilder::priceNumber()
{
    return fmt("%.1f", uniform(20000.0, 70000.0));
}

ScenarioBuilder &ScenarioBuilder::qtyNumber()
{
    return fmt("%.8f", uniform(0.0001, 5.0));
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

ScenarioBuilder &ScenarioBuilder::timeText(quint64 ms, bool patched)
{
    if (patched)
        m_msg.timeTextOffset = int(m_out.size());
    char text[kTimeTextWidth];
    writeTimeText(text, ms);
    m_out.append(text, kTimeTextWidth);
    return *this;
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

ScenarioBuilder &ScenarioBuilder::instrumentSymbol(int place, bool lowerCase)
{
    raw(lowerCase ? "s" : "S");
    m_msg.instrumentOffsets[place] = int(m_out.size());
    return raw(lowerCase ? "0000usdt" : "0000USDT");
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
    m_lastBegin = m_out.size();
    m_out.append(buf, size_t(std::clamp(n, 0, int(sizeof buf) - 1)));
    return *this;
}

void writeTimeText(char *dst, quint64 ms)
{
    // Civil date from days since 1970-01-01 (Howard Hinnant's civil_from_days).
    const qint64 days = qint64(ms / 86400000);
    const qint64 z = days + 719468;
    const qint64 era = z / 146097;
    const qint64 doe = z - era * 146097;
    const qint64 yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const qint64 doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const qint64 mp = (5 * doy + 2) / 153;
    const qint64 day = doy - (153 * mp + 2) / 5 + 1;
    const qint64 month = mp < 10 ? mp + 3 : mp - 9;
    const qint64 year = yoe + era * 400 + (month <= 2 ? 1 : 0);
    const quint64 inDay = ms % 86400000;
    const auto put = [&dst](int at, quint64 value, int width) {
        for (int i = width - 1; i >= 0; --i, value /= 10)
            dst[at + i] = char('0' + value % 10);
    };
    put(0, quint64(year), 4);
    dst[4] = '-';
    put(5, quint64(month), 2);
    dst[7] = '-';
    put(8, quint64(day), 2);
    dst[10] = 'T';
    put(11, inDay / 3600000, 2);
    dst[13] = ':';
    put(14, inDay / 60000 % 60, 2);
    dst[16] = ':';
    put(17, inDay / 1000 % 60, 2);
    dst[19] = '.';
    put(20, inDay % 1000 * 1000, 6);
    dst[26] = 'Z';
}

QByteArray jsonString(const QString &text)
{
    const QByteArray array = QJsonDocument(QJsonArray{text}).toJson(QJsonDocument::Compact); // ["..."]
    return array.mid(1, array.size() - 2);
}

} // namespace streamscope::scenario
