#include "StreamDialog.h"

#include "BinanceStreamBuilder.h"
#include "Format.h"
#include "KeychainStore.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QRegularExpression>
#include <QtCore/QUrlQuery>
#include <QtGui/QFontDatabase>
#include <QtWidgets/QButtonGroup>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QDoubleSpinBox>
#include <QtWidgets/QFileDialog>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QGridLayout>
#include <QtWidgets/QGroupBox>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QPlainTextEdit>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QRadioButton>
#include <QtWidgets/QSpinBox>
#include <QtWidgets/QStackedWidget>
#include <QtWidgets/QToolButton>
#include <QtWidgets/QVBoxLayout>

namespace streamscope::ui {

namespace {
constexpr int kBinancePage = 0;
constexpr int kBetfairPage = 1;
constexpr int kGenericPage = 2;
constexpr int kMaxNameLength = 64;

const char *const kBetfairFields[] = {"EX_BEST_OFFERS", "EX_BEST_OFFERS_DISP", "EX_ALL_OFFERS", "EX_TRADED",
                                      "EX_TRADED_VOL", "EX_LTP", "EX_MARKET_DEF", "SP_TRADED", "SP_PROJECTED"};

QString cleanKeyPart(QString s)
{
    static const QRegularExpression bad(QStringLiteral("[^A-Za-z0-9_.-]+"));
    return s.replace(bad, QStringLiteral("-"));
}
} // namespace

StreamDialog::StreamDialog(const QStringList &existingNames, QWidget *parent)
    : QDialog(parent), m_existingNames(existingNames)
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
    m_preset->addItem(tr("Generic ws / wss / tcp / tls"), int(Preset::Generic));

    auto *top = new QFormLayout;
    top->addRow(tr("&Preset:"), m_preset);
    top->addRow(tr("&Name:"), m_name);

    m_pages = new QStackedWidget;
    m_pages->addWidget(buildBinancePage());
    m_pages->addWidget(buildBetfairPage());
    m_pages->addWidget(buildGenericPage());

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

QWidget *StreamDialog::buildBinancePage()
{
    auto *page = new QWidget;
    m_endpoint = new QComboBox;
    m_endpoint->setObjectName(QStringLiteral("endpoint"));
    m_endpoint->setEditable(true);
    m_endpoint->setToolTip(tr("Websocket host, e.g. a testnet or a local replay server"));
    m_symbols = new QLineEdit;
    m_symbols->setObjectName(QStringLiteral("symbols"));
    m_symbols->setPlaceholderText(tr("BTCUSDT, ETHUSDT"));
    m_symbols->setToolTip(tr("Symbols separated by commas or spaces; case does not matter"));

    m_trade = new QCheckBox(QStringLiteral("trade"));
    m_trade->setObjectName(QStringLiteral("trade"));
    m_aggTrade = new QCheckBox(QStringLiteral("aggTrade"));
    m_aggTrade->setObjectName(QStringLiteral("aggTrade"));
    m_aggTrade->setChecked(true);
    m_kline = new QCheckBox(QStringLiteral("kline"));
    m_kline->setObjectName(QStringLiteral("kline"));
    m_klineInterval = new QComboBox;
    m_klineInterval->setObjectName(QStringLiteral("klineInterval"));
    m_klineInterval->addItems(BinanceStreamBuilder::klineIntervals());
    m_klineInterval->setCurrentText(QStringLiteral("1m"));
    m_depth = new QCheckBox(tr("partial depth"));
    m_depth->setObjectName(QStringLiteral("depth"));
    m_depthLevels = new QComboBox;
    m_depthLevels->setObjectName(QStringLiteral("depthLevels"));
    m_depthLevels->addItems({QStringLiteral("5"), QStringLiteral("10"), QStringLiteral("20")});
    m_depthLevels->setCurrentText(QStringLiteral("20"));
    m_depthLevels->setToolTip(tr("Price levels per side"));
    m_depthSpeed = new QComboBox;
    m_depthSpeed->setObjectName(QStringLiteral("depthSpeed"));
    m_depthSpeed->setToolTip(tr("Update speed"));
    m_diff = new QCheckBox(tr("depth diff"));
    m_diff->setObjectName(QStringLiteral("depthDiff"));
    m_diff->setToolTip(tr("Order book updates; sequence gaps are detected and counted"));
    m_diffSpeed = new QComboBox;
    m_diffSpeed->setObjectName(QStringLiteral("diffSpeed"));
    m_diffSpeed->setToolTip(tr("Update speed"));
    m_bookTicker = new QCheckBox(QStringLiteral("bookTicker"));
    m_bookTicker->setObjectName(QStringLiteral("bookTicker"));

    auto *types = new QGroupBox(tr("Stream types (for every symbol)"));
    auto *grid = new QGridLayout(types);
    grid->addWidget(m_trade, 0, 0);
    grid->addWidget(m_aggTrade, 1, 0);
    grid->addWidget(m_kline, 2, 0);
    grid->addWidget(new QLabel(tr("interval")), 2, 1);
    grid->addWidget(m_klineInterval, 2, 2);
    grid->addWidget(m_depth, 3, 0);
    grid->addWidget(new QLabel(tr("levels")), 3, 1);
    grid->addWidget(m_depthLevels, 3, 2);
    grid->addWidget(new QLabel(tr("speed")), 3, 3);
    grid->addWidget(m_depthSpeed, 3, 4);
    grid->addWidget(m_diff, 4, 0);
    grid->addWidget(new QLabel(tr("speed")), 4, 3);
    grid->addWidget(m_diffSpeed, 4, 4);
    grid->addWidget(m_bookTicker, 5, 0);
    grid->setColumnStretch(5, 1);

    m_inUrl = new QRadioButton(tr("All streams in the URL"));
    m_inUrl->setObjectName(QStringLiteral("inUrl"));
    m_inUrl->setChecked(true);
    m_subscribe = new QRadioButton(tr("Subscribe after connect"));
    m_subscribe->setObjectName(QStringLiteral("subscribeAfterConnect"));
    m_subscribe->setToolTip(tr("Open the first stream in the URL and SUBSCRIBE to the others; needed beyond %1 streams")
                                .arg(BinanceStreamBuilder::kMaxStreamsInUrl));
    auto *delivery = new QHBoxLayout;
    delivery->addWidget(m_inUrl);
    delivery->addWidget(m_subscribe);
    delivery->addStretch();

    m_preview = new QPlainTextEdit;
    m_preview->setObjectName(QStringLiteral("preview"));
    m_preview->setReadOnly(true);
    m_preview->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_preview->setMinimumHeight(90);
    m_preview->setToolTip(tr("What will be connected and subscribed"));

    auto *form = new QFormLayout;
    form->addRow(tr("&Endpoint:"), m_endpoint);
    form->addRow(tr("&Symbols:"), m_symbols);
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form);
    layout->addWidget(types);
    layout->addLayout(delivery);
    layout->addWidget(new QLabel(tr("Preview:")));
    layout->addWidget(m_preview, 1);

    for (QCheckBox *box : {m_trade, m_aggTrade, m_kline, m_depth, m_diff, m_bookTicker})
        connect(box, &QCheckBox::toggled, this, &StreamDialog::updatePreview);
    for (QComboBox *box : {m_klineInterval, m_depthLevels, m_depthSpeed, m_diffSpeed})
        connect(box, &QComboBox::currentIndexChanged, this, &StreamDialog::updatePreview);
    connect(m_endpoint, &QComboBox::currentTextChanged, this, &StreamDialog::updatePreview);
    connect(m_symbols, &QLineEdit::textChanged, this, &StreamDialog::updatePreview);
    connect(m_inUrl, &QRadioButton::toggled, this, &StreamDialog::updatePreview);
    return page;
}

QWidget *StreamDialog::buildBetfairPage()
{
    auto *page = new QWidget;
    m_bfHost = new QLineEdit(QStringLiteral("stream-api.betfair.com:443"));
    m_bfHost->setObjectName(QStringLiteral("betfairHost"));
    m_bfHost->setToolTip(tr("host:port of the stream API (integration: stream-api-integration.betfair.com:443)"));
    m_bfAppKey = new QLineEdit;
    m_bfAppKey->setObjectName(QStringLiteral("appKey"));
    m_bfAppKey->setEchoMode(QLineEdit::PasswordEchoOnEdit);
    m_bfAppKey->setPlaceholderText(tr("app key, or env:NAME / keychain:NAME"));
    m_bfSession = new QLineEdit;
    m_bfSession->setObjectName(QStringLiteral("session"));
    m_bfSession->setEchoMode(QLineEdit::PasswordEchoOnEdit);
    m_bfSession->setPlaceholderText(tr("session token, or env:NAME / keychain:NAME"));
    auto *secretsNote = new QLabel(tr("Secrets typed here are stored in the system keychain; the workspace file only "
                                      "refers to them (keychain:NAME). env:NAME reads an environment variable."));
    secretsNote->setWordWrap(true);
    secretsNote->setTextFormat(Qt::PlainText);
    QFont small = secretsNote->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    secretsNote->setFont(small);
    m_bfMarkets = new QLineEdit;
    m_bfMarkets->setObjectName(QStringLiteral("marketIds"));
    m_bfMarkets->setPlaceholderText(tr("1.120684740, 1.120684741"));
    auto *fields = new QGroupBox(tr("Market data fields"));
    auto *fieldGrid = new QGridLayout(fields);
    int i = 0;
    for (const char *f : kBetfairFields) {
        auto *box = new QCheckBox(QLatin1String(f));
        box->setObjectName(QLatin1String(f));
        box->setChecked(i == 0);
        fieldGrid->addWidget(box, i / 3, i % 3);
        m_bfFields.append(box);
        ++i;
    }
    m_bfHeartbeat = new QSpinBox;
    m_bfHeartbeat->setRange(500, 30000);
    m_bfHeartbeat->setSingleStep(500);
    m_bfHeartbeat->setValue(5000);
    m_bfHeartbeat->setSuffix(QStringLiteral(" ms"));
    m_bfCaFile = new QLineEdit;
    m_bfCaFile->setPlaceholderText(tr("optional extra trusted CA (PEM)"));
    auto *browse = new QToolButton;
    browse->setText(QStringLiteral("…"));
    browse->setToolTip(tr("Choose a CA certificate file"));
    connect(browse, &QToolButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Trusted CA certificate"), QString(),
                                                       tr("PEM certificates (*.pem *.crt);;All files (*)"));
        if (!f.isEmpty())
            m_bfCaFile->setText(f);
    });
    auto *caRow = new QHBoxLayout;
    caRow->addWidget(m_bfCaFile, 1);
    caRow->addWidget(browse);

    auto *form = new QFormLayout;
    form->addRow(tr("&Host:"), m_bfHost);
    form->addRow(tr("&App key:"), m_bfAppKey);
    form->addRow(tr("S&ession:"), m_bfSession);
    form->addRow(QString(), secretsNote);
    form->addRow(tr("&Market ids:"), m_bfMarkets);
    form->addRow(tr("Heart&beat:"), m_bfHeartbeat);
    form->addRow(tr("CA file:"), caRow);
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form);
    layout->addWidget(fields);
    layout->addStretch();
    return page;
}

QWidget *StreamDialog::buildGenericPage()
{
    auto *page = new QWidget;
    m_url = new QLineEdit;
    m_url->setObjectName(QStringLiteral("url"));
    m_url->setPlaceholderText(QStringLiteral("wss://example.com/feed  or  tls://host:443"));
    m_url->setToolTip(tr("ws:// and wss:// are websockets; tcp:// and tls:// carry one JSON message per CRLF-terminated line"));
    m_headers = new QPlainTextEdit;
    m_headers->setObjectName(QStringLiteral("headers"));
    m_headers->setPlaceholderText(QStringLiteral("X-Token: env:FEED_TOKEN"));
    m_headers->setToolTip(tr("One \"Name: value\" per line; values may be env:NAME or keychain:NAME"));
    m_headers->setMaximumHeight(80);
    m_sendOnConnect = new QPlainTextEdit;
    m_sendOnConnect->setObjectName(QStringLiteral("sendOnConnect"));
    m_sendOnConnect->setPlaceholderText(QStringLiteral("{\"op\":\"subscribe\",\"channel\":\"trades\"}"));
    m_sendOnConnect->setToolTip(tr("One message per line, sent after every connect"));
    m_sendOnConnect->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_latencyField = new QLineEdit;
    m_latencyField->setObjectName(QStringLiteral("latencyField"));
    m_latencyField->setPlaceholderText(QStringLiteral("/ts"));
    m_latencyField->setToolTip(tr("JSON pointer to the event time in each message; empty: none"));
    m_latencyUnit = new QComboBox;
    m_latencyUnit->setObjectName(QStringLiteral("latencyUnit"));
    m_latencyUnit->addItem(tr("seconds"), int(LatencyUnit::Seconds));
    m_latencyUnit->addItem(tr("milliseconds"), int(LatencyUnit::Milliseconds));
    m_latencyUnit->addItem(tr("microseconds"), int(LatencyUnit::Microseconds));
    m_latencyUnit->addItem(tr("nanoseconds"), int(LatencyUnit::Nanoseconds));
    m_latencyUnit->setCurrentIndex(1);
    auto *latency = new QHBoxLayout;
    latency->addWidget(m_latencyField, 1);
    latency->addWidget(m_latencyUnit);

    auto *form = new QFormLayout(page);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("&URL:"), m_url);
    form->addRow(tr("&Headers:"), m_headers);
    form->addRow(tr("&Send on connect:"), m_sendOnConnect);
    form->addRow(tr("&Latency field:"), latency);
    return page;
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
    m_stallS = new QSpinBox;
    m_stallS->setObjectName(QStringLiteral("stallTimeout"));
    m_stallS->setRange(1, 3600);
    m_stallS->setValue(30);
    m_stallS->setSuffix(QStringLiteral(" s"));
    m_stallS->setToolTip(tr("No data message for this long marks the stream stalled"));
    m_reconnectOnStall = new QCheckBox(tr("Reconnect when stalled"));
    auto *of = new QFormLayout(options);
    of->addRow(tr("&Decode:"), m_mode);
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
    m_pages->setCurrentIndex(binance ? kBinancePage : p == Preset::Betfair ? kBetfairPage : kGenericPage);
    if (binance) {
        const auto market = p == Preset::BinanceFutures ? BinanceRequest::Market::UsdmFutures : BinanceRequest::Market::Spot;
        const QString current = m_endpoint->currentText();
        m_endpoint->blockSignals(true);
        m_endpoint->clear();
        m_endpoint->addItem(BinanceStreamBuilder::defaultEndpoint(market));
        if (market == BinanceRequest::Market::Spot)
            m_endpoint->addItem(QStringLiteral("wss://data-stream.binance.vision"));
        else
            m_endpoint->addItem(QStringLiteral("wss://fstream.binancefuture.com"));
        const bool custom = !current.isEmpty() && !current.contains(QLatin1String("binance"));
        if (custom)
            m_endpoint->setEditText(current);
        m_endpoint->blockSignals(false);
        const QStringList speeds = BinanceStreamBuilder::depthSpeeds(market);
        for (QComboBox *box : {m_depthSpeed, m_diffSpeed}) {
            box->blockSignals(true);
            box->clear();
            box->addItems(speeds);
            box->blockSignals(false);
        }
        const bool hasTrade = BinanceStreamBuilder::hasTradeStream(market);
        m_trade->setEnabled(hasTrade);
        if (!hasTrade)
            m_trade->setChecked(false);
        m_trade->setToolTip(hasTrade ? QString() : tr("USD-M futures have no trade stream: use aggTrade"));
    }
    m_mode->setEnabled(true);
    updatePreview();
}

BinanceRequest StreamDialog::binanceRequest() const
{
    BinanceRequest r;
    r.market = preset() == Preset::BinanceFutures ? BinanceRequest::Market::UsdmFutures : BinanceRequest::Market::Spot;
    r.endpoint = m_endpoint->currentText();
    r.symbolsText = m_symbols->text();
    r.trade = m_trade->isChecked() && m_trade->isEnabled();
    r.aggTrade = m_aggTrade->isChecked();
    r.kline = m_kline->isChecked();
    r.klineInterval = m_klineInterval->currentText();
    r.partialDepth = m_depth->isChecked();
    r.depthLevels = m_depthLevels->currentText().toInt();
    r.depthSpeed = m_depthSpeed->currentText();
    r.depthDiff = m_diff->isChecked();
    r.diffSpeed = m_diffSpeed->currentText();
    r.bookTicker = m_bookTicker->isChecked();
    r.delivery = m_subscribe->isChecked() ? BinanceRequest::Delivery::Subscribe : BinanceRequest::Delivery::InUrl;
    return r;
}

QString StreamDialog::suggestedName() const
{
    QString base;
    switch (preset()) {
    case Preset::BinanceSpot:
    case Preset::BinanceFutures: {
        const QStringList symbols = BinanceStreamBuilder::parseSymbols(m_symbols->text(), nullptr);
        base = (preset() == Preset::BinanceFutures ? QStringLiteral("binance-fut-") : QStringLiteral("binance-"))
            + (symbols.isEmpty() ? QStringLiteral("stream") : symbols.first());
        if (symbols.size() > 1)
            base += QStringLiteral("-and-%1-more").arg(symbols.size() - 1);
        break;
    }
    case Preset::Betfair: base = QStringLiteral("betfair-markets"); break;
    case Preset::Generic:
    case Preset::Unknown: {
        const QUrl url(m_url->text().trimmed());
        base = url.host().isEmpty() ? QStringLiteral("stream") : url.host();
        break;
    }
    }
    QString name = base;
    for (int n = 2; m_existingNames.contains(name); ++n)
        name = base + QLatin1Char('-') + QString::number(n);
    return name;
}

void StreamDialog::updatePreview()
{
    m_name->setPlaceholderText(suggestedName());
    if (m_pages->currentIndex() != kBinancePage)
        return;
    const BinanceStreams s = BinanceStreamBuilder::build(binanceRequest());
    if (!s.ok) {
        m_preview->setPlainText(s.error);
        return;
    }
    QString text = countNoun(quint64(s.streams.size()), tr("stream"), tr("streams")) + QLatin1Char('\n');
    text += tr("URL: ") + s.url.toString() + QLatin1Char('\n');
    if (!s.subscribe.isEmpty())
        text += tr("SUBSCRIBE after connect: ") + s.subscribe.join(QStringLiteral(", "));
    m_preview->setPlainText(text);
}

bool StreamDialog::buildBinance(StreamConfig &c, QString *error) const
{
    const BinanceStreams s = BinanceStreamBuilder::build(binanceRequest());
    if (!s.ok) {
        *error = s.error;
        return false;
    }
    c.venue = Venue::Binance;
    c.url = s.url;
    c.subscribe = s.subscribe;
    return true;
}

bool StreamDialog::buildBetfair(StreamConfig &c, QString *error)
{
    const QString host = m_bfHost->text().trimmed();
    const QUrl url(QStringLiteral("tls://") + host, QUrl::StrictMode);
    if (host.isEmpty() || !url.isValid() || url.host().isEmpty() || !url.path().isEmpty()) {
        *error = tr("Host \"%1\" is not valid: expected host:port, for example stream-api.betfair.com:443.").arg(host);
        return false;
    }
    QUrl full = url;
    if (full.port() < 0)
        full.setPort(443);

    const QString name = c.name;
    const auto secretRef = [&](QLineEdit *edit, const QString &what, const QString &suffix, QString *ref) {
        const QString v = edit->text().trimmed();
        if (v.isEmpty()) {
            *error = tr("Enter the %1, or a reference to it such as env:NAME.").arg(what);
            return false;
        }
        if (v.startsWith(QLatin1String("env:")) || KeychainStore::isKeychainRef(v)) {
            if (v.indexOf(QLatin1Char(':')) == v.size() - 1) {
                *error = tr("The %1 reference \"%2\" names nothing after the colon.").arg(what, v);
                return false;
            }
            *ref = v;
            return true;
        }
        const QString key = QStringLiteral("betfair-%1-%2").arg(cleanKeyPart(name), suffix);
        m_secrets.append({key, v});
        *ref = QLatin1String(KeychainStore::kPrefix) + key;
        return true;
    };
    if (!secretRef(m_bfAppKey, tr("app key"), QStringLiteral("app-key"), &c.appKey)
        || !secretRef(m_bfSession, tr("session token"), QStringLiteral("session"), &c.session))
        return false;

    static const QRegularExpression marketId(QStringLiteral("^\\d+\\.\\d+$"));
    static const QRegularExpression separators(QStringLiteral("[\\s,;]+"));
    const QStringList ids = m_bfMarkets->text().split(separators, Qt::SkipEmptyParts);
    if (ids.isEmpty()) {
        *error = tr("Enter at least one market id, for example 1.120684740.");
        return false;
    }
    QJsonArray idArray;
    for (const QString &id : ids) {
        if (!marketId.match(id).hasMatch()) {
            *error = tr("Market id \"%1\" is not valid: expected digits, a dot and digits, for example 1.120684740.").arg(id);
            return false;
        }
        idArray.append(id);
    }
    QJsonArray fields;
    for (QCheckBox *box : m_bfFields) {
        if (box->isChecked())
            fields.append(box->text());
    }
    if (fields.isEmpty()) {
        *error = tr("Pick at least one market data field, for example EX_BEST_OFFERS.");
        return false;
    }
    c.venue = Venue::Betfair;
    c.url = full;
    c.marketSubscription = QJsonObject{{QStringLiteral("marketFilter"), QJsonObject{{QStringLiteral("marketIds"), idArray}}},
                                       {QStringLiteral("marketDataFilter"), QJsonObject{{QStringLiteral("fields"), fields}}}};
    c.heartbeatMs = m_bfHeartbeat->value();
    c.caFile = m_bfCaFile->text().trimmed();
    return true;
}

bool StreamDialog::buildGeneric(StreamConfig &c, QString *error) const
{
    const QString text = m_url->text().trimmed();
    const QUrl url(text, QUrl::StrictMode);
    static const QStringList schemes = {QStringLiteral("ws"), QStringLiteral("wss"), QStringLiteral("tcp"), QStringLiteral("tls")};
    if (text.isEmpty()) {
        *error = tr("Enter the URL, for example wss://example.com/feed.");
        return false;
    }
    if (!url.isValid() || !schemes.contains(url.scheme()) || url.host().isEmpty()) {
        *error = tr("URL \"%1\" is not valid: it must start with ws://, wss://, tcp:// or tls:// and name a host.").arg(text);
        return false;
    }
    if ((url.scheme() == QLatin1String("tcp") || url.scheme() == QLatin1String("tls")) && url.port() < 0) {
        *error = tr("URL \"%1\" needs a port for %2, for example %2://host:443.").arg(text, url.scheme());
        return false;
    }
    static const QRegularExpression token(QStringLiteral("^[A-Za-z0-9!#$%&'*+.^_`|~-]+$"));
    QList<QPair<QString, QString>> headers;
    const QStringList headerLines = m_headers->toPlainText().split(QLatin1Char('\n'));
    for (int i = 0; i < headerLines.size(); ++i) {
        const QString line = headerLines[i].trimmed();
        if (line.isEmpty())
            continue;
        const int colon = int(line.indexOf(QLatin1Char(':')));
        const QString name = colon > 0 ? line.left(colon).trimmed() : QString();
        if (colon <= 0 || !token.match(name).hasMatch()) {
            *error = tr("Header line %1 \"%2\" is not valid: write Name: value.").arg(i + 1).arg(line);
            return false;
        }
        headers.append({name, line.mid(colon + 1).trimmed()});
    }
    QStringList send;
    const QStringList sendLines = m_sendOnConnect->toPlainText().split(QLatin1Char('\n'));
    for (const QString &raw : sendLines) {
        const QString line = raw.trimmed();
        if (line.isEmpty())
            continue;
        if (line.startsWith(QLatin1Char('{')) || line.startsWith(QLatin1Char('['))) {
            QJsonParseError err{};
            QJsonDocument::fromJson(line.toUtf8(), &err);
            if (err.error != QJsonParseError::NoError) {
                *error = tr("Message %1 to send on connect is not valid JSON: %2 at offset %3.")
                             .arg(send.size() + 1)
                             .arg(err.errorString())
                             .arg(err.offset);
                return false;
            }
        }
        send.append(line);
    }
    const QString pointer = m_latencyField->text().trimmed();
    if (!pointer.isEmpty() && !pointer.startsWith(QLatin1Char('/'))) {
        *error = tr("Latency field \"%1\" is not a JSON pointer: it must start with /, for example /data/E.").arg(pointer);
        return false;
    }
    // Editing a Binance stream that the preset cannot represent keeps its protocol.
    c.venue = m_editing && m_original.venue == Venue::Binance ? Venue::Binance : Venue::Generic;
    if (c.venue == Venue::Binance)
        c.subscribe = m_original.subscribe;
    c.url = url;
    c.headers = headers;
    c.sendOnConnect = send;
    c.latencyField = pointer;
    c.latencyUnit = LatencyUnit(m_latencyUnit->currentData().toInt());
    return true;
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
        case Preset::BinanceFutures: ok = buildBinance(c, &error); break;
        case Preset::Betfair: ok = buildBetfair(c, &error); break;
        case Preset::Generic:
        case Preset::Unknown: ok = buildGeneric(c, &error); break;
        }
    }
    if (!ok) {
        showError(error);
        if (errorOut)
            *errorOut = error;
        return false;
    }
    c.mode = DecodeMode(m_mode->currentData().toInt());
    c.stallTimeoutMs = m_stallS->value() * 1000;
    c.reconnectOnStall = m_reconnectOnStall->isChecked();

    AlertRule rule;
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

QString StreamDialog::errorText() const
{
    return m_error->isVisible() || !m_error->text().isEmpty() ? m_error->text() : QString();
}

void StreamDialog::accept()
{
    if (validate())
        QDialog::accept();
}

bool StreamDialog::fillFromBinance(const StreamConfig &config)
{
    // Recover symbols and types from the URL and SUBSCRIBE list; give up (generic page)
    // unless rebuilding gives exactly the same streams.
    QStringList names = QUrlQuery(config.url).queryItemValue(QStringLiteral("streams")).split(QLatin1Char('/'), Qt::SkipEmptyParts);
    names += config.subscribe;
    if (names.isEmpty())
        return false;
    QStringList symbols;
    for (const QString &n : names) {
        const QString sym = n.section(QLatin1Char('@'), 0, 0);
        const QString type = n.section(QLatin1Char('@'), 1);
        if (!symbols.contains(sym))
            symbols.append(sym);
        if (type == QLatin1String("trade"))
            m_trade->setChecked(true);
        else if (type == QLatin1String("bookTicker"))
            m_bookTicker->setChecked(true);
        else if (type.startsWith(QLatin1String("kline_"))) {
            m_kline->setChecked(true);
            m_klineInterval->setCurrentText(type.mid(6));
        } else if (type.startsWith(QLatin1String("depth"))) {
            const QString rest = type.mid(5);
            const QString levels = rest.section(QLatin1Char('@'), 0, 0);
            const QString speed = rest.section(QLatin1Char('@'), 1);
            if (levels.isEmpty()) {
                m_diff->setChecked(true);
                if (!speed.isEmpty())
                    m_diffSpeed->setCurrentText(speed);
            } else {
                m_depth->setChecked(true);
                m_depthLevels->setCurrentText(levels);
                if (!speed.isEmpty())
                    m_depthSpeed->setCurrentText(speed);
            }
        }
    }
    m_aggTrade->setChecked(names.join(QLatin1Char(',')).contains(QLatin1String("@aggTrade")));
    m_symbols->setText(symbols.join(QStringLiteral(", ")).toUpper());
    m_endpoint->setEditText(config.url.adjusted(QUrl::RemovePath | QUrl::RemoveQuery).toString());
    m_subscribe->setChecked(!config.subscribe.isEmpty());
    m_inUrl->setChecked(config.subscribe.isEmpty());
    const BinanceStreams rebuilt = BinanceStreamBuilder::build(binanceRequest());
    return rebuilt.ok && rebuilt.url == config.url && rebuilt.subscribe == config.subscribe;
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
    if (config.venue == Venue::Binance) {
        setPreset(config.url.host().startsWith(QLatin1String("fstream")) ? Preset::BinanceFutures : Preset::BinanceSpot);
        done = fillFromBinance(config);
    } else if (config.venue == Venue::Betfair) {
        setPreset(Preset::Betfair);
        m_bfHost->setText(QStringLiteral("%1:%2").arg(config.url.host()).arg(config.url.port(443)));
        m_bfAppKey->setText(config.appKey);
        m_bfSession->setText(config.session);
        QStringList ids;
        const QJsonArray idArray = config.marketSubscription.value(QStringLiteral("marketFilter")).toObject().value(QStringLiteral("marketIds")).toArray();
        for (const QJsonValue &v : idArray)
            ids.append(v.toString());
        m_bfMarkets->setText(ids.join(QStringLiteral(", ")));
        const QJsonArray fields = config.marketSubscription.value(QStringLiteral("marketDataFilter")).toObject().value(QStringLiteral("fields")).toArray();
        for (QCheckBox *box : m_bfFields)
            box->setChecked(fields.contains(box->text()));
        m_bfHeartbeat->setValue(config.heartbeatMs);
        m_bfCaFile->setText(config.caFile);
        done = true;
    }
    if (!done) {
        setPreset(Preset::Generic);
        m_url->setText(config.url.toString());
        QStringList headerLines;
        for (const auto &h : config.headers)
            headerLines.append(h.first + QStringLiteral(": ") + h.second);
        m_headers->setPlainText(headerLines.join(QLatin1Char('\n')));
        m_sendOnConnect->setPlainText(config.sendOnConnect.join(QLatin1Char('\n')));
    }
    m_latencyField->setText(config.latencyField);
    const int unit = m_latencyUnit->findData(int(config.latencyUnit));
    if (unit >= 0)
        m_latencyUnit->setCurrentIndex(unit);
    const int mode = m_mode->findData(int(config.mode));
    if (mode >= 0)
        m_mode->setCurrentIndex(mode);
    m_stallS->setValue(std::max(1, config.stallTimeoutMs / 1000));
    m_reconnectOnStall->setChecked(config.reconnectOnStall);
    m_alertRate->setValue(rule.rateBelow);
    m_alertP99->setValue(rule.p99AboveMs);
    m_alertSilent->setValue(rule.silentS);
    m_alertGaps->setChecked(rule.gaps);
    updatePreview();
}

} // namespace streamscope::ui
