#include "StreamDetails.h"

#include "EventLogModel.h"
#include "Format.h"
#include "InstrumentList.h"
#include "Report.h"
#include "Sparkline.h"
#include "StreamHistory.h"
#include "WidgetHelpers.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QRegularExpression>
#include <QtCore/QSet>
#include <QtCore/QSortFilterProxyModel>
#include <QtCore/QTimer>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QScrollBar>
#include <QtWidgets/QSplitter>
#include <QtWidgets/QStackedWidget>
#include <QtWidgets/QTableView>
#include <QtWidgets/QTreeWidget>
#include <QtWidgets/QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <functional>

namespace streamscope::ui {

namespace {
// The report's contract fields first, in the order of docs/report.md; the others follow by name.
const QStringList kFirstKeys = {QStringLiteral("state"),         QStringLiteral("state_reason"),
                                QStringLiteral("url"),           QStringLiteral("venue"),
                                QStringLiteral("mode"),          QStringLiteral("messages"),
                                QStringLiteral("data_messages"), QStringLiteral("bytes"),
                                QStringLiteral("results"),       QStringLiteral("errors"),
                                QStringLiteral("parse_errors"),  QStringLiteral("gaps"),
                                QStringLiteral("reconnects"),    QStringLiteral("rate_msgs_per_s"),
                                QStringLiteral("latency_ms"),    QStringLiteral("connections")};
const QStringList kLatencyKeys = {QStringLiteral("count"), QStringLiteral("p50"),      QStringLiteral("p90"),
                                  QStringLiteral("p99"),   QStringLiteral("p999"),     QStringLiteral("max"),
                                  QStringLiteral("mean"),  QStringLiteral("negative"), QStringLiteral("invalid")};

QStringList orderedKeys(const QJsonObject &o, const QStringList &first)
{
    QStringList keys;
    for (const QString &k : first) {
        if (o.contains(k))
            keys.append(k);
    }
    const QStringList all = o.keys(); // sorted by name
    for (const QString &k : all) {
        if (!first.contains(k))
            keys.append(k);
    }
    return keys;
}

QString scalarText(const QJsonValue &v, const QString &key)
{
    // A share (the audit's match ratio) reads as a percentage; none yet is null.
    if (v.isDouble() && key.endsWith(QLatin1String("_ratio")))
        return QStringLiteral("%1 %").arg(v.toDouble() * 100.0, 0, 'f', 1);
    switch (v.type()) {
    case QJsonValue::Bool: return v.toBool() ? QObject::tr("yes") : QObject::tr("no");
    case QJsonValue::Double: {
        const double d = v.toDouble();
        if (d == std::floor(d) && std::fabs(d) < 9e15)
            return d < 0 ? QString::number(qint64(d)) : formatCount(quint64(d));
        return QString::number(d, 'f', 3);
    }
    case QJsonValue::String: return v.toString();
    case QJsonValue::Null: return QObject::tr("none");
    default: return QString();
    }
}
} // namespace

StreamDetails::StreamDetails(EventLogModel *events, QAbstractItemModel *activeAlerts, QWidget *parent)
    : QWidget(parent)
{
    m_title = new QLabel;
    m_title->setTextFormat(Qt::PlainText);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_state = new QLabel;
    m_state->setTextFormat(Qt::PlainText);
    m_state->setWordWrap(true);
    m_state->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_books = new QLabel;
    m_books->setObjectName(QStringLiteral("detailBooks"));
    m_books->setTextFormat(Qt::PlainText);
    m_books->setWordWrap(true);
    m_books->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_books->setToolTip(tr("The stream's local order books: their states, and what the last REST audits found "
                           "(the report's \"books\" below, one entry per instrument)"));
    m_books->hide();

    m_rate = new Sparkline(tr("msgs/s"), [](double v) { return formatRate(v); });
    m_rate->setObjectName(QStringLiteral("rateSparkline"));
    m_latency = new Sparkline(tr("p99"), [](double v) { return formatLatencyMs(v); });
    m_latency->setObjectName(QStringLiteral("latencySparkline"));
    m_latency->setColor(QColor(0xe3, 0x8b, 0x06));

    m_alerts = new QSortFilterProxyModel(this);
    m_alerts->setSourceModel(activeAlerts);
    m_alerts->setFilterKeyColumn(1);
    auto *alertView = makeLogView(m_alerts);
    alertView->setObjectName(QStringLiteral("detailAlerts"));
    alertView->hideColumn(1); // the stream: this one
    auto *alertTitle = new QLabel(tr("Active alerts"));
    m_instruments = new InstrumentList;

    auto *left = new QWidget;
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_title);
    leftLayout->addWidget(m_state);
    leftLayout->addWidget(m_books);
    leftLayout->addWidget(m_rate, 1);
    leftLayout->addWidget(m_latency, 1);
    leftLayout->addWidget(m_instruments, 2);
    leftLayout->addWidget(alertTitle);
    leftLayout->addWidget(alertView, 1);

    m_counters = new QTreeWidget;
    m_counters->setObjectName(QStringLiteral("detailCounters"));
    m_counters->setColumnCount(2);
    m_counters->setHeaderLabels({tr("Report field"), tr("Value")});
    m_counters->setAlternatingRowColors(true);
    m_counters->setUniformRowHeights(true);
    m_counters->header()->setStretchLastSection(true);
    // "rate_msgs_per_s" just fits: the values get the rest.
    m_counters->setColumnWidth(0,
                               m_counters->fontMetrics().horizontalAdvance(QStringLiteral("rate_msgs_per_s"))
                                   + m_counters->indentation() + 12);
    m_counters->setToolTip(tr("Every figure of the headless report for this stream, under the report's names"));

    m_events = new EventLogFilter(this);
    m_events->setSourceModel(events);
    m_eventView = makeLogView(m_events);
    m_eventView->setObjectName(QStringLiteral("detailEvents"));
    m_eventView->hideColumn(EventLogModel::ColStream);
    // The time and the widest event ("disconnected", "reconnecting") just fit: the rest of the
    // width is the Details column's.
    const QFontMetrics fm = m_eventView->fontMetrics();
    const int pad = fm.horizontalAdvance(QLatin1Char('0'));
    m_eventView->setColumnWidth(EventLogModel::ColTime, fm.horizontalAdvance(QStringLiteral("00:00:00.000")) + pad);
    m_eventView->setColumnWidth(
        EventLogModel::ColKind,
        std::max(fm.horizontalAdvance(tr("disconnected")), fm.horizontalAdvance(tr("reconnecting"))) + pad);
    // Its newest events in view, unless the user scrolled up to read older ones.
    connect(m_events, &QAbstractItemModel::rowsInserted, this, [this] {
        QScrollBar *bar = m_eventView->verticalScrollBar();
        if (bar->value() >= bar->maximum() - 30)
            QTimer::singleShot(0, m_eventView, &QTableView::scrollToBottom);
    });

    auto *split = new QSplitter(Qt::Horizontal);
    split->setObjectName(QStringLiteral("detailsSplitter"));
    split->addWidget(left);
    split->addWidget(m_counters);
    split->addWidget(m_eventView);
    // Shares of the width (resizeEvent), the events' texts the widest.
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setStretchFactor(2, 2);
    m_split = split;
    connect(split, &QSplitter::splitterMoved, this, [this] { m_splitMoved = true; });
    split->setChildrenCollapsible(false);

    auto *empty = new QLabel(tr("Select a stream in the table to see its details."));
    empty->setAlignment(Qt::AlignCenter);
    m_pages = new QStackedWidget;
    m_pages->addWidget(empty);
    m_pages->addWidget(split);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_pages);

    setStream(kInvalidStreamId, QString());
}

void StreamDetails::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    // Until the user moves a handle, the width is shared: the sparklines' column and the
    // report's fields under a third each, the events the rest (the splitter alone gave the
    // sparklines' column the most and the events' Details column a tenth). Once the splitter
    // has its new width.
    if (m_splitMoved || m_sharePending)
        return;
    m_sharePending = true;
    QTimer::singleShot(0, m_split, [this] {
        m_sharePending = false;
        if (m_splitMoved)
            return;
        const int width = m_split->width() - 2 * m_split->handleWidth();
        m_split->setSizes({width * 28 / 100, width * 30 / 100, width - width * 58 / 100});
    });
}

QAbstractItemModel *StreamDetails::alerts() const
{
    return m_alerts;
}

QAbstractItemModel *StreamDetails::events() const
{
    return m_events;
}

void StreamDetails::setStream(StreamId id, const QString &name)
{
    const bool same = id == m_stream;
    m_stream = id;
    m_name = name;
    m_pages->setCurrentIndex(id == kInvalidStreamId ? 0 : 1);
    m_title->setText(name);
    // Another stream's rows must not linger under this one's name.
    m_alerts->setFilterRegularExpression(
        QRegularExpression(QStringLiteral("^%1$").arg(QRegularExpression::escape(name))));
    m_events->setStream(id == kInvalidStreamId ? QStringLiteral("\x01") : name);
    if (same)
        return;
    m_counters->clear();
    m_items.clear();
    m_state->clear();
    m_books->clear();
    m_books->hide();
    m_rate->setPoints({});
    m_latency->setPoints({});
    m_instruments->clear();
    QTimer::singleShot(0, m_eventView, &QTableView::scrollToBottom);
}

void StreamDetails::refresh(const StreamSnapshot &snap, double durationS, const StreamHistory &history)
{
    if (snap.id != m_stream || m_stream == kInvalidStreamId)
        return;
    QString state = stateName(snap.state);
    if (!snap.stateReason.isEmpty())
        state += QStringLiteral(": ") + snap.stateReason;
    m_state->setText(state);
    const QString books = booksSummary(snap.books);
    m_books->setText(books);
    m_books->setVisible(!books.isEmpty());

    history.streamPoints(m_stream, m_buffer);
    m_rate->setPoints(m_buffer);
    history.latencyPoints(m_stream, m_buffer);
    m_latency->setPoints(m_buffer);
    m_instruments->setInstruments(snap.instruments, snap.instrumentsUntracked);

    const QJsonArray streams = app::buildReport({snap}, durationS).value(QStringLiteral("streams")).toArray();
    const QJsonObject report = streams.isEmpty() ? QJsonObject() : streams.first().toObject();
    QSet<QString> seen;
    for (const QString &key : orderedKeys(report, kFirstKeys)) {
        if (key != QLatin1String("name"))
            setValue(key, key, report.value(key), nullptr, seen);
    }
    // Rows of fields the report no longer has (a connection that closed) go, with their
    // children (whose paths were not seen either).
    QList<QTreeWidgetItem *> stale;
    for (auto it = m_items.begin(); it != m_items.end();) {
        if (seen.contains(it.key())) {
            ++it;
        } else {
            stale.append(it.value());
            it = m_items.erase(it);
        }
    }
    // The outermost ones only (deleting an item deletes its children), chosen before any goes.
    QList<QTreeWidgetItem *> outermost;
    for (QTreeWidgetItem *item : std::as_const(stale)) {
        if (!item->parent() || !stale.contains(item->parent()))
            outermost.append(item);
    }
    qDeleteAll(outermost);
}

QString StreamDetails::booksText() const
{
    return m_books->text();
}

QString StreamDetails::booksSummary(const QVector<BookStatus> &books)
{
    if (books.isEmpty())
        return {};
    constexpr BookState kStates[] = {BookState::Synced, BookState::Syncing, BookState::Resyncing, BookState::Desynced,
                                     BookState::Crossed};
    QStringList states;
    for (BookState st : kStates) {
        const auto n = std::count_if(books.begin(), books.end(), [st](const BookStatus &b) { return b.state == st; });
        if (n > 0)
            states << (st == BookState::Synced && n < books.size()
                           ? tr("synced %1 of %2").arg(n).arg(books.size())
                           : QStringLiteral("%1 %2").arg(QLatin1String(bookStateName(st))).arg(n));
    }
    QString text = tr("Order books: %1").arg(states.join(QStringLiteral(", ")));
    // The audits (book_audit_s): the last match and the lowest seen over the books audited.
    double last = 2.0;
    double lowest = 2.0;
    qint64 stale = 0;
    quint64 audits = 0;
    quint64 mismatches = 0;
    quint64 resyncs = 0;
    quint64 crossed = 0;
    for (const BookStatus &b : books) {
        if (b.lastAuditMatchRatio >= 0.0)
            last = std::min(last, b.lastAuditMatchRatio);
        if (b.minAuditMatchRatio >= 0.0)
            lowest = std::min(lowest, b.minAuditMatchRatio);
        stale += std::max<qint64>(0, b.staleLevels);
        audits += b.audits;
        mismatches += b.auditMismatches;
        resyncs += b.resyncs;
        crossed += b.crossedEpisodes;
    }
    if (audits > 0 && last <= 1.0)
        text += tr(" · last audit %1 % of the top levels match (lowest %2 %), %3; %4 of %5 audits found a "
                   "difference")
                    .arg(last * 100.0, 0, 'f', 1)
                    .arg(lowest * 100.0, 0, 'f', 1)
                    .arg(countNoun(quint64(stale), tr("stale level"), tr("stale levels")))
                    .arg(mismatches)
                    .arg(audits);
    else
        text += tr(" · no audit yet");
    if (resyncs > 0 || crossed > 0)
        text += tr(" · %1, %2")
                    .arg(countNoun(resyncs, tr("resync"), tr("resyncs")),
                         countNoun(crossed, tr("crossed episode"), tr("crossed episodes")));
    return text;
}

QString StreamDetails::valueAt(const QString &path) const
{
    const QTreeWidgetItem *item = m_items.value(path);
    return item ? item->text(1) : QString();
}

QList<QPair<QString, QString>> StreamDetails::fields() const
{
    QHash<const QTreeWidgetItem *, QString> paths;
    for (auto it = m_items.cbegin(); it != m_items.cend(); ++it)
        paths.insert(it.value(), it.key());
    QList<QPair<QString, QString>> out;
    const std::function<void(const QTreeWidgetItem *)> walk = [&](const QTreeWidgetItem *item) {
        if (item->childCount() == 0) // a leaf, or an empty list ("none")
            out.append({paths.value(item), item->data(1, Qt::UserRole).toString()});
        for (int i = 0; i < item->childCount(); ++i)
            walk(item->child(i));
    };
    for (int i = 0; i < m_counters->topLevelItemCount(); ++i)
        walk(m_counters->topLevelItem(i));
    return out;
}

void StreamDetails::setValue(const QString &path, const QString &key, const QJsonValue &value, QTreeWidgetItem *parent,
                             QSet<QString> &seen)
{
    seen.insert(path);
    QTreeWidgetItem *item = m_items.value(path);
    if (!item) {
        item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(m_counters);
        item->setText(0, key);
        item->setToolTip(0, plainToolTip(path));
        m_items.insert(path, item);
        // Latency is what users look for first: open it once, then leave it as they set it.
        if (path == QLatin1String("latency_ms") || path == QLatin1String("connections")
            || path == QLatin1String("books"))
            item->setExpanded(true);
    }
    QString text;
    if (value.isObject()) {
        const QJsonObject o = value.toObject();
        text = QString();
        for (const QString &k : orderedKeys(o, kLatencyKeys))
            setValue(path + QLatin1Char('/') + k, k, o.value(k), item, seen);
    } else if (value.isArray()) {
        const QJsonArray a = value.toArray();
        text = a.isEmpty() ? tr("none") : countNoun(quint64(a.size()), tr("entry"), tr("entries"));
        for (int i = 0; i < a.size(); ++i) {
            const QString n = QString::number(i + 1);
            // A book's or an instrument's entry is named by its instrument.
            const QString instrument = a.at(i).toObject().value(QStringLiteral("instrument")).toString();
            setValue(path + QLatin1Char('/') + n,
                     instrument.isEmpty() ? QStringLiteral("#") + n : QStringLiteral("#%1 %2").arg(n, instrument),
                     a.at(i), item, seen);
        }
    } else {
        text = scalarText(value, key);
    }
    if (item->text(1) != text)
        item->setText(1, text);
    // For "Export statistics as CSV…": the report's value itself (a number with a dot, no unit
    // or grouping; null and empty lists empty).
    const QString plain = value.isDouble() ? QString::number(value.toDouble(), 'g', 15)
        : value.isBool()                   ? QString::fromLatin1(value.toBool() ? "true" : "false")
        : value.isString()                 ? value.toString()
                                           : QString();
    item->setData(1, Qt::UserRole, plain);
}

} // namespace streamscope::ui
