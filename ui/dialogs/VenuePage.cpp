#include "VenuePage.h"

#include "ChannelSubscription.h"
#include "VenueCatalog.h"

#include <QtCore/QRegularExpression>
#include <QtGui/QFontDatabase>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QListWidget>
#include <QtWidgets/QPlainTextEdit>
#include <QtWidgets/QVBoxLayout>

#include <algorithm>

namespace streamscope::ui {

namespace {

constexpr int kMaxInstrumentChars = 64;

// The instruments as typed: separated by commas or white space, in order, once each.
QStringList splitInstruments(const QString &text)
{
    static const QRegularExpression separators(QStringLiteral("[,\\s]+"));
    QStringList out;
    for (const QString &s : text.split(separators, Qt::SkipEmptyParts))
        if (!out.contains(s))
            out << s;
    return out;
}

} // namespace

VenuePage::VenuePage(QWidget *parent)
    : QWidget(parent)
{
    m_market = new QComboBox;
    m_market->setObjectName(QStringLiteral("venueMarket"));
    m_marketLabel = new QLabel(tr("&Market:"));
    m_marketLabel->setBuddy(m_market);
    m_endpoint = new QComboBox;
    m_endpoint->setObjectName(QStringLiteral("venueEndpoint"));
    m_endpoint->setEditable(true);
    m_endpoint->setToolTip(tr("Websocket URL: the venue's, a testnet's or a local replay server's"));
    m_instruments = new QLineEdit;
    m_instruments->setObjectName(QStringLiteral("venueInstruments"));
    m_instruments->setToolTip(tr("Instruments as the venue names them, separated by commas or spaces"));
    m_channels = new QListWidget;
    m_channels->setObjectName(QStringLiteral("venueChannels"));
    m_channels->setToolTip(tr("Channels to subscribe, for every instrument"));
    m_channels->setMaximumHeight(130);
    m_kept = new QLabel;
    m_kept->setObjectName(QStringLiteral("venueKept"));
    m_kept->setWordWrap(true);
    m_kept->hide();
    m_preview = new QPlainTextEdit;
    m_preview->setObjectName(QStringLiteral("venuePreview"));
    m_preview->setReadOnly(true);
    m_preview->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_preview->setMinimumHeight(90);
    m_preview->setToolTip(tr("The URL, and what each connection sends when it comes up"));

    auto *form = new QFormLayout;
    form->addRow(m_marketLabel, m_market);
    form->addRow(tr("&Endpoint:"), m_endpoint);
    form->addRow(tr("&Instruments:"), m_instruments);
    form->addRow(tr("&Channels:"), m_channels);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form);
    layout->addWidget(m_kept);
    layout->addWidget(new QLabel(tr("Preview:")));
    layout->addWidget(m_preview, 1);

    connect(m_market, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_filling)
            fillMarket();
    });
    connect(m_endpoint, &QComboBox::currentTextChanged, this, &VenuePage::updatePreview);
    // A choice of the user's replaces a stored stream's own list.
    const auto chosen = [this] {
        if (m_filling)
            return;
        m_keptPairs.clear();
        m_kept->hide();
        onChoiceChanged();
    };
    connect(m_instruments, &QLineEdit::textEdited, this, chosen);
    connect(m_channels, &QListWidget::itemChanged, this, chosen);

    const QList<Venue> all = venues();
    if (!all.isEmpty())
        setVenue(all.first());
}

QList<Venue> VenuePage::venues()
{
    QList<Venue> out;
    for (const Venue &v : VenueCatalog::venues())
        if (VenueCatalog::channelSubscriptions(v))
            out << v;
    return out;
}

void VenuePage::setVenue(Venue venue)
{
    if (venue == m_presets.venue)
        return;
    m_presets = VenueCatalog::presets(venue);
    m_keptPairs.clear();
    m_filling = true;
    m_market->clear();
    for (const VenueMarket &m : m_presets.markets)
        m_market->addItem(m.title, m.id);
    m_filling = false;
    const bool several = m_presets.markets.size() > 1;
    m_market->setVisible(several);
    m_marketLabel->setVisible(several);
    m_instruments->setPlaceholderText(m_presets.exampleInstruments.join(QStringLiteral(", ")));
    fillMarket();
}

const VenueMarket *VenuePage::currentMarket() const
{
    return m_presets.market(m_market->currentData().toString());
}

// The market's endpoints and channels; the channels checked before stay checked where the
// market has them.
void VenuePage::fillMarket()
{
    const QStringList wasChecked = checkedChannels();
    const VenueMarket *market = currentMarket();
    m_filling = true;
    const QString typed = m_endpoint->currentText();
    const bool ownEndpoint = m_endpoint->findText(typed) < 0 && !typed.isEmpty();
    m_endpoint->clear();
    m_channels->clear();
    if (market) {
        for (const QUrl &url : market->endpoints)
            m_endpoint->addItem(url.toString());
        for (const QString &channel : market->channels) {
            auto *item = new QListWidgetItem(channel, m_channels);
            item->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled);
            item->setCheckState(wasChecked.contains(channel) ? Qt::Checked : Qt::Unchecked);
        }
    }
    if (ownEndpoint)
        m_endpoint->setEditText(typed);
    m_filling = false;
    onChoiceChanged();
}

void VenuePage::select(const QString &marketId, const QString &channel)
{
    const int i = m_market->findData(marketId);
    if (i >= 0)
        m_market->setCurrentIndex(i);
    const QList<QListWidgetItem *> found = m_channels->findItems(channel, Qt::MatchExactly);
    if (!found.isEmpty())
        found.first()->setCheckState(Qt::Checked);
}

QStringList VenuePage::instruments() const
{
    return splitInstruments(m_instruments->text());
}

QStringList VenuePage::checkedChannels() const
{
    QStringList out;
    for (int i = 0; i < m_channels->count(); ++i)
        if (m_channels->item(i)->checkState() == Qt::Checked)
            out << m_channels->item(i)->text();
    return out;
}

QStringList VenuePage::pairs() const
{
    if (!m_keptPairs.isEmpty())
        return m_keptPairs;
    QStringList out;
    for (const QString &instrument : instruments())
        for (const QString &channel : checkedChannels())
            out << ChannelSubscription{channel, instrument}.text();
    return out;
}

void VenuePage::onChoiceChanged()
{
    if (m_filling)
        return;
    updatePreview();
    emit changed();
}

void VenuePage::updatePreview()
{
    if (m_filling)
        return;
    StreamConfig c;
    QString error;
    if (!toConfig(c, &error)) {
        m_preview->setPlainText(error);
        return;
    }
    QStringList lines{c.url.toString()};
    const QList<QStringList> opening = VenueCatalog::openingMessages(c);
    const int shown = std::min(int(opening.size()), kPreviewConnections);
    for (int i = 0; i < shown; ++i) {
        if (opening.size() > 1)
            lines << tr("connection %1 of %2:").arg(i + 1).arg(opening.size());
        for (const QString &text : opening[i])
            lines << QStringLiteral("→ ") + text;
    }
    if (opening.size() > shown)
        lines << tr("… and %n more connection(s)", nullptr, int(opening.size()) - shown);
    m_preview->setPlainText(lines.join(QLatin1Char('\n')));
}

void VenuePage::fromConfig(const StreamConfig &config)
{
    setVenue(config.venue);
    QStringList instrumentsSeen;
    QStringList channelsSeen;
    for (const QString &entry : config.subscribe) {
        if (const std::optional<ChannelSubscription> pair = ChannelSubscription::parse(entry)) {
            if (!instrumentsSeen.contains(pair->instrument))
                instrumentsSeen << pair->instrument;
            if (!channelsSeen.contains(pair->channel))
                channelsSeen << pair->channel;
        }
    }
    // The market whose endpoints hold the stream's URL, else the first.
    m_filling = true;
    for (int i = 0; i < int(m_presets.markets.size()); ++i)
        if (m_presets.markets[i].endpoints.contains(config.url))
            m_market->setCurrentIndex(i);
    m_filling = false;
    fillMarket();
    m_filling = true;
    m_endpoint->setEditText(config.url.toString());
    m_instruments->setText(instrumentsSeen.join(QStringLiteral(", ")));
    for (int i = 0; i < m_channels->count(); ++i) {
        QListWidgetItem *item = m_channels->item(i);
        item->setCheckState(channelsSeen.contains(item->text()) ? Qt::Checked : Qt::Unchecked);
    }
    m_filling = false;
    m_keptPairs.clear();
    if (pairs() != config.subscribe) {
        m_keptPairs = config.subscribe;
        m_kept->setText(tr("This stream's %n subscription(s) are kept as they are until you change the instruments "
                           "or the channels.",
                           nullptr, int(config.subscribe.size())));
        m_kept->show();
    } else {
        m_kept->hide();
    }
    updatePreview();
}

bool VenuePage::toConfig(StreamConfig &config, QString *error) const
{
    const QUrl url(m_endpoint->currentText().trimmed(), QUrl::StrictMode);
    const QString scheme = url.scheme();
    if (!url.isValid() || url.host().isEmpty() || (scheme != QLatin1String("ws") && scheme != QLatin1String("wss"))) {
        *error = tr("The endpoint must be a ws:// or wss:// URL with a host.");
        return false;
    }
    if (m_keptPairs.isEmpty()) {
        const QStringList typed = instruments();
        if (typed.isEmpty()) {
            *error = tr("Name at least one instrument (for example %1).").arg(m_presets.exampleInstruments.value(0));
            return false;
        }
        for (const QString &instrument : typed) {
            if (instrument.size() > kMaxInstrumentChars
                || !ChannelSubscription::parse(QStringLiteral("c:") + instrument)) {
                *error = tr("The instrument \"%1\" is not valid: at most %2 characters, without control characters.")
                             .arg(instrument.left(kMaxInstrumentChars), QString::number(kMaxInstrumentChars));
                return false;
            }
        }
        if (checkedChannels().isEmpty()) {
            *error = tr("Choose at least one channel.");
            return false;
        }
    }
    config.venue = m_presets.venue;
    config.url = url;
    config.subscribe = pairs();
    return true;
}

QString VenuePage::suggestedName() const
{
    const QStringList typed = instruments();
    QString name = venueName(m_presets.venue);
    if (!typed.isEmpty()) {
        static const QRegularExpression unsafe(QStringLiteral("[^a-z0-9]+"));
        name += QLatin1Char('-') + typed.first().toLower().replace(unsafe, QStringLiteral("-"));
        if (typed.size() > 1)
            name += QStringLiteral("-and-%1-more").arg(typed.size() - 1);
    }
    return name;
}

} // namespace streamscope::ui
