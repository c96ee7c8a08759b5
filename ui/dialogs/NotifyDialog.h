#pragma once

// "Alert destinations…": the workspace's own notification destinations (every stream's
// alerts go there; a stream's own are kept in its "notify" key in the file). One list, one
// form for the selected destination (type, URL, Telegram token and chat, rate cap) and a
// "Send test" button that sends a "test" event through the window's Notifier and shows the
// result (sent / HTTP status / error). Entries are validated by the workspace loader's own
// rules, so the dialog accepts exactly what a workspace file accepts. Secrets are typed as
// references ("env:NAME", "keychain:NAME"), never as values.
//
// Thread contract: GUI thread. Does not own the notifier.

#include "NotifyTarget.h"

#include <QtWidgets/QDialog>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSpinBox;

namespace streamscope::alerts {
class Notifier;
}

namespace streamscope::ui {

class NotifyDialog : public QDialog {
    Q_OBJECT
public:
    explicit NotifyDialog(alerts::Notifier *notifier, QWidget *parent = nullptr);

    void setTargets(const QList<NotifyTarget> &targets);
    QList<NotifyTarget> targets() const { return m_targets; }
    // Checks every entry as the workspace loader would; false with `error` naming the entry.
    static bool validate(const QList<NotifyTarget> &targets, QString *error);

    void accept() override;

private:
    void onCurrentRowChanged(int row);
    void onFormEdited();
    void onAdd();
    void onRemove();
    void onSendTest();
    void onTestFinished(int index, bool ok, const QString &result);
    void refreshList();
    void updateFields();

    alerts::Notifier *m_notifier = nullptr;
    QList<NotifyTarget> m_targets;
    QFormLayout *m_form = nullptr;
    QListWidget *m_list = nullptr;
    QComboBox *m_type = nullptr;
    QLineEdit *m_url = nullptr;
    QLineEdit *m_token = nullptr;
    QLineEdit *m_chatId = nullptr;
    QSpinBox *m_maxPerMinute = nullptr;
    QPushButton *m_remove = nullptr;
    QPushButton *m_test = nullptr;
    QLabel *m_testResult = nullptr;
    QLabel *m_error = nullptr;
    int m_testIndex = -1; // the test in flight, as an index the notifier echoes
    bool m_loading = false;
};

} // namespace streamscope::ui
