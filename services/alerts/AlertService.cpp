#include "AlertService.h"

#include "Engine.h"
#include "ValueFormat.h"

#include "PeerText.h"
#include "SecretStore.h"

#include <QtCore/QDateTime>
#include <QtCore/QEventLoop>
#include <QtCore/QJsonArray>
#include <QtCore/QTimer>

namespace streamscope::alerts {

namespace {

const QString kKeychain = QStringLiteral("keychain:");

// The first keychain reference of a destination, as "key" relative to it; empty when none.
QString keychainKey(const NotifyTarget &t)
{
    if (t.url.startsWith(kKeychain))
        return QStringLiteral("url");
    if (t.token.startsWith(kKeychain))
        return QStringLiteral("token");
    for (const auto &[name, value] : t.headers)
        if (value.startsWith(kKeychain))
            return QStringLiteral("headers.") + name;
    return {};
}

QString escapeLabel(const QString &v)
{
    QString out = v;
    out.replace(QLatin1Char('\\'), QStringLiteral("\\\\"))
        .replace(QLatin1Char('"'), QStringLiteral("\\\""))
        .replace(QLatin1Char('\n'), QStringLiteral("\\n"));
    return out;
}

} // namespace

AlertService::AlertService(QObject *parent)
    : AlertService(Notifier::Timing{}, parent)
{
}

AlertService::AlertService(const Notifier::Timing &timing, QObject *parent)
    : QObject(parent)
    , m_notifier(new Notifier(timing, this))
{
    m_steady.start();
    connect(&m_monitor, &AlertMonitor::alertRaised, this, &AlertService::onRaised);
    connect(&m_monitor, &AlertMonitor::alertCleared, this, &AlertService::onCleared);
    connect(m_notifier, &Notifier::deliveryFailed, this,
            [this](int, const QString &text) { emit message(QStringLiteral("notify: ") + peerText(text)); });
}

bool AlertService::configure(const Workspace &workspace, bool keychainAvailable, QString *error)
{
    QVector<AlertRule> rules;
    if (!AlertRule::fromJson(workspace.alerts, rules, error))
        return false;
    const auto noKeychain = [&](const NotifyTarget &t, const QString &where) {
        const QString key = keychainKey(t);
        if (keychainAvailable || key.isEmpty())
            return true;
        if (error)
            *error = QStringLiteral("%1.%2: expected an \"env:NAME\" reference: the keychain is available only "
                                    "in the desktop app, not in headless mode")
                         .arg(where, key);
        return false;
    };
    for (qsizetype i = 0; i < workspace.notify.size(); ++i)
        if (!noKeychain(workspace.notify[i], QStringLiteral("notify[%1]").arg(i)))
            return false;
    QStringList order;
    for (qsizetype s = 0; s < workspace.streams.size(); ++s) {
        const StreamConfig &c = workspace.streams[s];
        order << c.name;
        for (qsizetype i = 0; i < c.notify.size(); ++i)
            if (!noKeychain(c.notify[i], QStringLiteral("streams[%1].notify[%2]").arg(s).arg(i)))
                return false;
    }
    // Valid: applied. A stream gone from the workspace leaves /metrics, as its other series do.
    for (const QString &name : std::as_const(order))
        m_streams[name];
    m_order = order;
    m_monitor.setRules(rules);
    setInstrumentAliases(workspace.instrumentAliases);
    setCrossVenueConfig(workspace.crossVenue);
    setDestinations(workspace.notify, workspace.streams);
    return true;
}

void AlertService::setDestinations(const QList<NotifyTarget> &all, const QVector<StreamConfig> &streams)
{
    QList<QPair<QString, NotifyTarget>> perStream;
    for (const StreamConfig &c : streams)
        for (const NotifyTarget &t : c.notify)
            perStream.append({c.name, t});
    m_destinations = all;
    m_notifier->setDestinations(all, perStream);
}

void AlertService::evaluate(const QVector<StreamSnapshot> &snapshots, qint64 nowMs, qint64 steadyMs)
{
    QVector<CrossVenueMonitor::Input> inputs;
    inputs.reserve(snapshots.size());
    for (const StreamSnapshot &s : snapshots) {
        StreamFigures &f = m_figures[s.id];
        f.update(s, steadyMs);
        inputs.append({&s, f.latency().p50Ms()});
    }
    updateCrossVenue(inputs, nowMs);
    for (const StreamSnapshot &s : snapshots) {
        const StreamFigures &f = m_figures[s.id];
        evaluate(s, Figures{f.msgsPerSec(), f.latency().p99Ms(), nowMs}, nowMs);
    }
}

void AlertService::setInstrumentAliases(const InstrumentAliases &aliases)
{
    if (aliases == m_crossVenue.aliases())
        return;
    m_crossVenue.setAliases(aliases);
    emit instrumentAliasesChanged();
}

void AlertService::setCrossVenueConfig(const CrossVenueConfig &config)
{
    m_crossVenueConfig = config;
    m_crossVenue.setSettings({double(config.apartBps), qint64(config.apartForS) * 1000, qint64(config.frozenS) * 1000});
}

void AlertService::updateCrossVenue(const QVector<CrossVenueMonitor::Input> &inputs, qint64 nowMs)
{
    m_crossVenue.update(inputs, nowMs);
    handOutLastTrades();
    emit crossVenueUpdated();
}

void AlertService::handOutLastTrades()
{
    if (!m_engine)
        return;
    const bool aliasesChanged = !(m_lastTradeAliases == m_crossVenue.aliases());
    m_lastTradeAliases = m_crossVenue.aliases();
    const QHash<StreamId, QSet<QString>> &wanted = m_crossVenue.lastTradeWanted();
    // The engine's own streams only (a watched agent's are not; ids differ).
    for (auto it = wanted.cbegin(); it != wanted.cend(); ++it) {
        const auto told = m_lastTradesHandedOut.constFind(it.key());
        const bool same = told == m_lastTradesHandedOut.cend() ? it->isEmpty() : *told == *it;
        if ((same && !aliasesChanged) || !m_engine->contains(it.key()))
            continue;
        m_engine->setLastTradeInstruments(it.key(), *it, m_lastTradeAliases);
        m_lastTradesHandedOut.insert(it.key(), *it);
    }
    // A stream no longer running reads none.
    for (auto it = m_lastTradesHandedOut.begin(); it != m_lastTradesHandedOut.end();) {
        if (wanted.contains(it.key())) {
            ++it;
            continue;
        }
        if (!it->isEmpty() && m_engine->contains(it.key()))
            m_engine->setLastTradeInstruments(it.key(), {}, m_lastTradeAliases);
        it = m_lastTradesHandedOut.erase(it);
    }
}

AlertMonitor::Sample AlertService::evaluate(const StreamSnapshot &s, const Figures &figures, qint64 nowMs)
{
    const qint64 started = m_startedAtMs.value(s.id, figures.firstSeenMs > 0 ? figures.firstSeenMs : nowMs);
    m_startedAtMs.insert(s.id, started);
    if (!m_streams.contains(s.name))
        m_order << s.name;
    m_streams[s.name];
    AlertMonitor::Sample sample = alertSample(s, figures.msgsPerSec, figures.p99Ms, started, nowMs);
    m_crossVenue.fillSample(s.id, sample);
    m_monitor.evaluate(s.id, s.name, sample, nowMs);
    return sample;
}

void AlertService::streamStarted(StreamId id, qint64 nowMs)
{
    m_startedAtMs.insert(id, nowMs);
}

void AlertService::forget(StreamId id)
{
    m_monitor.forget(id);
    m_flight.forget(id);
    m_figures.remove(id);
    m_startedAtMs.remove(id);
    m_lastTradesHandedOut.remove(id);
}

void AlertService::onRaised(StreamId id, const QString &stream, const QString &text, int condition)
{
    StreamAlerts &a = m_streams[stream];
    ++a.raised;
    AlertEvent e;
    e.kind = AlertEvent::Kind::Raised;
    e.stream = stream;
    e.condition = AlertMonitor::conditionName(condition);
    e.text = text;
    e.timeMs = QDateTime::currentMSecsSinceEpoch();
    e.sinceMs = m_monitor.conditionSinceMs(id, condition);
    a.active.insert(condition, Active{e.condition, text, e.sinceMs});
    e.flightFile = m_flight.saveForAlert(id, m_steady.elapsed());
    emit message(QStringLiteral("alert: stream %1: raised: %2").arg(peerText(stream), peerText(text))
                 + (e.flightFile.isEmpty()
                        ? QString()
                        : QStringLiteral("; flight recorder saving to %1").arg(peerText(e.flightFile))));
    m_notifier->notify(e);
    emit alertRaised(id, condition, e);
}

void AlertService::onCleared(StreamId id, const QString &stream, const QString &text, int condition)
{
    m_streams[stream].active.remove(condition);
    AlertEvent e;
    e.kind = AlertEvent::Kind::Cleared;
    e.stream = stream;
    e.condition = AlertMonitor::conditionName(condition);
    e.text = text;
    e.timeMs = QDateTime::currentMSecsSinceEpoch();
    e.sinceMs = m_monitor.conditionSinceMs(id, condition);
    emit message(QStringLiteral("alert: stream %1: cleared: %2").arg(peerText(stream), peerText(text)));
    m_notifier->notify(e);
    emit alertCleared(id, condition, e);
}

void AlertService::addToReport(QJsonObject &report) const
{
    QJsonArray streams = report.value(QStringLiteral("streams")).toArray();
    quint64 raised = 0;
    QJsonArray allActive;
    for (qsizetype i = 0; i < streams.size(); ++i) {
        QJsonObject o = streams[i].toObject();
        const QString name = o.value(QStringLiteral("name")).toString();
        const auto it = m_streams.constFind(name);
        QJsonArray active;
        quint64 n = 0;
        if (it != m_streams.cend()) {
            n = it->raised;
            for (const Active &a : it->active) {
                const QJsonObject entry{
                    {QStringLiteral("condition"), a.condition},
                    {QStringLiteral("text"), a.text},
                    {QStringLiteral("since"), a.sinceMs > 0 ? QJsonValue(formatIsoUtcMs(a.sinceMs)) : QJsonValue()}};
                active.append(entry);
                QJsonObject withStream = entry;
                withStream.insert(QStringLiteral("stream"), name);
                allActive.append(withStream);
            }
        }
        raised += n;
        o.insert(QStringLiteral("alerts_raised"), qint64(n));
        o.insert(QStringLiteral("alerts_active"), active);
        streams[i] = o;
    }
    report.insert(QStringLiteral("streams"), streams);
    report.insert(QStringLiteral("alerts"),
                  QJsonObject{{QStringLiteral("raised"), qint64(raised)}, {QStringLiteral("active"), allActive}});
    QJsonArray notify;
    for (int i = 0; i < m_notifier->destinationCount(); ++i)
        notify.append(QJsonObject{{QStringLiteral("destination"), m_notifier->label(i)},
                                  {QStringLiteral("sent"), qint64(m_notifier->sent(i))},
                                  {QStringLiteral("failures"), qint64(m_notifier->failures(i))},
                                  {QStringLiteral("suppressed"), qint64(m_notifier->suppressed(i))}});
    report.insert(QStringLiteral("notify"), notify);
    report.insert(QStringLiteral("cross_venue"), m_crossVenue.toJson());
}

QByteArray AlertService::renderMetrics(bool classic) const
{
    QByteArray out;
    out += "# TYPE streamscope_alerts_active gauge\n"
           "# HELP streamscope_alerts_active Alert episodes open now (conditions of the stream's rule that hold).\n";
    for (const QString &name : m_order)
        out += "streamscope_alerts_active{stream=\"" + escapeLabel(name).toUtf8() + "\"} "
            + QByteArray::number(m_streams.value(name).active.size()) + '\n';
    out += classic
        ? "# TYPE streamscope_alerts_raised_total counter\n"
          "# HELP streamscope_alerts_raised_total Alert episodes raised.\n"
        : "# TYPE streamscope_alerts_raised counter\n# HELP streamscope_alerts_raised Alert episodes raised.\n";
    for (const QString &name : m_order)
        out += "streamscope_alerts_raised_total{stream=\"" + escapeLabel(name).toUtf8() + "\"} "
            + QByteArray::number(m_streams.value(name).raised) + '\n';
    out += m_notifier->renderMetrics(classic);
    out += m_crossVenue.renderMetrics();
    return out;
}

void AlertService::drain(int timeoutMs)
{
    if (m_notifier->pendingRequests() == 0)
        return;
    QEventLoop loop;
    QTimer deadline;
    deadline.setSingleShot(true);
    connect(&deadline, &QTimer::timeout, &loop, &QEventLoop::quit);
    QTimer poll;
    connect(&poll, &QTimer::timeout, &loop, [&] {
        if (m_notifier->pendingRequests() == 0)
            loop.quit();
    });
    deadline.start(timeoutMs);
    poll.start(20);
    loop.exec();
}

} // namespace streamscope::alerts
