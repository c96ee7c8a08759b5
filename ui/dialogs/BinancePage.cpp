#include "BinancePage.h"

#include "BinanceStreamBuilder.h"
#include "Format.h"

#include <QtCore/QUrlQuery>
#include <QtGui/QFontDatabase>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QGridLayout>
#include <QtWidgets/QGroupBox>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QPlainTextEdit>
#include <QtWidgets/QRadioButton>
#include <QtWidgets/QVBoxLayout>

namespace streamscope::ui {

BinancePage::BinancePage(QWidget *parent)
    : QWidget(parent)
{
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
    m_klineInterval->setCurrentText(
        BinanceStreamBuilder::marketPresets(Market::Spot).defaultValue(QStringLiteral("interval")));
    m_depth = new QCheckBox(tr("partial depth"));
    m_depth->setObjectName(QStringLiteral("depth"));
    m_depthLevels = new QComboBox;
    m_depthLevels->setObjectName(QStringLiteral("depthLevels"));
    m_depthLevels->addItems(BinanceStreamBuilder::marketPresets(Market::Spot).values(QStringLiteral("levels")));
    m_depthLevels->setCurrentText(
        BinanceStreamBuilder::marketPresets(Market::Spot).defaultValue(QStringLiteral("levels")));
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
                                .arg(BinanceStreamBuilder::maxStreamsInUrl()));
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
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form);
    layout->addWidget(types);
    layout->addLayout(delivery);
    layout->addWidget(new QLabel(tr("Preview:")));
    layout->addWidget(m_preview, 1);

    for (QCheckBox *box : {m_trade, m_aggTrade, m_kline, m_depth, m_diff, m_bookTicker})
        connect(box, &QCheckBox::toggled, this, &BinancePage::onChoiceChanged);
    for (QComboBox *box : {m_klineInterval, m_depthLevels, m_depthSpeed, m_diffSpeed})
        connect(box, &QComboBox::currentIndexChanged, this, &BinancePage::onChoiceChanged);
    connect(m_endpoint, &QComboBox::currentTextChanged, this, &BinancePage::onChoiceChanged);
    connect(m_symbols, &QLineEdit::textChanged, this, &BinancePage::onChoiceChanged);
    connect(m_inUrl, &QRadioButton::toggled, this, &BinancePage::onChoiceChanged);
}

BinancePage::Market BinancePage::marketOf(const StreamConfig &config)
{
    return config.url.host().startsWith(QLatin1String("fstream")) ? Market::UsdmFutures : Market::Spot;
}

void BinancePage::setMarket(Market market)
{
    m_market = market;
    const QString current = m_endpoint->currentText();
    m_endpoint->blockSignals(true);
    m_endpoint->clear();
    // The default host, then the alternatives: spot's market-data-only host, the futures testnet.
    m_endpoint->addItems(BinanceStreamBuilder::endpoints(market));
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
    onChoiceChanged();
}

BinanceRequest BinancePage::request() const
{
    BinanceRequest r;
    r.market = m_market;
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

bool BinancePage::selectChannel(const QString &channel)
{
    for (QCheckBox *box : {m_trade, m_aggTrade, m_kline, m_depth, m_diff, m_bookTicker}) {
        if (box->objectName() == channel && box->isEnabled()) {
            box->setChecked(true);
            return true;
        }
    }
    return false;
}

QString BinancePage::suggestedName() const
{
    const QStringList symbols = BinanceStreamBuilder::parseSymbols(m_symbols->text(), nullptr);
    QString name = (m_market == Market::UsdmFutures ? QStringLiteral("binance-fut-") : QStringLiteral("binance-"))
        + (symbols.isEmpty() ? QStringLiteral("stream") : symbols.first());
    if (symbols.size() > 1)
        name += QStringLiteral("-and-%1-more").arg(symbols.size() - 1);
    return name;
}

void BinancePage::onChoiceChanged()
{
    const BinanceStreams s = BinanceStreamBuilder::build(request());
    if (!s.ok) {
        m_preview->setPlainText(s.error);
    } else {
        QString text = countNoun(quint64(s.streams.size()), tr("stream"), tr("streams")) + QLatin1Char('\n');
        text += tr("URL: ") + s.url.toString() + QLatin1Char('\n');
        if (!s.subscribe.isEmpty())
            text += tr("SUBSCRIBE after connect: ") + s.subscribe.join(QStringLiteral(", "));
        m_preview->setPlainText(text);
    }
    emit changed();
}

bool BinancePage::toConfig(StreamConfig &config, QString *error) const
{
    const BinanceStreams s = BinanceStreamBuilder::build(request());
    if (!s.ok) {
        *error = s.error;
        return false;
    }
    config.venue = BinanceStreamBuilder::presets().venue;
    config.url = s.url;
    config.subscribe = s.subscribe;
    return true;
}

bool BinancePage::fromConfig(const StreamConfig &config)
{
    // Recover symbols and types from the URL and SUBSCRIBE list; give up unless rebuilding
    // gives exactly the same streams.
    QStringList names =
        QUrlQuery(config.url).queryItemValue(QStringLiteral("streams")).split(QLatin1Char('/'), Qt::SkipEmptyParts);
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
    const BinanceStreams rebuilt = BinanceStreamBuilder::build(request());
    return rebuilt.ok && rebuilt.url == config.url && rebuilt.subscribe == config.subscribe;
}

} // namespace streamscope::ui
