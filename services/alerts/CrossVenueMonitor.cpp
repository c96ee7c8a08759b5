#include "CrossVenueMonitor.h"

#include "BookDepth.h"

#include <QtCore/QJsonObject>
#include <QtCore/QMap>

#include <algorithm>
#include <cmath>
#include <vector>

namespace streamscope::alerts {

namespace {

double median(std::vector<double> values)
{
    if (values.empty())
        return qQNaN();
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

double price(qint64 units)
{
    return double(units) / double(kDepthUnit);
}

QJsonValue number(double v)
{
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue();
}

QByteArray label(const QString &v)
{
    QString out = v;
    out.replace(QLatin1Char('\\'), QStringLiteral("\\\\"))
        .replace(QLatin1Char('"'), QStringLiteral("\\\""))
        .replace(QLatin1Char('\n'), QStringLiteral("\\n"));
    return out.toUtf8();
}

QByteArray gauge(double v)
{
    return std::isfinite(v) ? QByteArray::number(v, 'g', 12) : QByteArrayLiteral("NaN");
}

} // namespace

QHash<StreamId, QSet<QString>> CrossVenueMonitor::lastTradeWanted(const QHash<StreamId, QSet<QString>> &names)
{
    QHash<QString, int> streams; // how many streams have each name
    streams.reserve(names.size());
    for (const QSet<QString> &own : names)
        for (const QString &name : own)
            ++streams[name];
    // Every name, once: the streams that named none yet share it (a copy of it each, inserted
    // name by name, cost a thousand streams a million insertions a second).
    QSet<QString> every;
    every.reserve(streams.size());
    for (auto n = streams.cbegin(); n != streams.cend(); ++n)
        every.insert(n.key());
    QHash<StreamId, QSet<QString>> out;
    out.reserve(names.size());
    for (auto it = names.cbegin(); it != names.cend(); ++it) {
        QSet<QString> &wanted = out[it.key()];
        if (it->isEmpty()) { // it named none yet: whatever another stream has
            wanted = every;
            continue;
        }
        // Every one of its names another stream has too (a thousand streams of one instrument):
        // its own set, shared, not a copy.
        if (std::all_of(it->cbegin(), it->cend(),
                        [&streams](const QString &name) { return streams.value(name) >= 2; })) {
            wanted = *it;
            continue;
        }
        for (const QString &name : *it)
            if (streams.value(name) >= 2)
                wanted.insert(name);
    }
    return out;
}

const char *crossVenueFlagName(CrossVenueFlag flag)
{
    switch (flag) {
    case CrossVenueFlag::Apart: return "apart";
    case CrossVenueFlag::Frozen: return "frozen";
    case CrossVenueFlag::None: break;
    }
    return "";
}

bool CrossVenueMonitor::sameNames(const QStringList &list, const QSet<QString> &set)
{
    qsizetype distinct = 0;
    for (qsizetype i = 0; i < list.size(); ++i) {
        if (!set.contains(list.at(i)))
            return false;
        distinct += std::find(list.cbegin(), list.cbegin() + i, list.at(i)) == list.cbegin() + i ? 1 : 0;
    }
    return distinct == set.size();
}

QString CrossVenueMonitor::resolve(const QString &symbol)
{
    if (const auto it = m_resolved.constFind(symbol); it != m_resolved.cend())
        return *it;
    if (m_resolved.size() >= kMaxResolved)
        m_resolved.clear();
    return *m_resolved.insert(symbol, m_aliases.resolve(symbol));
}

void CrossVenueMonitor::update(const QVector<Input> &inputs, qint64 nowMs)
{
    // Every synced book with both sides and every last trade price, by normalised instrument
    // name; one quote a stream. And every instrument name each running stream has.
    QMap<QString, QVector<CrossVenueQuote>> byInstrument;
    QHash<StreamId, QSet<QString>> names;
    names.reserve(inputs.size());
    for (const Input &in : inputs) {
        const StreamSnapshot *s = in.snapshot;
        if (!s || !isRunning(s->state))
            continue;
        // The stream's names, first in a list kept from stream to stream; its set from the last
        // update stands when they are the same.
        m_scratch.clear();
        const auto resolve = [&](const QString &symbol) {
            QString name = this->resolve(symbol);
            if (!name.isEmpty())
                m_scratch.append(name); // bounded by the snapshot's books, instruments and trades
            return name;
        };
        // The stream's quote of `name` (spelt `symbol`), made on first use; null past the bounds.
        const auto quoteOf = [&](const QString &name, const QString &symbol) -> CrossVenueQuote * {
            auto it = byInstrument.find(name);
            if (it == byInstrument.end()) {
                if (byInstrument.size() >= kMaxInstruments * 4)
                    return nullptr; // a bound on this pass's work; those with one stream go below
                it = byInstrument.insert(name, {});
            }
            QVector<CrossVenueQuote> &quotes = *it;
            for (CrossVenueQuote &q : quotes)
                if (q.stream == s->id)
                    return q.symbol == symbol ? &q : nullptr; // another spelling of it: the first stands
            if (quotes.size() >= kMaxQuotes)
                return nullptr;
            CrossVenueQuote q;
            q.stream = s->id;
            q.streamName = s->name;
            q.venue = venueName(s->venue);
            q.symbol = symbol;
            q.latencyMs = in.latencyP50Ms;
            q.ageMs = s->lastDataMs > 0 ? std::max<qint64>(0, nowMs - s->lastDataMs) : -1;
            quotes.append(q);
            return &quotes.last();
        };
        for (const BookStatus &b : s->books) {
            const QString name = resolve(b.instrument);
            if (name.isEmpty() || b.state != BookState::Synced || b.bestBid <= 0 || b.bestAsk <= 0)
                continue;
            if (CrossVenueQuote *q = quoteOf(name, b.instrument)) {
                q->bestBid = price(b.bestBid);
                q->bestAsk = price(b.bestAsk);
                q->mid = (q->bestBid + q->bestAsk) / 2.0;
            }
        }
        for (const InstrumentStatus &i : s->instruments)
            resolve(i.instrument);
        for (const LastTrade &t : s->lastTrades) {
            const QString name = resolve(t.instrument);
            if (name.isEmpty() || t.price <= 0)
                continue;
            if (CrossVenueQuote *q = quoteOf(name, t.instrument)) {
                q->last = price(t.price);
                q->lastAgeMs = t.receivedMs > 0 ? std::max<qint64>(0, nowMs - t.receivedMs) : -1;
            }
        }
        // A stream with a few names (most have one or two, some twice), the same as at the last
        // update, keeps the set it had.
        const auto was = m_names.constFind(s->id);
        if (was != m_names.cend() && m_scratch.size() <= kFewNames && sameNames(m_scratch, *was)) {
            names.insert(s->id, *was);
            continue;
        }
        QSet<QString> &own = names[s->id];
        for (const QString &name : std::as_const(m_scratch)) {
            if (own.size() >= kMaxInstruments * 4)
                break;
            own.insert(name);
        }
    }
    m_names = names;
    for (auto it = byInstrument.begin(); it != byInstrument.end(); ++it)
        for (CrossVenueQuote &q : *it)
            q.byLast = !std::isfinite(q.mid);
    m_lastTradeWanted = lastTradeWanted(names);

    QVector<CrossVenueInstrument> result;
    QHash<QString, History> history;
    for (auto it = byInstrument.begin(); it != byInstrument.end() && result.size() < kMaxInstruments; ++it) {
        QVector<CrossVenueQuote> &quotes = *it;
        if (quotes.size() < 2)
            continue;
        std::sort(quotes.begin(), quotes.end(),
                  [](const CrossVenueQuote &a, const CrossVenueQuote &b) { return a.streamName < b.streamName; });
        CrossVenueInstrument inst;
        inst.instrument = it.key();
        std::vector<double> mids;
        for (const CrossVenueQuote &q : quotes)
            mids.push_back(q.price());
        inst.medianMid = median(mids);
        const auto [lo, hi] = std::minmax_element(mids.begin(), mids.end());
        inst.spreadBps = inst.medianMid > 0 ? (*hi - *lo) / inst.medianMid * 1e4 : qQNaN();

        // First each quote's own history (when its price last moved), then the flags, which look
        // at the others' moves.
        for (CrossVenueQuote &q : quotes) {
            History h = m_history.value(key(inst.instrument, q.stream));
            if (!h.seen || h.mid != q.price()) {
                h.mid = q.price();
                h.midChangedAtMs = nowMs;
                h.seen = true;
            }
            q.unchangedMs = nowMs - h.midChangedAtMs;
            history.insert(key(inst.instrument, q.stream), h);
        }
        for (int i = 0; i < quotes.size(); ++i) {
            CrossVenueQuote &q = quotes[i];
            std::vector<double> others;
            std::vector<double> otherLasts;
            bool othersMoved = false;
            for (int j = 0; j < quotes.size(); ++j) {
                if (j == i)
                    continue;
                others.push_back(quotes[j].price());
                if (std::isfinite(quotes[j].last))
                    otherLasts.push_back(quotes[j].last);
                othersMoved = othersMoved || quotes[j].unchangedMs < m_settings.frozenMs;
            }
            const double ref = median(others);
            q.deviationBps = ref > 0 ? (q.price() - ref) / ref * 1e4 : qQNaN();
            const double lastRef = median(otherLasts);
            q.lastDeviationBps = lastRef > 0 && std::isfinite(q.last) ? (q.last - lastRef) / lastRef * 1e4 : qQNaN();
            History &h = history[key(inst.instrument, q.stream)];
            const bool apartNow = std::isfinite(q.deviationBps) && std::abs(q.deviationBps) > m_settings.apartBps;
            if (!apartNow)
                h.apartSinceMs = 0;
            else if (h.apartSinceMs == 0)
                h.apartSinceMs = nowMs;
            if (apartNow && nowMs - h.apartSinceMs >= m_settings.apartForMs)
                q.flag = CrossVenueFlag::Apart;
            else if (q.unchangedMs >= m_settings.frozenMs && othersMoved)
                q.flag = CrossVenueFlag::Frozen;
        }
        inst.quotes = quotes;
        result.append(inst);
    }
    m_instruments = result;
    m_history = history; // what was not compared this time starts afresh when it comes back
}

void CrossVenueMonitor::fillSample(StreamId stream, AlertMonitor::Sample &sample) const
{
    for (const CrossVenueInstrument &inst : m_instruments) {
        for (const CrossVenueQuote &q : inst.quotes) {
            if (q.stream != stream)
                continue;
            if (std::isfinite(q.deviationBps)
                && (!std::isfinite(sample.crossVenueBps)
                    || std::abs(q.deviationBps) > std::abs(sample.crossVenueBps))) {
                sample.crossVenueBps = q.deviationBps;
                sample.crossVenueInstrument = inst.instrument;
            }
            if (q.flag == CrossVenueFlag::Frozen)
                sample.crossVenueFrozen.append(inst.instrument);
        }
    }
}

QJsonArray CrossVenueMonitor::toJson() const
{
    QJsonArray out;
    for (const CrossVenueInstrument &inst : m_instruments) {
        QJsonArray venues;
        for (const CrossVenueQuote &q : inst.quotes) {
            venues.append(QJsonObject{
                {QStringLiteral("stream"), q.streamName},
                {QStringLiteral("venue"), q.venue},
                {QStringLiteral("symbol"), q.symbol},
                {QStringLiteral("mid"), number(q.mid)},
                {QStringLiteral("best_bid"), number(q.bestBid)},
                {QStringLiteral("best_ask"), number(q.bestAsk)},
                {QStringLiteral("last"), number(q.last)},
                {QStringLiteral("last_age_ms"), q.lastAgeMs >= 0 ? QJsonValue(q.lastAgeMs) : QJsonValue()},
                {QStringLiteral("last_deviation_bps"), number(q.lastDeviationBps)},
                {QStringLiteral("compared_by"), q.byLast ? QStringLiteral("last") : QStringLiteral("mid")},
                {QStringLiteral("latency_ms"), number(q.latencyMs)},
                {QStringLiteral("age_ms"), q.ageMs >= 0 ? QJsonValue(q.ageMs) : QJsonValue()},
                {QStringLiteral("deviation_bps"), number(q.deviationBps)},
                {QStringLiteral("unchanged_ms"), q.unchangedMs},
                {QStringLiteral("flagged"), q.flag != CrossVenueFlag::None},
                {QStringLiteral("reason"), QLatin1String(crossVenueFlagName(q.flag))},
            });
        }
        out.append(QJsonObject{{QStringLiteral("instrument"), inst.instrument},
                               {QStringLiteral("median_mid"), number(inst.medianMid)},
                               {QStringLiteral("spread_bps"), number(inst.spreadBps)},
                               {QStringLiteral("venues"), venues}});
    }
    return out;
}

QByteArray CrossVenueMonitor::renderMetrics() const
{
    if (m_instruments.isEmpty())
        return {}; // no instrument shared by two streams: no family at all
    QByteArray out;
    out += "# TYPE streamscope_cross_venue_spread_bps gauge\n"
           "# HELP streamscope_cross_venue_spread_bps Highest minus lowest price (mid, else last trade) of an "
           "instrument over its venues, in basis points of their median.\n";
    for (const CrossVenueInstrument &inst : m_instruments)
        out += "streamscope_cross_venue_spread_bps{instrument=\"" + label(inst.instrument) + "\"} "
            + gauge(inst.spreadBps) + '\n';
    struct Family {
        const char *name;
        const char *help;
        double (*value)(const CrossVenueQuote &);
    };
    static const Family kFamilies[] = {
        {"streamscope_cross_venue_mid",
         "The stream's mid price of the instrument ((best bid + best ask) / 2); NaN without a synced book.",
         [](const CrossVenueQuote &q) { return q.mid; }},
        {"streamscope_cross_venue_deviation_bps",
         "The stream's price (its mid, else its last trade) minus the median of the other venues' prices, in "
         "basis points of that median.",
         [](const CrossVenueQuote &q) { return q.deviationBps; }},
        {"streamscope_cross_venue_flagged",
         "1 while the stream is flagged for the instrument (apart from the others, or its price frozen).",
         [](const CrossVenueQuote &q) { return q.flag != CrossVenueFlag::None ? 1.0 : 0.0; }},
    };
    for (const Family &f : kFamilies) {
        out += QByteArray("# TYPE ") + f.name + " gauge\n# HELP " + f.name + ' ' + f.help + '\n';
        for (const CrossVenueInstrument &inst : m_instruments)
            for (const CrossVenueQuote &q : inst.quotes)
                out += QByteArray(f.name) + "{instrument=\"" + label(inst.instrument) + "\",stream=\""
                    + label(q.streamName) + "\"} " + gauge(f.value(q)) + '\n';
    }
    // The last trade price: a series only for a stream that sent a trade of the instrument.
    QByteArray lasts;
    for (const CrossVenueInstrument &inst : m_instruments)
        for (const CrossVenueQuote &q : inst.quotes)
            if (std::isfinite(q.last))
                lasts += "streamscope_cross_venue_last{instrument=\"" + label(inst.instrument) + "\",stream=\""
                    + label(q.streamName) + "\"} " + gauge(q.last) + '\n';
    if (!lasts.isEmpty())
        out += "# TYPE streamscope_cross_venue_last gauge\n"
               "# HELP streamscope_cross_venue_last The stream's last trade price of the instrument.\n"
            + lasts;
    return out;
}

} // namespace streamscope::alerts
