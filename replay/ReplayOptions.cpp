#include "ReplayOptions.h"

#include "ScenarioKit.h"

#include <QUrl>
#include <QUrlQuery>

#include <limits>

namespace streamscope::replay {

namespace {
// A clock offset beyond a day is a mistake, not a test: event times must stay plausible.
constexpr qint64 kMaxClockOffsetMs = 86400000;
} // namespace

namespace {

bool isTrue(const QString &value)
{
    return value.isEmpty() || value == QLatin1String("1") || value == QLatin1String("true")
        || value == QLatin1String("yes");
}

} // namespace

quint64 ReplayOptions::effectiveCount() const
{
    if (loop)
        return std::numeric_limits<quint64>::max();
    return count ? count : scenarioDefaultCount(scenario);
}

ReplayOptions::Misbehaviour ReplayOptions::misbehaviour() const
{
    static const struct {
        const char *name;
        Misbehaviour kind;
    } kinds[] = {
        {"silent", Misbehaviour::Silent},
        {"drop", Misbehaviour::Drop},
        {"bad_frame", Misbehaviour::BadFrame},
        {"invalid_utf8", Misbehaviour::InvalidUtf8},
        {"oversized", Misbehaviour::Oversized},
        {"bad_json", Misbehaviour::BadJson},
        {"gap", Misbehaviour::Gap},
        {"shutdown", Misbehaviour::Shutdown},
    };
    for (const auto &k : kinds) {
        if (misbehave == QLatin1String(k.name))
            return k.kind;
    }
    return Misbehaviour::None;
}

QString ReplayOptions::validate() const
{
    if (scenarioDefaultCount(scenario) == 0) {
        return QStringLiteral("unknown scenario \"%1\" (expected one of %2)")
            .arg(scenario, scenarioNames().join(QStringLiteral(", ")));
    }
    if (!misbehave.isEmpty() && misbehave != QLatin1String("none") && misbehaviour() == Misbehaviour::None) {
        return QStringLiteral("unknown misbehaviour \"%1\" (expected silent, drop, bad_frame, "
                              "invalid_utf8, oversized, bad_json, gap or shutdown)")
            .arg(misbehave);
    }
    if (rate < 0)
        return QStringLiteral("rate must not be negative");
    if (clockOffsetMs < -kMaxClockOffsetMs || clockOffsetMs > kMaxClockOffsetMs)
        return QStringLiteral("clock offset must be within one day (86400000 ms)");
    if (segmentEvery != 0 && segmentEvery < 4)
        return QStringLiteral("segment_every must be at least 4");
    if (instruments < 1 || instruments > quint64(scenario::kMaxInstruments)
        || firstInstrument > quint64(scenario::kMaxInstruments) - instruments)
        return QStringLiteral("instruments must be 1 to %1, and first_instrument + instruments at most %1")
            .arg(scenario::kMaxInstruments);
    if (misbehaviour() == Misbehaviour::BadJson && after == 0)
        return QStringLiteral("bad_json needs after=K (every K-th message is malformed)");
    return {};
}

ReplayOptions ReplayOptions::fromUrl(const ReplayOptions &base, const QUrl &url)
{
    ReplayOptions o = base;
    const QString first = url.path().section(QLatin1Char('/'), 1, 1);
    if (scenarioDefaultCount(first) != 0)
        o.scenario = first;

    const QUrlQuery query(url);
    const auto items = query.queryItems(QUrl::FullyDecoded);
    for (const auto &[key, value] : items) {
        const quint64 number = value.toULongLong();
        if (key == QLatin1String("scenario"))
            o.scenario = value;
        else if (key == QLatin1String("count"))
            o.count = number;
        else if (key == QLatin1String("rate"))
            o.rate = value.toDouble();
        else if (key == QLatin1String("loop"))
            o.loop = isTrue(value);
        else if (key == QLatin1String("stamp"))
            o.stamp = isTrue(value);
        else if (key == QLatin1String("misbehave"))
            o.misbehave = value;
        else if (key == QLatin1String("after"))
            o.after = number;
        else if (key == QLatin1String("silent_ms"))
            o.silentMs = number;
        else if (key == QLatin1String("drop_every"))
            o.dropEvery = isTrue(value);
        else if (key == QLatin1String("size"))
            o.oversizedBytes = number;
        else if (key == QLatin1String("gap"))
            o.gapCount = number;
        else if (key == QLatin1String("wait_subscribe"))
            o.waitSubscribe = isTrue(value);
        else if (key == QLatin1String("idle"))
            o.idle = isTrue(value);
        else if (key == QLatin1String("ping_ms"))
            o.pingMs = number;
        else if (key == QLatin1String("market"))
            o.market = isTrue(value);
        else if (key == QLatin1String("shutdown_grace_ms"))
            o.shutdownGraceMs = number;
        else if (key == QLatin1String("max_age_ms"))
            o.maxAgeMs = number;
        else if (key == QLatin1String("max_streams"))
            o.maxStreams = int(number);
        else if (key == QLatin1String("per_stream"))
            o.perStream = isTrue(value);
        else if (key == QLatin1String("clock_offset_ms"))
            o.clockOffsetMs = value.toLongLong();
        else if (key == QLatin1String("lag_ms_per_s"))
            o.lagMsPerS = number;
        else if (key == QLatin1String("instruments"))
            o.instruments = number;
        else if (key == QLatin1String("first_instrument"))
            o.firstInstrument = number;
        // Anything else (streams=..., a client's own parameters) is not ours: ignored.
    }
    return o;
}

QStringList ReplayOptions::streamsFromUrl(const QUrl &url)
{
    const QString path = url.path();
    if (path.startsWith(QLatin1String("/ws/")))
        return path.mid(4).split(QLatin1Char('/'), Qt::SkipEmptyParts);
    const QString streams = QUrlQuery(url).queryItemValue(QStringLiteral("streams"), QUrl::FullyDecoded);
    return streams.split(QLatin1Char('/'), Qt::SkipEmptyParts);
}

} // namespace streamscope::replay
