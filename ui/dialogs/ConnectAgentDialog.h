#pragma once

// File → Connect to agent…: the address of a headless agent's metrics endpoint, the name its
// streams are shown with, and the user, password and CA certificate it may require
// (--metrics-auth-file, --metrics-tls-cert). Checks what it can before accepting. GUI thread.

#include "RemoteAgent.h"

#include <QtWidgets/QDialog>

class QLabel;
class QLineEdit;

namespace streamscope::ui {

class ConnectAgentDialog : public QDialog {
    Q_OBJECT
public:
    // `taken`: names already in use (another agent's), refused.
    explicit ConnectAgentDialog(const QStringList &taken, QWidget *parent = nullptr);

    // The settings entered; valid once accepted.
    RemoteAgent::Settings settings() const { return m_settings; }
    // Fills the settings from the fields; false with the reason shown when they do not hold.
    bool validate();

    QLineEdit *urlEdit() const { return m_url; }
    QLineEdit *nameEdit() const { return m_name; }
    QLineEdit *userEdit() const { return m_user; }
    QLineEdit *passwordEdit() const { return m_password; }
    QLineEdit *caEdit() const { return m_ca; }
    QString error() const;

private:
    QStringList m_taken;
    QLineEdit *m_url = nullptr;
    QLineEdit *m_name = nullptr;
    QLineEdit *m_user = nullptr;
    QLineEdit *m_password = nullptr;
    QLineEdit *m_ca = nullptr;
    QLabel *m_error = nullptr;
    RemoteAgent::Settings m_settings;
};

} // namespace streamscope::ui
