#include "InstrumentSymbol.h"

#include <QtCore/QStringList>

#include <array>

namespace streamscope {

namespace {

bool isSeparator(QChar c)
{
    return c == QLatin1Char('-') || c == QLatin1Char('/') || c == QLatin1Char('_') || c == QLatin1Char(':');
}

bool isAlnum(QChar c)
{
    return (c >= QLatin1Char('A') && c <= QLatin1Char('Z')) || (c >= QLatin1Char('a') && c <= QLatin1Char('z'))
        || (c >= QLatin1Char('0') && c <= QLatin1Char('9'));
}

// The quote assets a run of letters may end with, longest first where one ends another
// ("USDT" before "USD", "FDUSD" before "USD"), so that BTCUSDT is BTC-USDT and never BTCU-SDT.
constexpr std::array<const char *, 17> kQuotes = {"FDUSD", "USDT", "USDC", "BUSD", "TUSD", "USD", "EUR", "GBP", "JPY",
                                                  "TRY",   "BRL",  "AUD",  "DAI",  "BTC",  "ETH", "BNB", "SOL"};
constexpr qsizetype kPreferredBaseChars = 3;
constexpr qsizetype kMinBaseChars = 2;

} // namespace

QString normalizedInstrument(const QString &symbol)
{
    const QString s = symbol.trimmed();
    if (s.isEmpty() || s.size() > kMaxInstrumentNameChars)
        return {};
    for (const QChar c : s) {
        if (!isAlnum(c) && !isSeparator(c))
            return {};
    }
    QString body = s;
    // Bitfinex's trading pairs: "tBTCUSD" (a lowercase t before capitals).
    if (body.size() > 1 && body.at(0) == QLatin1Char('t') && body.at(1).isUpper())
        body.remove(0, 1);
    body = body.toUpper();
    bool separated = false;
    for (const QChar c : body)
        separated = separated || isSeparator(c);
    if (separated) {
        QStringList parts;
        QString part;
        for (const QChar c : body) {
            if (isSeparator(c)) {
                parts << part;
                part.clear();
            } else {
                part += c;
            }
        }
        parts << part;
        for (const QString &p : parts) {
            if (p.isEmpty())
                return {};
        }
        return parts.join(QLatin1Char('-'));
    }
    // The longest quote that leaves a base of three characters or more (XBTUSD is XBT-USD, not
    // XB-TUSD), else one that leaves two (OPUSDT).
    for (const qsizetype minBase : {kPreferredBaseChars, kMinBaseChars}) {
        for (const char *quote : kQuotes) {
            const QLatin1String q(quote);
            if (body.size() >= q.size() + minBase && body.endsWith(q))
                return body.left(body.size() - q.size()) + QLatin1Char('-') + q;
        }
    }
    return body;
}

bool isNormalizedInstrument(const QString &name)
{
    return !name.isEmpty() && normalizedInstrument(name) == name;
}

InstrumentAliases::InstrumentAliases(const QMap<QString, QString> &map)
    : m_written(map)
{
    for (auto it = map.cbegin(); it != map.cend(); ++it) {
        const QString key = normalizedInstrument(it.key());
        if (!key.isEmpty())
            m_byNormalized.insert(key, it.value());
    }
}

QString InstrumentAliases::resolve(const QString &symbol) const
{
    const QString n = normalizedInstrument(symbol);
    if (n.isEmpty())
        return {};
    return m_byNormalized.value(n, n);
}

} // namespace streamscope
