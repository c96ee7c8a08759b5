#include "BetfairPage.h"

#include "KeychainStore.h"
#include "VenueCatalog.h"

#include <QtCore/QJsonArray>
#include <QtCore/QRegularExpression>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QFileDialog>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QGridLayout>
#include <QtWidgets/QGroupBox>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QSpinBox>
#include <QtWidgets/QToolButton>
#include <QtWidgets/QVBoxLayout>

namespace streamscope::ui {

namespace {
// What the engine's Betfair presets offer: its hosts (the first is the default) and the market
// data fields (the first is checked by default).
const VenueMarket &exchange()
{
    static const VenuePresets betfair = VenueCatalog::presets(Venue("betfair"));
    static const VenueMarket none;
    return betfair.markets.isEmpty() ? none : betfair.markets.first();
}

QString cleanKeyPart(QString s)
{
    static const QRegularExpression bad(QStringLiteral("[^A-Za-z0-9_.-]+"));
    return s.replace(bad, QStringLiteral("-"));
}
} // namespace

BetfairPage::BetfairPage(QWidget *parent)
    : QWidget(parent)
{
    const QUrl host = exchange().endpoints.value(0);
    m_host = new QLineEdit(QStringLiteral("%1:%2").arg(host.host()).arg(host.port(443)));
    m_host->setObjectName(QStringLiteral("betfairHost"));
    m_host->setToolTip(tr("host:port of the stream API (integration: stream-api-integration.betfair.com:443)"));
    m_appKey = new QLineEdit;
    m_appKey->setObjectName(QStringLiteral("appKey"));
    m_appKey->setEchoMode(QLineEdit::PasswordEchoOnEdit);
    m_appKey->setPlaceholderText(tr("app key, or env:NAME / keychain:NAME"));
    m_session = new QLineEdit;
    m_session->setObjectName(QStringLiteral("session"));
    m_session->setEchoMode(QLineEdit::PasswordEchoOnEdit);
    m_session->setPlaceholderText(tr("session token, or env:NAME / keychain:NAME"));
    auto *secretsNote = new QLabel(tr("Secrets typed here are stored in the system keychain; the workspace file only "
                                      "refers to them (keychain:NAME). env:NAME reads an environment variable."));
    secretsNote->setWordWrap(true);
    secretsNote->setTextFormat(Qt::PlainText);
    QFont small = secretsNote->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    secretsNote->setFont(small);
    m_markets = new QLineEdit;
    m_markets->setObjectName(QStringLiteral("marketIds"));
    m_markets->setPlaceholderText(tr("1.120684740, 1.120684741"));
    auto *fields = new QGroupBox(tr("Market data fields"));
    auto *fieldGrid = new QGridLayout(fields);
    int i = 0;
    for (const QString &f : exchange().values(QStringLiteral("fields"))) {
        auto *box = new QCheckBox(f);
        box->setObjectName(f);
        box->setChecked(i == 0);
        fieldGrid->addWidget(box, i / 3, i % 3);
        m_fields.append(box);
        ++i;
    }
    m_heartbeat = new QSpinBox;
    m_heartbeat->setObjectName(QStringLiteral("heartbeat"));
    m_heartbeat->setRange(500, 30000);
    m_heartbeat->setSingleStep(500);
    m_heartbeat->setValue(5000);
    m_heartbeat->setSuffix(QStringLiteral(" ms"));
    m_caFile = new QLineEdit;
    m_caFile->setObjectName(QStringLiteral("caFile"));
    m_caFile->setPlaceholderText(tr("optional extra trusted CA (PEM)"));
    auto *browse = new QToolButton;
    browse->setText(QStringLiteral("…"));
    browse->setToolTip(tr("Choose a CA certificate file"));
    connect(browse, &QToolButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Trusted CA certificate"), QString(),
                                                       tr("PEM certificates (*.pem *.crt);;All files (*)"));
        if (!f.isEmpty())
            m_caFile->setText(f);
    });
    auto *caRow = new QHBoxLayout;
    caRow->addWidget(m_caFile, 1);
    caRow->addWidget(browse);

    auto *form = new QFormLayout;
    form->addRow(tr("&Host:"), m_host);
    form->addRow(tr("&App key:"), m_appKey);
    form->addRow(tr("S&ession:"), m_session);
    form->addRow(QString(), secretsNote);
    form->addRow(tr("&Market ids:"), m_markets);
    form->addRow(tr("Heart&beat:"), m_heartbeat);
    form->addRow(tr("CA file:"), caRow);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form);
    layout->addWidget(fields);
    layout->addStretch();
}

void BetfairPage::fromConfig(const StreamConfig &config)
{
    m_host->setText(QStringLiteral("%1:%2").arg(config.url.host()).arg(config.url.port(443)));
    m_appKey->setText(config.appKey);
    m_session->setText(config.session);
    QStringList ids;
    const QJsonArray idArray = config.marketSubscription.value(QStringLiteral("marketFilter"))
                                   .toObject()
                                   .value(QStringLiteral("marketIds"))
                                   .toArray();
    for (const QJsonValue &v : idArray)
        ids.append(v.toString());
    m_markets->setText(ids.join(QStringLiteral(", ")));
    const QJsonArray fields = config.marketSubscription.value(QStringLiteral("marketDataFilter"))
                                  .toObject()
                                  .value(QStringLiteral("fields"))
                                  .toArray();
    for (QCheckBox *box : m_fields)
        box->setChecked(fields.contains(box->text()));
    m_heartbeat->setValue(config.heartbeatMs);
    m_caFile->setText(config.caFile);
}

bool BetfairPage::toConfig(StreamConfig &c, Secrets *secrets, QString *error) const
{
    const QString host = m_host->text().trimmed();
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
        secrets->append({key, v});
        *ref = QLatin1String(KeychainStore::kPrefix) + key;
        return true;
    };
    if (!secretRef(m_appKey, tr("app key"), QStringLiteral("app-key"), &c.appKey)
        || !secretRef(m_session, tr("session token"), QStringLiteral("session"), &c.session))
        return false;

    static const QRegularExpression marketId(QStringLiteral("^\\d+\\.\\d+$"));
    static const QRegularExpression separators(QStringLiteral("[\\s,;]+"));
    const QStringList ids = m_markets->text().split(separators, Qt::SkipEmptyParts);
    if (ids.isEmpty()) {
        *error = tr("Enter at least one market id, for example 1.120684740.");
        return false;
    }
    QJsonArray idArray;
    for (const QString &id : ids) {
        if (!marketId.match(id).hasMatch()) {
            *error = tr("Market id \"%1\" is not valid: expected digits, a dot and digits, for example 1.120684740.")
                         .arg(id);
            return false;
        }
        idArray.append(id);
    }
    QJsonArray fields;
    for (QCheckBox *box : m_fields) {
        if (box->isChecked())
            fields.append(box->text());
    }
    if (fields.isEmpty()) {
        *error = tr("Pick at least one market data field, for example EX_BEST_OFFERS.");
        return false;
    }
    c.venue = Venue("betfair");
    c.url = full;
    c.marketSubscription =
        QJsonObject{{QStringLiteral("marketFilter"), QJsonObject{{QStringLiteral("marketIds"), idArray}}},
                    {QStringLiteral("marketDataFilter"), QJsonObject{{QStringLiteral("fields"), fields}}}};
    c.heartbeatMs = m_heartbeat->value();
    c.caFile = m_caFile->text().trimmed();
    return true;
}

} // namespace streamscope::ui
