#include "InstrumentReport.h"

#include "MetricsText.h"

#include <QtCore/QJsonArray>

#include <algorithm>

namespace streamscope::app {

void addInstrumentFields(QJsonObject &o, const StreamSnapshot &s)
{
    QJsonArray list;
    for (const InstrumentStatus &i : s.instruments)
        list.append(QJsonObject{{QStringLiteral("instrument"), i.instrument},
                                {QStringLiteral("messages"), qint64(i.messages)},
                                {QStringLiteral("stale"), i.stale},
                                {QStringLiteral("stale_episodes"), qint64(i.staleEpisodes)}});
    o.insert(QStringLiteral("instruments"), list);
    o.insert(QStringLiteral("instruments_untracked"), qint64(s.instrumentsUntracked));
}

void appendInstrumentMetrics(QByteArray &out, const QVector<StreamSnapshot> &streams, const QList<QByteArray> &names)
{
    const bool any =
        std::any_of(streams.begin(), streams.end(), [](const StreamSnapshot &s) { return !s.instruments.isEmpty(); });
    if (!any)
        return;
    const QByteArray stale = QByteArrayLiteral("streamscope_instrument_stale");
    appendFamily(out, stale, "gauge",
                 "1 while an instrument is silent well beyond its own cadence and the others speak.");
    for (qsizetype i = 0; i < streams.size(); ++i) {
        for (const InstrumentStatus &s : streams[i].instruments)
            out += stale + "{stream=\"" + names[i] + "\",instrument=\"" + labelValue(s.instrument) + "\"} "
                + (s.stale ? "1" : "0") + '\n';
    }
}

} // namespace streamscope::app
