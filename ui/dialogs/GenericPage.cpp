#include "GenericPage.h"

#include "UrlSecrets.h"
#include "Workspace.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QRegularExpression>
#include <QtGui/QFontDatabase>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QPlainTextEdit>

namespace streamscope::ui {

GenericPage::GenericPage(QWidget *parent)
    : QWidget(parent)
{
    m_url = new QLineEdit;
    m_url->setObjectName(QStringLiteral("url"));
    m_url->setPlaceholderText(QStringLiteral("wss://example.com/feed  or  tls://host:443"));
    m_url->setToolTip(
        tr("ws:// and wss:// are websockets; tcp:// and tls:// carry one JSON message per CRLF-terminated line"));
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

    auto *form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("&URL:"), m_url);
    form->addRow(tr("&Headers:"), m_headers);
    form->addRow(tr("&Send on connect:"), m_sendOnConnect);
    // A row of two widgets: its label needs the field as buddy, or it shows the "&" itself.
    auto *latencyLabel = new QLabel(tr("&Latency field:"));
    latencyLabel->setBuddy(m_latencyField);
    form->addRow(latencyLabel, latency);

    connect(m_url, &QLineEdit::textChanged, this, &GenericPage::changed);
}

void GenericPage::fromConfig(const StreamConfig &config)
{
    m_url->setText(config.url.toString());
    QStringList headerLines;
    for (const auto &h : config.headers)
        headerLines.append(h.first + QStringLiteral(": ") + h.second);
    m_headers->setPlainText(headerLines.join(QLatin1Char('\n')));
    m_sendOnConnect->setPlainText(config.sendOnConnect.join(QLatin1Char('\n')));
    setLatency(config.latencyField, config.latencyUnit);
}

void GenericPage::setLatency(const QString &pointer, LatencyUnit unit)
{
    m_latencyField->setText(pointer);
    const int i = m_latencyUnit->findData(int(unit));
    if (i >= 0)
        m_latencyUnit->setCurrentIndex(i);
}

QString GenericPage::suggestedName() const
{
    const QUrl url(m_url->text().trimmed());
    return url.host().isEmpty() ? QStringLiteral("stream") : url.host();
}

bool GenericPage::toConfig(StreamConfig &c, QString *error) const
{
    const QString text = m_url->text().trimmed();
    const QUrl url(text, QUrl::StrictMode);
    static const QStringList schemes = {QStringLiteral("ws"), QStringLiteral("wss"), QStringLiteral("tcp"),
                                        QStringLiteral("tls")};
    if (text.isEmpty()) {
        *error = tr("Enter the URL, for example wss://example.com/feed.");
        return false;
    }
    if (!url.isValid() || !schemes.contains(url.scheme()) || url.host().isEmpty()) {
        *error = tr("URL \"%1\" is not valid: it must start with ws://, wss://, tcp:// or tls:// and name a host.")
                     .arg(text);
        return false;
    }
    switch (const UrlSecret secret = findUrlSecret(url); secret.part) {
    case UrlSecret::Part::None: break;
    case UrlSecret::Part::Password:
        *error = tr("The URL holds a password: secrets are never stored in a workspace. Send it in a header whose "
                    "value is env:NAME or keychain:NAME.");
        return false;
    case UrlSecret::Part::PathParameter:
    case UrlSecret::Part::QueryParameter:
    case UrlSecret::Part::FragmentParameter:
        *error = tr("The URL's %1 parameter %2 carries a credential: write its value as env:NAME or "
                    "keychain:NAME; secrets are never stored in a workspace.")
                     .arg(secret.part == UrlSecret::Part::PathParameter        ? tr("path")
                              : secret.part == UrlSecret::Part::QueryParameter ? tr("query")
                                                                               : tr("fragment"),
                          secret.name);
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
        const QString value = line.mid(colon + 1).trimmed();
        if (Workspace::isLiteralCredential(name, value)) {
            *error = tr("Header %1 carries a credential: write its value as env:NAME or keychain:NAME; secrets are "
                        "never stored in a workspace.")
                         .arg(name);
            return false;
        }
        headers.append({name, value});
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
        *error =
            tr("Latency field \"%1\" is not a JSON pointer: it must start with /, for example /data/E.").arg(pointer);
        return false;
    }
    c.venue = Venue::Generic;
    c.url = url;
    c.headers = headers;
    c.sendOnConnect = send;
    c.latencyField = pointer;
    c.latencyUnit = LatencyUnit(m_latencyUnit->currentData().toInt());
    return true;
}

} // namespace streamscope::ui
