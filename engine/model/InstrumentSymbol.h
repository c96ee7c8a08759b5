#pragma once

// One name for one instrument across venues (docs/venues.md, "One instrument across venues"):
// the venues spell a pair differently (OKX and Coinbase "BTC-USDT", Binance and Bybit "BTCUSDT",
// Kraken "BTC/USDT", Bitfinex-style "tBTCUSDT"), and normalizedInstrument() writes every such
// spelling as "BASE-QUOTE" in capitals. Only spellings are merged, never assets: BTC-USD,
// BTC-USDT and BTC-USDC stay three instruments. What a spelling cannot tell (Kraken's "XBT",
// Hyperliquid's bare coin "BTC") the user's mapping table says (`InstrumentAliases`, the
// workspace's "instrument_aliases").
//
// Thread contract: pure functions and a plain value type; any thread.

#include <QtCore/QMap>
#include <QtCore/QString>

namespace streamscope {

inline constexpr int kMaxInstrumentNameChars = 32;

// "BASE-QUOTE" (or "BASE-QUOTE-SUFFIX" for a spelling with more parts, "BTC-USDT-SWAP"), in
// capitals: separators '-', '/', '_' and ':' become '-'; a run of letters and digits without one
// is split before the longest known quote asset it ends with (USDT, USDC, USD, EUR, BTC, ...)
// that leaves a base of three characters or more, else two (XBTUSD: XBT-USD; OPUSDT: OP-USDT);
// a leading lowercase "t" before capitals is Bitfinex's trading-pair prefix and goes. A name
// with no known quote comes back in capitals as it is ("BTC"). Empty for an empty name, one
// longer than kMaxInstrumentNameChars, or one with characters other than ASCII letters,
// digits and those separators.
QString normalizedInstrument(const QString &symbol);

// Whether `name` is a normalised name: what normalizedInstrument() gives back for it.
bool isNormalizedInstrument(const QString &name);

// The user's mapping: a venue's spelling → the normalised name it stands for
// ({"XBT/USD": "BTC-USD", "BTC": "BTC-USD"}). Keys are compared as normalised spellings.
class InstrumentAliases {
public:
    static constexpr int kMaxAliases = 256;

    InstrumentAliases() = default;
    // Keys normalised, values as given (callers validate them: isNormalizedInstrument()).
    explicit InstrumentAliases(const QMap<QString, QString> &map);

    // The name `symbol` is compared by: its alias, else its normalised spelling; empty when
    // the symbol is no instrument name at all.
    QString resolve(const QString &symbol) const;
    // As written in the workspace (its keys as the user wrote them).
    const QMap<QString, QString> &map() const { return m_written; }
    bool isEmpty() const { return m_written.isEmpty(); }
    bool operator==(const InstrumentAliases &o) const { return m_written == o.m_written; }

private:
    QMap<QString, QString> m_written;
    QMap<QString, QString> m_byNormalized;
};

} // namespace streamscope
