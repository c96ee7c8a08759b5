#include "NotifyDialog.h"

#include "Notifier.h"
#include "Workspace.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QListWidget>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QSpinBox>
#include <QtWidgets/QVBoxLayout>

#include <algorithm>

namespace streamscope::ui {

NotifyDialog::NotifyDialog(alerts::Notifier *notifier, QWidget *parent)
    : QDialog(parent)
    , m_notifier(notifier)
{
    setWindowTitle(tr("Alert destinations"));
    m_list = new QListWidget;
    m_list->setObjectName(QStringLiteral("destinations"));
    auto *add = new QPushButton(tr("Add"));
    add->setObjectName(QStringLiteral("add"));
    m_remove = new QPushButton(tr("Remove"));
    m_remove->setObjectName(QStringLiteral("remove"));
    auto *listButtons = new QHBoxLayout;
    listButtons->addWidget(add);
    listButtons->addWidget(m_remove);
    listButtons->addStretch(1);

    m_type = new QComboBox;
    m_type->setObjectName(QStringLiteral("type"));
    for (auto t : {NotifyTarget::Type::Webhook, NotifyTarget::Type::Slack, NotifyTarget::Type::Telegram})
        m_type->addItem(NotifyTarget::typeName(t), int(t));
    m_url = new QLineEdit;
    m_url->setObjectName(QStringLiteral("url"));
    m_token = new QLineEdit;
    m_token->setObjectName(QStringLiteral("token"));
    m_token->setPlaceholderText(QStringLiteral("env:TELEGRAM_BOT_TOKEN"));
    m_chatId = new QLineEdit;
    m_chatId->setObjectName(QStringLiteral("chatId"));
    m_maxPerMinute = new QSpinBox;
    m_maxPerMinute->setObjectName(QStringLiteral("maxPerMinute"));
    m_maxPerMinute->setRange(1, 600);
    m_maxPerMinute->setSuffix(tr(" a minute"));
    m_test = new QPushButton(tr("Send test"));
    m_test->setObjectName(QStringLiteral("sendTest"));
    m_testResult = new QLabel;
    m_testResult->setObjectName(QStringLiteral("testResult"));
    m_testResult->setWordWrap(true);
    m_testResult->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *form = m_form = new QFormLayout;
    form->addRow(tr("Type:"), m_type);
    form->addRow(tr("URL:"), m_url);
    form->addRow(tr("Bot token:"), m_token);
    form->addRow(tr("Chat id:"), m_chatId);
    form->addRow(tr("At most:"), m_maxPerMinute);
    auto *testRow = new QHBoxLayout;
    testRow->addWidget(m_test);
    testRow->addWidget(m_testResult, 1);
    form->addRow(QString(), testRow);
    auto *note = new QLabel(tr("Secrets are written as references: \"env:NAME\" (an environment variable) or "
                               "\"keychain:NAME\" (this computer's keychain). A Slack URL is itself a secret."));
    note->setObjectName(QStringLiteral("secretsNote"));
    note->setWordWrap(true);

    m_error = new QLabel;
    m_error->setObjectName(QStringLiteral("error"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #cf222e;"));
    m_error->hide();
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setObjectName(QStringLiteral("ok"));

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_list, 1);
    layout->addLayout(listButtons);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    // Wide enough for a webhook's URL, a test's answer beside its button and the note on two
    // lines: its layout alone made a narrow column of it.
    resize(std::max(sizeHint().width(), fontMetrics().horizontalAdvance(QLatin1Char('0')) * 64), sizeHint().height());

    connect(buttons, &QDialogButtonBox::accepted, this, &NotifyDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &NotifyDialog::reject);
    connect(add, &QPushButton::clicked, this, &NotifyDialog::onAdd);
    connect(m_remove, &QPushButton::clicked, this, &NotifyDialog::onRemove);
    connect(m_test, &QPushButton::clicked, this, &NotifyDialog::onSendTest);
    connect(m_list, &QListWidget::currentRowChanged, this, &NotifyDialog::onCurrentRowChanged);
    connect(m_type, &QComboBox::currentIndexChanged, this, &NotifyDialog::onFormEdited);
    for (QLineEdit *e : {m_url, m_token, m_chatId})
        connect(e, &QLineEdit::textEdited, this, &NotifyDialog::onFormEdited);
    connect(m_maxPerMinute, &QSpinBox::valueChanged, this, &NotifyDialog::onFormEdited);
    if (m_notifier)
        connect(m_notifier, &alerts::Notifier::testFinished, this, &NotifyDialog::onTestFinished);
    updateFields();
}

void NotifyDialog::setTargets(const QList<NotifyTarget> &targets)
{
    m_targets = targets;
    refreshList();
    m_list->setCurrentRow(m_targets.isEmpty() ? -1 : 0);
    updateFields();
}

void NotifyDialog::refreshList()
{
    m_loading = true;
    const int row = m_list->currentRow();
    m_list->clear();
    for (int i = 0; i < m_targets.size(); ++i) {
        const NotifyTarget &t = m_targets[i];
        QString where = t.apiUrlOrDefault();
        if (t.type == NotifyTarget::Type::Telegram)
            where += tr(", chat %1").arg(t.chatId);
        m_list->addItem(QStringLiteral("%1-%2  %3").arg(NotifyTarget::typeName(t.type)).arg(i).arg(where));
    }
    if (row >= 0 && row < m_targets.size())
        m_list->setCurrentRow(row);
    m_loading = false;
}

void NotifyDialog::updateFields()
{
    const int row = m_list->currentRow();
    const bool has = row >= 0 && row < m_targets.size();
    for (QWidget *w : std::initializer_list<QWidget *>{m_type, m_url, m_token, m_chatId, m_maxPerMinute, m_remove})
        w->setEnabled(has);
    m_test->setEnabled(has && m_notifier && m_testIndex < 0);
    if (!has)
        return;
    const NotifyTarget &t = m_targets[row];
    m_loading = true;
    m_type->setCurrentIndex(m_type->findData(int(t.type)));
    m_url->setText(t.url);
    m_token->setText(t.token);
    m_chatId->setText(t.chatId);
    m_maxPerMinute->setValue(t.maxPerMinute);
    const bool telegram = t.type == NotifyTarget::Type::Telegram;
    m_form->setRowVisible(m_token, telegram);
    m_form->setRowVisible(m_chatId, telegram);
    m_url->setPlaceholderText(telegram ? NotifyTarget::kTelegramApi
                                       : (t.type == NotifyTarget::Type::Slack ? QStringLiteral("env:SLACK_WEBHOOK_URL")
                                                                              : QStringLiteral("https://host/path")));
    m_loading = false;
}

void NotifyDialog::onCurrentRowChanged(int)
{
    if (m_loading)
        return;
    m_testResult->clear();
    updateFields();
}

void NotifyDialog::onFormEdited()
{
    const int row = m_list->currentRow();
    if (m_loading || row < 0 || row >= m_targets.size())
        return;
    NotifyTarget &t = m_targets[row];
    t.type = NotifyTarget::Type(m_type->currentData().toInt());
    t.url = m_url->text().trimmed();
    const bool telegram = t.type == NotifyTarget::Type::Telegram;
    t.token = telegram ? m_token->text().trimmed() : QString();
    t.chatId = telegram ? m_chatId->text().trimmed() : QString();
    if (t.type != NotifyTarget::Type::Webhook)
        t.headers.clear();
    t.maxPerMinute = m_maxPerMinute->value();
    refreshList();
    updateFields();
}

void NotifyDialog::onAdd()
{
    NotifyTarget t;
    t.type = NotifyTarget::Type::Webhook;
    m_targets.append(t);
    refreshList();
    m_list->setCurrentRow(int(m_targets.size()) - 1);
    m_url->setFocus();
}

void NotifyDialog::onRemove()
{
    const int row = m_list->currentRow();
    if (row < 0 || row >= m_targets.size())
        return;
    m_targets.removeAt(row);
    refreshList();
    m_list->setCurrentRow(std::min(row, int(m_targets.size()) - 1));
    updateFields();
}

void NotifyDialog::onSendTest()
{
    const int row = m_list->currentRow();
    if (!m_notifier || row < 0 || row >= m_targets.size())
        return;
    QString error;
    if (!validate({m_targets[row]}, &error)) {
        m_testResult->setText(error);
        return;
    }
    m_testIndex = row;
    m_testResult->setText(tr("Sending…"));
    m_test->setEnabled(false);
    m_notifier->sendTest(m_targets[row], row);
}

void NotifyDialog::onTestFinished(int index, bool ok, const QString &result)
{
    if (index != m_testIndex)
        return;
    m_testIndex = -1;
    m_testResult->setText(ok ? tr("Test sent: %1").arg(result) : tr("Test failed: %1").arg(result));
    updateFields();
}

bool NotifyDialog::validate(const QList<NotifyTarget> &targets, QString *error)
{
    QJsonArray array;
    for (const NotifyTarget &t : targets)
        array.append(t.toJson());
    const QJsonObject doc{{QStringLiteral("version"), Workspace::kVersion},
                          {QStringLiteral("streams"), QJsonArray()},
                          {QStringLiteral("notify"), array}};
    Workspace ws;
    const Workspace::LoadResult r =
        Workspace::parse(QJsonDocument(doc).toJson(QJsonDocument::Compact), tr("destinations"), ws);
    if (!r.ok && error)
        *error = r.error;
    return r.ok;
}

void NotifyDialog::accept()
{
    QString error;
    if (!validate(m_targets, &error)) {
        m_error->setText(error);
        m_error->show();
        return;
    }
    QDialog::accept();
}

} // namespace streamscope::ui
