#include "ConnectAgentDialog.h"

#include "InputFile.h"
#include "SecretStore.h"
#include "UrlSecrets.h"

#include <QtCore/QFileInfo>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QFileDialog>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QVBoxLayout>

namespace streamscope::ui {

ConnectAgentDialog::ConnectAgentDialog(const QStringList &taken, QWidget *parent)
    : QDialog(parent)
    , m_taken(taken)
{
    setWindowTitle(tr("Connect to agent"));
    m_url = new QLineEdit;
    m_url->setObjectName(QStringLiteral("agentUrl"));
    m_url->setPlaceholderText(QStringLiteral("http://127.0.0.1:9464"));
    m_url->setToolTip(tr("The agent's metrics endpoint (streamscope --headless --metrics-port N)"));
    m_name = new QLineEdit;
    m_name->setObjectName(QStringLiteral("agentName"));
    m_name->setPlaceholderText(tr("the host's name"));
    m_name->setToolTip(tr("Shown after each of its streams' names: \"btc-trades @ NAME\""));
    m_user = new QLineEdit;
    m_user->setObjectName(QStringLiteral("agentUser"));
    m_user->setPlaceholderText(tr("only with --metrics-auth-file"));
    m_password = new QLineEdit;
    m_password->setObjectName(QStringLiteral("agentPassword"));
    m_password->setEchoMode(QLineEdit::Password);
    m_ca = new QLineEdit;
    m_ca->setObjectName(QStringLiteral("agentCa"));
    m_ca->setPlaceholderText(tr("https only: a CA certificate (PEM) besides the system's"));
    auto *browse = new QPushButton(tr("Browse…"));
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("CA certificate"), QString(),
                                                          tr("PEM certificates (*.pem *.crt);;All files (*)"));
        if (!path.isEmpty())
            m_ca->setText(path);
    });
    auto *caRow = new QHBoxLayout;
    caRow->addWidget(m_ca, 1);
    caRow->addWidget(browse);

    m_error = new QLabel;
    m_error->setObjectName(QStringLiteral("agentError"));
    m_error->setTextFormat(Qt::PlainText);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #d73a49;"));
    m_error->hide();

    auto *form = new QFormLayout;
    form->addRow(tr("Agent URL"), m_url);
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("User"), m_user);
    form->addRow(tr("Password"), m_password);
    form->addRow(tr("CA certificate"), caRow);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Connect"));
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (validate())
            accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    auto *note = new QLabel(tr("The agent's streams appear in the table beside yours, read-only: their rates, "
                               "latency, states and alerts, refreshed once a second."));
    note->setWordWrap(true);
    layout->addWidget(note);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
}

QString ConnectAgentDialog::error() const
{
    return m_error->isHidden() ? QString() : m_error->text();
}

bool ConnectAgentDialog::validate()
{
    const auto fail = [this](const QString &text) {
        m_error->setText(text);
        m_error->show();
        return false;
    };
    const QUrl url(m_url->text().trimmed(), QUrl::StrictMode);
    if (!url.isValid() || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https"))
        || url.host().isEmpty() || url.port() <= 0)
        return fail(tr("Agent URL: expected http://HOST:PORT or https://HOST:PORT"));
    if (!url.userInfo().isEmpty())
        return fail(tr("Agent URL: give the user and password in their own fields, not in the URL"));
    // The same check as every URL's: the agent's URL is shown and saved, and a token in it
    // would be sent with every poll.
    if (const UrlSecret secret = findUrlSecret(url); secret.found())
        return fail(tr("Agent URL: %1 carries a credential; give the user and password in their own fields")
                        .arg(secret.describe()));
    const QString name = m_name->text().trimmed().isEmpty() ? url.host() : m_name->text().trimmed();
    if (m_taken.contains(name))
        return fail(tr("Name: \"%1\" is another agent's already").arg(name));
    const QString user = m_user->text();
    const QString password = m_password->text();
    if (user.isEmpty() != password.isEmpty())
        return fail(tr("User and password: give both or neither"));
    if (user.contains(QLatin1Char(':')))
        return fail(tr("User: a user name cannot hold ':'"));
    RemoteAgent::Settings s;
    s.name = name;
    s.url = url;
    s.user = user;
    // A reference ("env:AGENT_PASSWORD") is kept as such; a password typed in goes to the
    // keychain when the agent is connected (MainWindow), and the workspace refers to it there.
    if (SecretStore::isReference(password))
        s.passwordRef = password;
    else if (!user.isEmpty())
        s.basicAuth = (user + QLatin1Char(':') + password).toUtf8();
    if (!m_ca->text().isEmpty()) {
        InputFile::Limits limits;
        limits.maxBytes = InputFile::kMaxPemBytes;
        limits.timeout = InputFile::kSmallFileTimeout;
        QString why;
        const std::optional<QByteArray> pem = InputFile::readAll(m_ca->text(), limits, &why);
        if (!pem)
            return fail(tr("CA certificate: %1").arg(why));
        s.caCertificates = QSslCertificate::fromData(*pem, QSsl::Pem);
        s.caFile = QFileInfo(m_ca->text()).absoluteFilePath();
        if (s.caCertificates.isEmpty())
            return fail(tr("CA certificate: %1: expected a PEM certificate").arg(m_ca->text()));
    }
    m_settings = s;
    m_error->hide();
    return true;
}

} // namespace streamscope::ui
