#include "LastTradeKeeper.h"

#include "book/FixedPoint.h"
#include "protocol/DecodedFields.h"
#include "protocol/TradeSpec.h"

namespace streamscope {

LastTradeKeeper::LastTradeKeeper(const TradeSpec &spec)
    : m_spec(spec)
{
}

bool LastTradeKeeper::wanted(const QByteArray &symbol) const
{
    return m_wanted.contains(m_aliases.resolve(QString::fromLatin1(symbol)));
}

void LastTradeKeeper::setWanted(const QSet<QString> &names, const InstrumentAliases &aliases)
{
    m_wanted = names;
    m_aliases = aliases;
    for (const auto &item : m_index.items()) {
        Entry &e = item->value;
        e.wanted = wanted(item->key);
        if (!e.wanted)
            e = Entry{};
    }
    m_dirty = true;
    m_publishedMs = -1; // at the next tick
}

LastTradeKeeper::Index::Item *LastTradeKeeper::add(std::string_view symbol)
{
    Index::Item *item = m_index.add(symbol);
    if (item)
        item->value.wanted = wanted(item->key);
    return item;
}

void LastTradeKeeper::trade(std::string_view symbol, std::string_view price)
{
    if (symbol.empty())
        symbol = m_message;
    if (symbol.empty())
        return;
    Index::Item *item = lookUp(symbol);
    if (!item || !item->value.wanted)
        return;
    Entry &e = item->value;
    // Of a batch listed newest first, its first trade of the instrument stands.
    if (m_spec.newestFirst && e.stamp == m_stamp)
        return;
    book::Fixed v = 0;
    if (!book::parseFixed(price, v) || v <= 0)
        return; // no price we can compare: the last one stays
    e.stamp = m_stamp;
    ++e.trades;
    e.receivedMs = m_wallMs;
    e.price = v;
    m_dirty = true;
}

bool LastTradeKeeper::tick(qint64 nowMs)
{
    if (!m_dirty || (m_publishedMs >= 0 && nowMs - m_publishedMs < kPublishMs))
        return false;
    m_dirty = false;
    m_publishedMs = nowMs;
    return true;
}

QVector<LastTrade> LastTradeKeeper::prices() const
{
    QVector<LastTrade> out;
    for (const auto &item : m_index.items()) {
        const Entry &e = item->value;
        if (!e.wanted || e.price <= 0)
            continue;
        out.append(LastTrade{QString::fromLatin1(item->key), e.price, e.trades, e.receivedMs});
    }
    return out;
}

} // namespace streamscope
