// Not a test: a harness for looking at the UI and measuring it.
//   ui_harness main|dialog|rules|destinations|inspector|details|capture|book|crossvenue
//              [--dark] [--size=WxH] [--log]
//              [--agent=NAME=http://HOST:PORT ...]  (the window also shows those agents)
//              [--select=STREAM] [--corrected]      (selects a stream; View → Corrected latency)
//              [--filter=TEXT]                      (the stream filter, after 3 s)
//              [--capture=FILE ...]                 (File → Open capture…: FILE as an offline row, selected)
//              [--inspect=TEXT]                     (capture: the inspector's filter, ETHUSDT unless given)
//              [--open=TEXT]                        (after 2 s triggers the window's action named TEXT,
//                                                    "&" left out: "Flight recorder…" opens its dialog)
//              [--grab=FILE.png] [--grab-after=S]   (saves the window as it is drawn after S s, 20 by
//                                                    default, and leaves: a screenshot without xwd;
//                                                    a dialog open: the dialog alone)
//       `rules`: Streams → Alert rules… after 40 s of the demo (its preview has figures);
//       `destinations`: Streams → Alert destinations… with a webhook and a Slack destination
//       the main window on the built-in demo in a state worth a screenshot, for looking at
//       it under Xvfb (`import -window root`) and for docs/screenshots; `book` adds a Binance
//       depth stream of three instruments against a Binance-like venue on 127.0.0.1 (the books
//       tests' BookVenueServer: its depth diffs and REST snapshot, audited every 30 s), selects it
//       and shows its Order book pane (--details: and its Details; --select=STREAM
//       --instrument=NAME: another stream's book, such as the demo's Betfair ladder)
//   ui_harness load STREAMS RATE SECONDS [--no-window] [--replay-port=PORT]
//       STREAMS websocket streams at RATE msgs/s each from an in-process replay server, or
//       from `streamscope-replay --port PORT --loop` in another process (--replay-port: the
//       replay's CPU is then not this process's); prints the GUI thread's event-loop lag
//       (p50/p99/max of a 10 ms timer's lateness), the engine's throughput, and (Linux) the
//       CPU of the GUI thread and of every other thread of the process (the engine's workers,
//       Qt's helpers) apart, as % of one core over the measured seconds, and the cost of the
//       hub timer's ticks (SnapshotHub::tickNow), fast and slow

#include "../books/BookVenueServer.h"
#include "../books/SnapshotVenueServer.h"

#include "CaptureController.h"
#include "CrossVenuePane.h"
#include "DemoWorkspace.h"
#include "DepthLadder.h"
#include "Engine.h"
#include "InspectorModel.h"
#include "LatencyChart.h"
#include "MainWindow.h"
#include "MessageInspector.h"
#include "ReplayServerThread.h"
#include "SnapshotHub.h"
#include "StreamDialog.h"
#include "StreamTableModel.h"
#include "Theme.h"
#include "VenueCatalog.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>
#include <vector>

#ifdef Q_OS_LINUX
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#endif

#include <QtCore/QDir>
#include <QtCore/QElapsedTimer>
#include <QtCore/QFile>
#include <QtCore/QTimer>
#include <QtGui/QAction>
#include <QtGui/QPixmap>
#include <QtWidgets/QApplication>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDialog>
#include <QtWidgets/QDockWidget>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QListWidget>
#include <QtWidgets/QTableView>
#include <QtWidgets/QToolButton>

using namespace streamscope;

// CPU time (s) of each thread of this process by thread id, and its name (Linux: /proc).
struct ThreadCpu {
    QString name;
    double seconds = 0.0;
};
// CPU time (ms) of the calling thread; -1 where not known. Beside a tick's wall time, which a
// busy machine stretches, what the tick itself costs.
static double callingThreadCpuMs()
{
#ifdef Q_OS_LINUX
    timespec ts{};
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
        return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
#endif
    return -1.0;
}

static std::map<qint64, ThreadCpu> threadCpu()
{
    std::map<qint64, ThreadCpu> out;
#ifdef Q_OS_LINUX
    const double tick = double(sysconf(_SC_CLK_TCK));
    const QDir tasks(QStringLiteral("/proc/self/task"));
    for (const QString &tid : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile stat(tasks.filePath(tid + QStringLiteral("/stat")));
        QFile comm(tasks.filePath(tid + QStringLiteral("/comm")));
        if (!stat.open(QIODevice::ReadOnly) || !comm.open(QIODevice::ReadOnly))
            continue;
        const QByteArray line = stat.readAll();
        // After "(comm)": state is field 3; utime and stime are fields 14 and 15.
        const QList<QByteArray> f = line.mid(line.lastIndexOf(')') + 2).split(' ');
        if (f.size() < 13)
            continue;
        out[tid.toLongLong()] = {QString::fromUtf8(comm.readAll()).trimmed(),
                                 (f[11].toDouble() + f[12].toDouble()) / tick};
    }
#else
    // Elsewhere no per-thread figures: the load run prints none.
#endif
    return out;
}

static int runLoad(const QStringList &args)
{
    const int streams = args.value(2, QStringLiteral("200")).toInt();
    const double rate = args.value(3, QStringLiteral("1000")).toDouble();
    const int seconds = args.value(4, QStringLiteral("30")).toInt();
    const bool window = !args.contains(QStringLiteral("--no-window"));
    quint16 externalPort = 0;
    for (const QString &a : args)
        if (a.startsWith(QLatin1String("--replay-port=")))
            externalPort = quint16(a.mid(14).toUInt());
#ifdef Q_OS_LINUX
    const qint64 guiTid = qint64(syscall(SYS_gettid));
#else
    const qint64 guiTid = -1;
#endif

    replay::ReplayServerThread server;
    quint16 port = externalPort;
    if (!port) {
        replay::ReplayOptions options;
        options.loop = true;
        options.rate = rate;
        port = server.start(options);
        if (!port) {
            qCritical("replay server: %s", qPrintable(server.errorString()));
            return 1;
        }
    }
    Engine engine;
    Workspace ws;
    for (int i = 0; i < streams; ++i) {
        StreamConfig c;
        c.name = QStringLiteral("load-%1").arg(i);
        c.venue = Venue("binance");
        // The rate in the URL too: an external replay server has its own default.
        c.url = QUrl(QStringLiteral("ws://127.0.0.1:%1/stream?streams=s%2usdt@aggTrade&rate=%3&loop=1")
                         .arg(port)
                         .arg(i)
                         .arg(rate));
        ws.streams.append(c);
    }
    std::unique_ptr<ui::MainWindow> w;
    if (window) {
        w = std::make_unique<ui::MainWindow>(&engine);
        w->setWorkspace(ws, QString());
        w->resize(1600, 1000);
        w->show();
    } else {
        for (const StreamConfig &c : ws.streams)
            engine.addStream(c);
    }

    // Warm up 5 s, then measure.
    std::vector<qint64> lagsUs;
    QElapsedTimer clock;
    qint64 last = -1;
    quint64 startMessages = 0;
    qint64 startNs = 0;
    std::map<qint64, ThreadCpu> startCpu;
    QElapsedTimer cpuClock;
    QTimer probe;
    probe.setTimerType(Qt::PreciseTimer);
    probe.setInterval(10);
    QObject::connect(&probe, &QTimer::timeout, [&] {
        const qint64 now = clock.nsecsElapsed() / 1000;
        if (last >= 0 && startNs > 0)
            lagsUs.push_back(std::max<qint64>(0, now - last - 10'000));
        last = now;
    });
    const auto total = [&engine](qint64 *ns) {
        quint64 sum = 0;
        for (const StreamSnapshot &s : engine.snapshot()) {
            sum += s.messages;
            *ns = s.takenAtNs;
        }
        return sum;
    };
    clock.start();
    probe.start();
    QTimer::singleShot(5000, [&] {
        startMessages = total(&startNs);
        startCpu = threadCpu();
        cpuClock.start();
    });
    QTimer::singleShot((5 + seconds) * 1000, [&] {
        qint64 endNs = 0;
        const quint64 endMessages = total(&endNs);
        std::sort(lagsUs.begin(), lagsUs.end());
        const auto pct = [&lagsUs](double q) {
            return lagsUs.empty() ? 0.0 : double(lagsUs[size_t(q * double(lagsUs.size() - 1))]) / 1000.0;
        };
        const double rateOut = double(endMessages - startMessages) / (double(endNs - startNs) / 1e9);
        printf("streams=%d rate_each=%.0f window=%s replay=%s seconds=%d throughput_msgs_per_s=%.0f lag_ms p50=%.2f "
               "p99=%.2f max=%.2f\n",
               streams, rate, window ? "yes" : "no", externalPort ? "other-process" : "in-process", seconds, rateOut,
               pct(0.5), pct(0.99), pct(1.0));
        // CPU per thread over the measured seconds, % of one core: the GUI thread, then the
        // others grouped by name (the engine's workers, the in-process replay, Qt's helpers).
        const double wallS = double(cpuClock.nsecsElapsed()) / 1e9;
        double gui = 0.0;
        double others = 0.0;
        std::map<QString, std::pair<double, int>> byName;
        for (const auto &[tid, now] : threadCpu()) {
            const auto was = startCpu.find(tid);
            const double used = now.seconds - (was == startCpu.end() ? 0.0 : was->second.seconds);
            if (tid == guiTid) {
                gui = used;
                continue;
            }
            others += used;
            auto &group = byName[now.name];
            group.first += used;
            ++group.second;
        }
        printf("cpu_pct_of_one_core gui_thread=%.1f other_threads=%.1f", 100.0 * gui / wallS, 100.0 * others / wallS);
        for (const auto &[name, group] : byName)
            printf(" [%s x%d]=%.1f", qPrintable(name), group.second, 100.0 * group.first / wallS);
        printf("\n");
        // What one of the timer's ticks of the window costs now, each timed on its own over five
        // seconds' worth (the median of each kind, and the most any took): the fast one (9 a
        // second) and the slow one (once a second, also the charts, the cross-venue view and CPU).
        if (w) {
            ui::SnapshotHub *hub = w->hub();
            bool slow = false;
            const QMetaObject::Connection kind =
                QObject::connect(hub, &ui::SnapshotHub::ticked, [&slow](const ui::SnapshotHub::Tick &t) {
                    slow = t.kind == ui::SnapshotHub::TickKind::Slow;
                });
            std::vector<double> fastMs;
            std::vector<double> slowMs;
            std::vector<double> fastCpuMs;
            std::vector<double> slowCpuMs;
            // What a tick reads of the engine's streams: readings made whole, and rows whose
            // figures alone were refreshed in place.
            qint64 whole = 0;
            qint64 refreshed = 0;
            for (int i = 0; i < 5 * ui::SnapshotHub::kSlowEvery; ++i) {
                QElapsedTimer t;
                const double cpu = callingThreadCpuMs();
                t.start();
                hub->tickNow();
                whole += hub->lastRead() - hub->lastRefreshed();
                refreshed += hub->lastRefreshed();
                (slow ? slowMs : fastMs).push_back(double(t.nsecsElapsed()) / 1e6);
                (slow ? slowCpuMs : fastCpuMs).push_back(callingThreadCpuMs() - cpu);
            }
            QObject::disconnect(kind);
            // A slow poll out of turn does every stream's once-a-second work at once, as every
            // slow tick did before that work was spread over the ticks: the same figure for it.
            std::vector<double> allCpuMs;
            for (int i = 0; i < 5; ++i) {
                const double cpu = callingThreadCpuMs();
                hub->poll(ui::SnapshotHub::TickKind::Slow);
                allCpuMs.push_back(callingThreadCpuMs() - cpu);
            }
            std::sort(allCpuMs.begin(), allCpuMs.end());
            for (auto *v : {&fastMs, &slowMs, &fastCpuMs, &slowCpuMs})
                std::sort(v->begin(), v->end());
            printf("tick_ms fast=%.2f (max %.2f) slow=%.2f (max %.2f); cpu fast=%.2f (max %.2f) slow=%.2f (max %.2f) "
                   "all_at_once=%.2f\n",
                   fastMs[fastMs.size() / 2], fastMs.back(), slowMs[slowMs.size() / 2], slowMs.back(),
                   fastCpuMs[fastCpuMs.size() / 2], fastCpuMs.back(), slowCpuMs[slowCpuMs.size() / 2], slowCpuMs.back(),
                   allCpuMs[allCpuMs.size() / 2]);
            printf("engine_rows_a_tick whole=%.1f refreshed_in_place=%.1f\n",
                   double(whole) / (5.0 * ui::SnapshotHub::kSlowEvery),
                   double(refreshed) / (5.0 * ui::SnapshotHub::kSlowEvery));
        }
        fflush(stdout);
        QCoreApplication::quit();
    });
    return QCoreApplication::exec();
}

// The `book` scene's venue: three instruments with 60 levels a side on a fixed grid around their
// mid prices; every 50 ms one instrument changes a few levels near its top (a level now and then
// goes and comes back), so the ladder flashes. Bids stay below the mid and asks above it.
class BookScene {
public:
    bool start()
    {
        if (!m_venue.listen())
            return false;
        for (const Instrument &i : m_instruments) {
            m_venue.book(i.symbol).id = 4'000'000'000LL + i.tick;
            QList<QPair<QString, QString>> bids;
            QList<QPair<QString, QString>> asks;
            for (int k = 0; k < 60; ++k) {
                bids.append({price(i, -1 - k), qty(i)});
                asks.append({price(i, k), qty(i)});
            }
            m_venue.diff(i.symbol, bids, asks);
        }
        QObject::connect(&m_timer, &QTimer::timeout, [this] { step(); });
        m_timer.start(50);
        return true;
    }
    streamscope::StreamConfig stream() const
    {
        StreamConfig c;
        c.name = QStringLiteral("binance-books");
        c.venue = Venue("binance");
        QStringList symbols;
        for (const Instrument &i : m_instruments)
            symbols << i.symbol;
        c.url = m_venue.streamUrl(symbols);
        c.restUrl = m_venue.restUrl();
        c.bookAuditS = 30;
        return c;
    }

private:
    struct Instrument {
        QString symbol;
        qint64 midCents; // the mid price in hundredths
        int tick;        // the grid, in hundredths
        double size;     // a typical quantity
    };
    QString price(const Instrument &i, int step) const
    {
        // Asks from one tick above the mid up (step 0, 1, ...), bids from one tick below it down
        // (step -1, -2, ...).
        const qint64 cents = i.midCents + (step >= 0 ? step + 1 : step) * i.tick;
        return QStringLiteral("%1.%2000000").arg(cents / 100).arg(cents % 100, 2, 10, QLatin1Char('0'));
    }
    QString qty(const Instrument &i)
    {
        const double q = std::exponential_distribution<double>(1.0)(m_rng) * i.size + i.size / 50.0;
        return QString::number(q, 'f', 8);
    }
    void step()
    {
        const Instrument &i = m_instruments[m_next++ % m_instruments.size()];
        QList<QPair<QString, QString>> bids;
        QList<QPair<QString, QString>> asks;
        std::uniform_int_distribution<int> rank(0, 15);
        std::uniform_int_distribution<int> count(1, 3);
        for (int n = count(m_rng); n > 0; --n) {
            const int r = rank(m_rng);
            const bool gone = r > 2 && std::uniform_int_distribution<int>(0, 9)(m_rng) == 0;
            const QString q = gone ? QStringLiteral("0.00000000") : qty(i);
            if (std::uniform_int_distribution<int>(0, 1)(m_rng) == 0)
                bids.append({price(i, -1 - r), q});
            else
                asks.append({price(i, r), q});
        }
        m_venue.diff(i.symbol, bids, asks);
    }

    streamscope::testing::BookVenueServer m_venue;
    QVector<Instrument> m_instruments{{QStringLiteral("BTCUSDT"), 9'712'300, 10, 0.8},
                                      {QStringLiteral("ETHUSDT"), 361'500, 1, 12.0},
                                      {QStringLiteral("SOLUSDT"), 23'410, 1, 90.0}};
    std::mt19937_64 m_rng{20261202};
    QTimer m_timer;
    qsizetype m_next = 0;
};

// The `crossvenue` scene's other venues: the book scene's instruments on an OKX-like and a
// Bybit-like venue, their mids near the Binance-like venue's (which stay put), moving a little
// every second; the Bybit-like venue's BTC about 90 bps above. The OKX-like venue sends its
// trades too, and a second OKX-like venue only trades (no book), near the mids.
class CrossVenueScene {
public:
    bool start()
    {
        if (!m_okx.listen() || !m_bybit.listen() || !m_trades.listen())
            return false;
        step();
        QObject::connect(&m_timer, &QTimer::timeout, [this] { step(); });
        m_timer.start(1000);
        return true;
    }
    QVector<StreamConfig> streams() const
    {
        StreamConfig okx;
        okx.name = QStringLiteral("okx-books");
        okx.venue = Venue("okx");
        okx.url = m_okx.url();
        StreamConfig bybit;
        bybit.name = QStringLiteral("bybit-books");
        bybit.venue = Venue("bybit");
        bybit.url = m_bybit.url();
        StreamConfig trades;
        trades.name = QStringLiteral("okx-trades");
        trades.venue = Venue("okx");
        trades.url = m_trades.url();
        for (const Pair &p : kPairs) {
            okx.subscribe << QStringLiteral("books:%1-USDT").arg(QLatin1String(p.base));
            okx.subscribe << QStringLiteral("trades:%1-USDT").arg(QLatin1String(p.base));
            bybit.subscribe << QStringLiteral("orderbook.50:%1USDT").arg(QLatin1String(p.base));
            trades.subscribe << QStringLiteral("trades:%1-USDT").arg(QLatin1String(p.base));
        }
        return {okx, bybit, trades};
    }

private:
    struct Pair {
        const char *base;
        double mid;
        double tick;
    };
    static constexpr Pair kPairs[] = {{"BTC", 97123.0, 0.1}, {"ETH", 3615.0, 0.01}, {"SOL", 234.10, 0.01}};
    void step()
    {
        std::uniform_int_distribution<int> jitter(-3, 3);
        for (const Pair &p : kPairs) {
            const QString base = QLatin1String(p.base);
            m_okx.setMid(base + QStringLiteral("-USDT"), p.mid + jitter(m_rng) * p.tick, p.tick);
            const double away = base == QLatin1String("BTC") ? p.mid * 0.009 : 0.0;
            m_bybit.setMid(base + QStringLiteral("USDT"), p.mid + away + jitter(m_rng) * p.tick, p.tick);
            m_okx.setTradePrice(base + QStringLiteral("-USDT"), p.mid + jitter(m_rng) * p.tick, 250);
            m_trades.setTradePrice(base + QStringLiteral("-USDT"), p.mid + jitter(m_rng) * p.tick, 250);
        }
    }

    testing::SnapshotVenueServer m_okx{testing::SnapshotVenueServer::Shape::Okx};
    testing::SnapshotVenueServer m_bybit{testing::SnapshotVenueServer::Shape::Bybit};
    testing::SnapshotVenueServer m_trades{testing::SnapshotVenueServer::Shape::Okx};
    std::mt19937_64 m_rng{20261202};
    QTimer m_timer;
};

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    if (app.arguments().value(1) == QLatin1String("load"))
        return runLoad(app.arguments());
    QCoreApplication::setOrganizationName(QStringLiteral("StreamScopeScreenshots"));
    QCoreApplication::setApplicationName(QStringLiteral("StreamScope"));
    const QStringList args = app.arguments();
    const QString scene = args.value(1, QStringLiteral("main"));

    app::DemoWorkspace demo;
    QString error;
    if (!demo.start(&error)) {
        qCritical("%s", qPrintable(error));
        return 1;
    }
    Engine engine;
    ui::MainWindow window(&engine);
    BookScene books;
    CrossVenueScene venues;
    if (scene == QLatin1String("book")) {
        if (!books.start()) {
            qCritical("the book scene's venue could not listen on 127.0.0.1");
            return 1;
        }
        Workspace ws = demo.workspace();
        ws.streams.prepend(books.stream());
        window.setWorkspace(ws, QString());
    } else if (scene == QLatin1String("crossvenue")) {
        if (!books.start() || !venues.start()) {
            qCritical("the cross-venue scene's venues could not listen on 127.0.0.1");
            return 1;
        }
        Workspace ws;
        ws.streams = {books.stream()};
        ws.streams += venues.streams();
        window.setWorkspace(ws, QString());
    } else if (scene == QLatin1String("destinations")) {
        Workspace ws = demo.workspace();
        NotifyTarget webhook;
        webhook.type = NotifyTarget::Type::Webhook;
        webhook.url = QStringLiteral("http://127.0.0.1:9/alerts");
        webhook.headers = {{QStringLiteral("Authorization"), QStringLiteral("env:ALERT_HOOK_TOKEN")}};
        NotifyTarget slack;
        slack.type = NotifyTarget::Type::Slack;
        slack.url = QStringLiteral("env:SLACK_WEBHOOK_URL");
        ws.notify = {webhook, slack};
        window.setWorkspace(ws, QString());
    } else {
        window.setWorkspace(demo.workspace(), QString());
    }
    if (args.contains(QStringLiteral("--dark")))
        ui::Theme::apply(ui::Theme::Mode::Dark);
    window.move(0, 0);
    QSize size(1600, 1000);
    for (const QString &a : args) {
        if (a.startsWith(QLatin1String("--size="))) {
            const QStringList wh = a.mid(7).split(QLatin1Char('x'));
            size = QSize(wh.value(0).toInt(), wh.value(1).toInt());
        }
    }
    window.resize(size);
    window.show();
    for (const QString &a : args) {
        if (a.startsWith(QLatin1String("--agent="))) {
            const QString spec = a.mid(8);
            const qsizetype eq = spec.indexOf(QLatin1Char('='));
            window.connectAgent(spec.left(eq), QUrl(spec.mid(eq + 1)));
        }
    }
    if (args.contains(QStringLiteral("--corrected")))
        window.findChild<QAction *>(QStringLiteral("correctedLatency"))->setChecked(true);
    for (const QString &a : args) {
        if (a.startsWith(QLatin1String("--select="))) {
            const QString name = a.mid(9);
            QTimer::singleShot(1500, &window, [&window, name] {
                for (const ui::StreamTableModel::Row &r : window.streamModel()->rows())
                    if (r.snap.name == name)
                        window.selectStream(r.snap.id);
            });
        }
    }
    for (const QString &a : args) {
        if (a.startsWith(QLatin1String("--filter="))) {
            const QString text = a.mid(9);
            QTimer::singleShot(3000, &window, [&window, text] {
                window.findChild<QLineEdit *>(QStringLiteral("streamFilter"))->setText(text);
            });
        }
    }
    if (args.contains(QStringLiteral("--log")))
        window.latencyChart()->setLogScale(true);
    for (const QString &a : args) {
        if (a.startsWith(QLatin1String("--capture="))) {
            const QString path = a.mid(10);
            QTimer::singleShot(2000, &window, [&window, path] {
                window.capture()->setFileChooser([path] { return path; });
                window.capture()->openAction()->trigger();
            });
        }
    }

    for (const QString &a : args) {
        if (a.startsWith(QLatin1String("--open="))) {
            const QString text = a.mid(7);
            QTimer::singleShot(2000, &window, [&window, text] {
                for (QAction *action : window.findChildren<QAction *>()) {
                    if (QString(action->text()).remove(QLatin1Char('&')) == text) {
                        action->trigger();
                        return;
                    }
                }
                qCritical("no action named %s", qPrintable(text));
            });
        }
    }
    for (const QString &a : args) {
        if (a.startsWith(QLatin1String("--grab="))) {
            const QString path = a.mid(7);
            int afterS = 20;
            for (const QString &b : args)
                if (b.startsWith(QLatin1String("--grab-after=")))
                    afterS = b.mid(13).toInt();
            QTimer::singleShot(afterS * 1000, &window, [&window, path] {
                // An open dialog is grabbed alone, as the guide shows it.
                QWidget *shown = &window;
                for (QWidget *top : QApplication::topLevelWidgets())
                    if (qobject_cast<QDialog *>(top) && top->isVisible())
                        shown = top;
                if (!shown->grab().save(path))
                    qCritical("could not save %s", qPrintable(path));
                // exit(), not quit(): quit() closes the window first, and a workspace the scene
                // modified (agents, View → Corrected latency) asks whether to save it.
                QCoreApplication::exit(0);
            });
        }
    }

    if (scene == QLatin1String("dialog")) {
        // --venue okx: that venue's page with two instruments on two channels.
        const QString venue = args.value(args.indexOf(QStringLiteral("--venue")) + 1);
        const bool onVenue = args.contains(QStringLiteral("--venue"));
        QTimer::singleShot(1500, &window, [&window, venue, onVenue] {
            auto *d = new ui::StreamDialog({}, &window);
            d->setAttribute(Qt::WA_DeleteOnClose);
            if (onVenue) {
                d->setVenue(venueFromName(venue));
                const VenuePresets presets = VenueCatalog::presets(venueFromName(venue));
                d->findChild<QLineEdit *>(QStringLiteral("venueInstruments"))
                    ->setText(presets.exampleInstruments.mid(0, 2).join(QStringLiteral(", ")));
                auto *channels = d->findChild<QListWidget *>(QStringLiteral("venueChannels"));
                for (int i = 0; i < std::min(2, channels->count()); ++i)
                    channels->item(i)->setCheckState(Qt::Checked);
            } else {
                d->setPreset(ui::StreamDialog::Preset::BinanceSpot);
                d->findChild<QLineEdit *>(QStringLiteral("symbols"))
                    ->setText(QStringLiteral("BTCUSDT, ETHUSDT, SOLUSDT"));
                d->findChild<QCheckBox *>(QStringLiteral("kline"))->setChecked(true);
                d->findChild<QCheckBox *>(QStringLiteral("depth"))->setChecked(true);
                d->findChild<QComboBox *>(QStringLiteral("depthSpeed"))->setCurrentText(QStringLiteral("100ms"));
                d->findChild<QCheckBox *>(QStringLiteral("bookTicker"))->setChecked(true);
            }
            d->show();
            d->move(window.geometry().center() - d->rect().center());
        });
    } else if (scene == QLatin1String("rules") || scene == QLatin1String("destinations")) {
        // Modal: the grab's timer still runs in the dialog's event loop.
        const char *action = scene == QLatin1String("rules") ? "alertRules" : "alertDestinations";
        QTimer::singleShot(scene == QLatin1String("rules") ? 40000 : 1500, &window,
                           [&window, action] { window.findChild<QAction *>(QLatin1String(action))->trigger(); });
    } else if (scene == QLatin1String("inspector")) {
        QTimer::singleShot(6000, &window, [&window] {
            window.inspector()->filterEdit()->setText(QStringLiteral("\"m\":false"));
            QTimer::singleShot(1500, &window, [&window] {
                for (QToolButton *b : window.inspector()->findChildren<QToolButton *>()) {
                    if (b->text() == QLatin1String("Freeze"))
                        b->click();
                }
                QTableView *view = window.inspector()->view();
                view->selectRow(std::max(0, window.inspector()->model()->rowCount() - 3));
                view->setFocus();
            });
        });
        QTimer::singleShot(1000, &window, [&window] {
            auto *dock = window.findChild<QDockWidget *>(QStringLiteral("inspectorDock"));
            dock->raise();
            window.resizeDocks({dock}, {420}, Qt::Vertical);
        });
    } else if (scene == QLatin1String("capture")) {
        // With --capture=FILE: its messages in the inspector, filtered (--inspect=TEXT, ETHUSDT
        // unless given).
        QString filter = QStringLiteral("ETHUSDT");
        for (const QString &a : args)
            if (a.startsWith(QLatin1String("--inspect=")))
                filter = a.mid(10);
        QTimer::singleShot(5000, &window, [&window, filter] {
            auto *dock = window.findChild<QDockWidget *>(QStringLiteral("inspectorDock"));
            dock->raise();
            window.resizeDocks({dock}, {420}, Qt::Vertical);
            window.inspector()->filterEdit()->setText(filter);
            QTableView *view = window.inspector()->view();
            view->selectRow(std::max(0, window.inspector()->model()->rowCount() - 3));
        });
    } else if (scene == QLatin1String("book")) {
        // --select=STREAM --instrument=NAME: another stream's book (the demo's betfair-markets,
        // 1.2345/47972).
        QString stream = QStringLiteral("binance-books");
        QString instrument = QStringLiteral("BTCUSDT");
        for (const QString &a : args) {
            if (a.startsWith(QLatin1String("--select=")))
                stream = a.mid(9);
            if (a.startsWith(QLatin1String("--instrument=")))
                instrument = a.mid(13);
        }
        QTimer::singleShot(1500, &window, [&window, stream] {
            for (const ui::StreamTableModel::Row &r : window.streamModel()->rows())
                if (r.snap.name == stream)
                    window.selectStream(r.snap.id);
            window.bookDock()->show();
            window.bookDock()->raise();
            window.resizeDocks({window.bookDock()}, {560}, Qt::Horizontal);
        });
        QTimer::singleShot(3000, &window, [&window, instrument] { window.ladder()->setInstrument(instrument); });
        // --details: the Details tab too, with the books' line and the audits' figures.
        if (args.contains(QStringLiteral("--details")))
            QTimer::singleShot(3000, &window, [&window] {
                window.detailsDock()->raise();
                window.resizeDocks({window.detailsDock()}, {420}, Qt::Vertical);
            });
    } else if (scene == QLatin1String("crossvenue")) {
        QTimer::singleShot(1000, &window, [&window] {
            window.crossVenueDock()->show();
            window.crossVenueDock()->raise();
            window.resizeDocks({window.crossVenueDock()}, {window.width() * 72 / 100}, Qt::Horizontal);
        });
    } else if (scene == QLatin1String("details")) {
        QTimer::singleShot(1000, &window, [&window] {
            window.streamTable()->selectRow(1);
            window.detailsDock()->raise();
            window.resizeDocks({window.detailsDock()}, {420}, Qt::Vertical);
        });
    } else {
        // After a minute the demo has shown a reconnect, a stall and an alert: show the log.
        QTimer::singleShot(1000, &window,
                           [&window] { window.findChild<QDockWidget *>(QStringLiteral("eventsDock"))->raise(); });
    }
    return app.exec();
}
