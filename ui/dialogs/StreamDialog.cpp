#include "StreamDialog.h"

#include "BetfairPage.h"
#include "BinancePage.h"
#include "GenericPage.h"
#include "VenueCatalog.h"
#include "VenuePage.h"

#include <QtCore/QStringListModel>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QCompleter>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QDoubleSpinBox>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QGroupBox>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QSpinBox>
#include <QtWidgets/QStackedWidget>
#include <QtWidgets/QVBoxLayout>

namespace streamscope::ui {

namespace {
constexpr int kBinancePage = 0;
constexpr int kBetfairPage = 1;
constexpr int kGenericPage = 2;
constexpr int kVenuePage = 3;
// A preset entry's venue (Preset::ChannelVenue).
constexpr int kVenueRole = Qt::UserRole + 1;
constexpr int kMaxNameLength = 64;
} // namespace

StreamDialog::StreamDialog(const QStringList &existingNames, QWidget *parent)
    : QDialog(parent)
    , m_existingNames(existingNames)
{
    setWindowTitle(tr("Add stream"));
    setObjectName(QStringLiteral("streamDialog"));

    m_name = new QLineEdit;
    m_name->setObjectName(QStringLiteral("name"));
    m_name->setToolTip(tr("A unique name for this stream; left empty, the suggestion shown is used"));
    m_preset = new QComboBox;
    m_preset->setObjectName(QStringLiteral("preset"));
    m_preset->addItem(tr("Binance spot"), int(Preset::BinanceSpot));
    m_preset->addItem(tr("Binance USD-M futures"), int(Preset::BinanceFutures));
    m_preset->addItem(tr("Betfair exchange stream"), int(Preset::Betfair));
    for (const Venue &venue : VenuePage::venues()) {
        m_preset->addItem(VenueCatalog::title(venue), int(Preset::ChannelVenue));
        m_preset->setItemData(m_preset->count() - 1, venueName(venue), kVenueRole);
    }
    m_preset->addItem(tr("Generic ws / wss / tcp / tls"), int(Preset::Generic));
    m_preset->addItem(tr("Binance protocol, own URL"), int(Preset::BinanceOwnUrl));
    m_preset->setItemData(m_preset->count() - 1,
                          tr("Binance's messages and SUBSCRIBE on a URL of your own (a replay server, a testnet); "
                             "the SUBSCRIBE list of a stream being edited is kept"),
                          Qt::ToolTipRole);

    auto *top = new QFormLayout;
    top->addRow(tr("&Preset:"), m_preset);
    top->addRow(tr("&Name:"), m_name);
    top->addRow(tr("F&ind:"), buildFind());

    m_binance = new BinancePage;
    m_betfair = new BetfairPage;
    m_generic = new GenericPage;
    m_venue = new VenuePage;
    m_pages = new QStackedWidget;
    m_pages->addWidget(m_binance);
    m_pages->addWidget(m_betfair);
    m_pages->addWidget(m_generic);
    m_pages->addWidget(m_venue);
    connect(m_binance, &BinancePage::changed, this, &StreamDialog::onPageChanged);
    connect(m_generic, &GenericPage::changed, this, &StreamDialog::onPageChanged);
    connect(m_venue, &VenuePage::changed, this, &StreamDialog::onPageChanged);

    m_error = new QLabel;
    m_error->setObjectName(QStringLiteral("error"));
    m_error->setTextFormat(Qt::PlainText);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("QLabel { color: #d73a49; font-weight: bold; }"));
    m_error->hide();

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Add stream"));
    buttons->button(QDialogButtonBox::Ok)->setObjectName(QStringLiteral("ok"));
    connect(buttons, &QDialogButtonBox::accepted, this, &StreamDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &StreamDialog::reject);

    auto *columns = new QHBoxLayout;
    columns->addWidget(m_pages, 3);
    columns->addWidget(buildOptions(), 2);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addLayout(columns, 1);
    layout->addWidget(m_error);
    layout->addWidget(buttons);

    connect(m_preset, &QComboBox::currentIndexChanged, this, &StreamDialog::onPresetChanged);
    onPresetChanged();
    resize(sizeHint().expandedTo(QSize(860, 520)));
}

QWidget *StreamDialog::buildOptions()
{
    auto *box = new QWidget;
    auto *options = new QGroupBox(tr("Connection"));
    m_mode = new QComboBox;
    m_mode->setObjectName(QStringLiteral("mode"));
    m_mode->addItem(tr("Parsed (latency, gaps)"), int(DecodeMode::Parsed));
    m_mode->addItem(tr("Raw (count only)"), int(DecodeMode::Raw));
    m_mode->setToolTip(tr("Raw skips JSON decoding: fastest, but no latency or gap checks"));
    m_transport = new QComboBox;
    m_transport->setObjectName(QStringLiteral("transport"));
    m_transport->addItem(tr("StreamScope's own"), int(WebSocketClient::Native));
    m_transport->addItem(tr("Qt WebSockets"), int(WebSocketClient::Qt));
    m_transport->setToolTip(tr("The websocket client of a ws/wss stream: StreamScope's own framing (the default), "
                               "which reads messages straight into the decoder's buffer (less CPU a message), "
                               "or Qt's"));
    m_stallS = new QSpinBox;
    m_stallS->setObjectName(QStringLiteral("stallTimeout"));
    m_stallS->setRange(1, 3600);
    m_stallS->setValue(30);
    m_stallS->setSuffix(QStringLiteral(" s"));
    m_stallS->setToolTip(tr("No data message for this long marks the stream stalled"));
    m_reconnectOnStall = new QCheckBox(tr("Reconnect when stalled"));
    auto *of = new QFormLayout(options);
    of->addRow(tr("&Decode:"), m_mode);
    of->addRow(tr("&Websocket client:"), m_transport);
    of->addRow(tr("S&tall after:"), m_stallS);
    of->addRow(QString(), m_reconnectOnStall);

    auto *alerts = new QGroupBox(tr("Alerts"));
    m_alertRate = new QDoubleSpinBox;
    m_alertRate->setObjectName(QStringLiteral("alertRate"));
    m_alertRate->setRange(0, 1e7);
    m_alertRate->setDecimals(1);
    m_alertRate->setSuffix(tr(" msgs/s"));
    m_alertRate->setToolTip(tr("Alert while the rate stays below this"));
    m_alertP99 = new QDoubleSpinBox;
    m_alertP99->setObjectName(QStringLiteral("alertP99"));
    m_alertP99->setRange(0, 600000);
    m_alertP99->setDecimals(1);
    m_alertP99->setSuffix(QStringLiteral(" ms"));
    m_alertP99->setToolTip(tr("Alert while latency p99 is above this"));
    m_alertSilent = new QSpinBox;
    m_alertSilent->setObjectName(QStringLiteral("alertSilent"));
    m_alertSilent->setRange(0, 86400);
    m_alertSilent->setSuffix(QStringLiteral(" s"));
    m_alertSilent->setToolTip(tr("Alert when no data message arrived for this long"));
    for (QAbstractSpinBox *spin : std::initializer_list<QAbstractSpinBox *>{m_alertRate, m_alertP99, m_alertSilent})
        spin->setSpecialValueText(tr("off"));
    m_alertGaps = new QCheckBox(tr("Alert on sequence gaps"));
    m_alertGaps->setObjectName(QStringLiteral("alertGaps"));
    auto *af = new QFormLayout(alerts);
    af->addRow(tr("Rate below:"), m_alertRate);
    af->addRow(tr("p99 above:"), m_alertP99);
    af->addRow(tr("Silent for:"), m_alertSilent);
    af->addRow(QString(), m_alertGaps);

    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(options);
    layout->addWidget(alerts);
    layout->addStretch();
    return box;
}

// Every channel of every venue, as "Venue · Market · channel" (the market left out where the
// venue has one), searched by any part of the text.
QWidget *StreamDialog::buildFind()
{
    QStringList entries;
    for (const Venue &venue : VenueCatalog::venues()) {
        const VenuePresets presets = VenueCatalog::presets(venue);
        for (const VenueMarket &market : presets.markets) {
            for (const QString &channel : market.channels) {
                QStringList parts{presets.title};
                if (presets.markets.size() > 1)
                    parts << market.title;
                parts << channel;
                const QString entry = parts.join(QStringLiteral(" · "));
                entries << entry;
                m_findTargets.insert(entry, FindTarget{venue, market.id, channel});
            }
        }
    }
    m_find = new QLineEdit;
    m_find->setObjectName(QStringLiteral("find"));
    m_find->setPlaceholderText(tr("a channel on any venue: books, trades, kline…"));
    m_find->setClearButtonEnabled(true);
    auto *completer = new QCompleter(new QStringListModel(entries, this), this);
    completer->setCaseSensitivity(Qt::CaseInsensitive);
    completer->setFilterMode(Qt::MatchContains);
    completer->setMaxVisibleItems(12);
    m_find->setCompleter(completer);
    connect(completer, qOverload<const QString &>(&QCompleter::activated), this, [this](const QString &text) {
        if (findChannel(text))
            QMetaObject::invokeMethod(m_find, &QLineEdit::clear, Qt::QueuedConnection);
    });
    return m_find;
}

bool StreamDialog::findChannel(const QString &text)
{
    const auto it = m_findTargets.constFind(text);
    if (it == m_findTargets.constEnd())
        return false;
    const FindTarget &target = it.value();
    if (target.venue == Venue("binance")) {
        setPreset(target.market == QLatin1String("usdm") ? Preset::BinanceFutures : Preset::BinanceSpot);
        m_binance->selectChannel(target.channel);
    } else if (VenueCatalog::channelSubscriptions(target.venue)) {
        setVenue(target.venue);
        m_venue->select(target.market, target.channel);
    } else {
        setVenue(target.venue);
    }
    return true;
}

void StreamDialog::setVenue(Venue venue)
{
    if (venue == Venue("binance")) {
        setPreset(Preset::BinanceSpot);
        return;
    }
    if (venue == Venue("betfair")) {
        setPreset(Preset::Betfair);
        return;
    }
    const int i = m_preset->findData(venueName(venue), kVenueRole);
    if (i >= 0)
        m_preset->setCurrentIndex(i);
    else
        setPreset(Preset::Generic);
}

StreamDialog::Preset StreamDialog::preset() const
{
    return Preset(m_preset->currentData().toInt());
}

void StreamDialog::setPreset(Preset preset)
{
    const int i = m_preset->findData(int(preset));
    if (i >= 0)
        m_preset->setCurrentIndex(i);
}

void StreamDialog::onPresetChanged()
{
    const Preset p = preset();
    const bool binance = p == Preset::BinanceSpot || p == Preset::BinanceFutures;
    m_pages->setCurrentIndex(binance                         ? kBinancePage
                                 : p == Preset::Betfair      ? kBetfairPage
                                 : p == Preset::ChannelVenue ? kVenuePage
                                                             : kGenericPage);
    if (p == Preset::ChannelVenue)
        m_venue->setVenue(venueFromName(m_preset->currentData(kVenueRole).toString()));
    if (binance)
        m_binance->setMarket(p == Preset::BinanceFutures ? BinancePage::Market::UsdmFutures
                                                         : BinancePage::Market::Spot);
    onPageChanged();
}

void StreamDialog::onPageChanged()
{
    m_name->setPlaceholderText(suggestedName());
}

QString StreamDialog::suggestedName() const
{
    QString base;
    switch (preset()) {
    case Preset::BinanceSpot:
    case Preset::BinanceFutures: base = m_binance->suggestedName(); break;
    case Preset::Betfair: base = BetfairPage::suggestedName(); break;
    case Preset::ChannelVenue: base = m_venue->suggestedName(); break;
    case Preset::Generic:
    case Preset::BinanceOwnUrl:
    case Preset::Unknown: base = m_generic->suggestedName(); break;
    }
    QString name = base;
    for (int n = 2; m_existingNames.contains(name); ++n)
        name = base + QLatin1Char('-') + QString::number(n);
    return name;
}

bool StreamDialog::validate(QString *errorOut)
{
    QString error;
    m_secrets.clear();
    StreamConfig c = m_editing ? m_original : StreamConfig();
    c.subscribe.clear();
    c.sendOnConnect.clear();
    c.headers.clear();
    c.name = m_name->text().trimmed();
    if (c.name.isEmpty())
        c.name = suggestedName();

    bool ok = true;
    if (c.name.size() > kMaxNameLength) {
        error = tr("The name is too long (at most %1 characters).").arg(kMaxNameLength);
        ok = false;
    } else if (c.name != m_originalName && m_existingNames.contains(c.name)) {
        error = tr("A stream named \"%1\" already exists: choose another name.").arg(c.name);
        ok = false;
    }
    if (ok) {
        switch (preset()) {
        case Preset::BinanceSpot:
        case Preset::BinanceFutures: ok = m_binance->toConfig(c, &error); break;
        case Preset::Betfair: ok = m_betfair->toConfig(c, &m_secrets, &error); break;
        case Preset::ChannelVenue: ok = m_venue->toConfig(c, &error); break;
        case Preset::Generic:
        case Preset::Unknown: ok = m_generic->toConfig(c, &error); break;
        case Preset::BinanceOwnUrl:
            ok = m_generic->toConfig(c, &error);
            c.venue = Venue("binance");
            // Editing keeps the streams it subscribes to (the page shows none).
            if (m_editing && m_original.venue == Venue("binance"))
                c.subscribe = m_original.subscribe;
            break;
        }
    }
    if (!ok) {
        showError(error);
        if (errorOut)
            *errorOut = error;
        return false;
    }
    c.mode = DecodeMode(m_mode->currentData().toInt());
    c.transport = WebSocketClient(m_transport->currentData().toInt());
    c.stallTimeoutMs = m_stallS->value() * 1000;
    c.reconnectOnStall = m_reconnectOnStall->isChecked();

    AlertRule rule = m_rule; // keeps what the dialog does not show (for_s, clear_after_s)
    rule.stream = c.name;
    rule.rateBelow = m_alertRate->value();
    rule.p99AboveMs = m_alertP99->value();
    rule.silentS = m_alertSilent->value();
    rule.gaps = m_alertGaps->isChecked();

    m_config = c;
    m_rule = rule;
    showError(QString());
    return true;
}

void StreamDialog::showError(const QString &error)
{
    m_error->setText(error);
    m_error->setVisible(!error.isEmpty());
}

void StreamDialog::accept()
{
    if (validate())
        QDialog::accept();
}

void StreamDialog::setConfig(const StreamConfig &config, const AlertRule &rule)
{
    m_editing = true;
    m_original = config;
    m_originalName = config.name;
    setWindowTitle(tr("Edit stream — %1").arg(config.name));
    if (auto *ok = findChild<QPushButton *>(QStringLiteral("ok")))
        ok->setText(tr("Apply"));
    m_name->setText(config.name);

    bool done = false;
    if (config.venue == Venue("binance")) {
        setPreset(BinancePage::marketOf(config) == BinancePage::Market::UsdmFutures ? Preset::BinanceFutures
                                                                                    : Preset::BinanceSpot);
        done = m_binance->fromConfig(config);
    } else if (config.venue == Venue("betfair")) {
        setPreset(Preset::Betfair);
        m_betfair->fromConfig(config);
        done = true;
    } else if (VenueCatalog::channelSubscriptions(config.venue)) {
        setVenue(config.venue);
        m_venue->fromConfig(config);
        done = true;
    }
    if (!done) {
        // A Binance stream on a URL the Binance page cannot build stays a Binance stream.
        setPreset(config.venue == Venue("binance") ? Preset::BinanceOwnUrl : Preset::Generic);
        m_generic->fromConfig(config);
    } else {
        m_generic->setLatency(config.latencyField, config.latencyUnit);
    }
    const int mode = m_mode->findData(int(config.mode));
    if (mode >= 0)
        m_mode->setCurrentIndex(mode);
    const int transport = m_transport->findData(int(config.transport));
    if (transport >= 0)
        m_transport->setCurrentIndex(transport);
    m_stallS->setValue(std::max(1, config.stallTimeoutMs / 1000));
    m_reconnectOnStall->setChecked(config.reconnectOnStall);
    m_rule = rule;
    m_alertRate->setValue(rule.rateBelow);
    m_alertP99->setValue(rule.p99AboveMs);
    m_alertSilent->setValue(rule.silentS);
    m_alertGaps->setChecked(rule.gaps);
    onPageChanged();
}

} // namespace streamscope::ui
