#pragma once

// The instruments of one stream by name, for the figures kept per instrument (the order books,
// session/BookKeeper; each instrument's cadence, session/InstrumentWatch). One bound and one
// name rule for all of them, so that the report's and /metrics' label set stays bounded: at
// most kMaxInstruments a stream, names of at most kMaxInstrumentChars letters, digits and
// ._:/- only; anything else is not taken (its owner counts it as untracked).
//
// Thread contract: the stream's worker only. find() is the hot path: the last instrument
// compared first, then the others one by one while there are few, else a hash lookup by a view
// of the symbol (a key of raw data: nothing is copied or allocated); names are compared
// length first, then a word or two at a time. add() allocates, once per instrument.

#include <QtCore/QByteArray>
#include <QtCore/QHash>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

namespace streamscope {

inline constexpr int kMaxInstruments = 1024;
inline constexpr int kMaxInstrumentChars = 32;

// A name we take as an instrument's: 1..kMaxInstrumentChars of [A-Za-z0-9._:/-].
inline bool instrumentName(std::string_view s)
{
    if (s.empty() || s.size() > std::size_t(kMaxInstrumentChars))
        return false;
    return std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_'
            || c == ':' || c == '/' || c == '-';
    });
}

template<typename T>
class InstrumentIndex {
public:
    struct Item {
        QByteArray key; // the symbol's bytes, which the hash's raw-data keys point into
        T value{};
    };

    Item *find(std::string_view symbol)
    {
        if (m_last && sameName(m_last->key, symbol))
            return m_last;
        Item *item = lookUp(symbol);
        if (item)
            m_last = item;
        return item;
    }
    const Item *find(const QByteArray &symbol) const
    {
        return lookUp(std::string_view(symbol.constData(), std::size_t(symbol.size())));
    }

    // A new instrument, or null when the stream has kMaxInstruments already or the name is not
    // one we take. `symbol` must not be known yet (find() first).
    Item *add(std::string_view symbol)
    {
        if (int(m_items.size()) >= kMaxInstruments || !instrumentName(symbol))
            return nullptr;
        auto item = std::make_unique<Item>();
        item->key = QByteArray(symbol.data(), qsizetype(symbol.size()));
        Item *i = item.get();
        m_items.push_back(std::move(item));
        // The hash is built when the scan stops: a stream of a few instruments holds none.
        if (m_items.size() == kScanned + 1)
            for (const auto &known : m_items)
                m_bySymbol.insert(known->key, known.get());
        else if (m_items.size() > kScanned + 1)
            m_bySymbol.insert(i->key, i);
        m_last = i;
        return i;
    }

    // In the order they were first seen.
    const std::vector<std::unique_ptr<Item>> &items() const { return m_items; }
    int size() const { return int(m_items.size()); }

private:
    static constexpr std::size_t kScanned = 8;

    // A few instruments are compared one by one, length first; more are hashed.
    Item *lookUp(std::string_view symbol) const
    {
        if (m_items.size() <= kScanned) {
            for (const auto &item : m_items)
                if (sameName(item->key, symbol))
                    return item.get();
            return nullptr;
        }
        const auto it = m_bySymbol.constFind(QByteArray::fromRawData(symbol.data(), qsizetype(symbol.size())));
        return it == m_bySymbol.cend() ? nullptr : *it;
    }

    // Whether `key` is `symbol`: the lengths, then a word or two of each (a name is short).
    static bool sameName(const QByteArray &key, std::string_view symbol)
    {
        const std::size_t n = symbol.size();
        if (std::size_t(key.size()) != n)
            return false;
        const char *a = key.constData();
        const char *b = symbol.data();
        if (n >= 8 && n <= 16)
            return load<quint64>(a) == load<quint64>(b) && load<quint64>(a + n - 8) == load<quint64>(b + n - 8);
        if (n >= 4 && n < 8)
            return load<quint32>(a) == load<quint32>(b) && load<quint32>(a + n - 4) == load<quint32>(b + n - 4);
        return std::memcmp(a, b, n) == 0;
    }
    template<typename W>
    static W load(const char *p)
    {
        W w;
        std::memcpy(&w, p, sizeof w);
        return w;
    }

    std::vector<std::unique_ptr<Item>> m_items;
    QHash<QByteArray, Item *> m_bySymbol; // past kScanned items; keys are Item::key
    Item *m_last = nullptr;
};

} // namespace streamscope
