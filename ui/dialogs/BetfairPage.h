#pragma once

// The stream dialog's Betfair page: host, app key and session (typed in clear, or as
// env:NAME / keychain:NAME references), market ids, market data fields, heartbeat and an
// extra trusted CA. toConfig() never puts a secret typed in clear into the config: it hands
// it back as a keychain entry to store and refers to it as keychain:NAME. Owns its widgets
// only; never touches the keychain itself.
//
// Thread contract: GUI thread only.

#include "StreamConfig.h"

#include <QtCore/QList>
#include <QtCore/QPair>
#include <QtWidgets/QWidget>

class QCheckBox;
class QLineEdit;
class QSpinBox;

namespace streamscope::ui {

class BetfairPage : public QWidget {
    Q_OBJECT
public:
    // (keychain entry name, value) of a secret typed in clear.
    using Secrets = QList<QPair<QString, QString>>;

    explicit BetfairPage(QWidget *parent = nullptr);

    void fromConfig(const StreamConfig &config);
    // Sets venue, url, appKey, session, marketSubscription, heartbeatMs and caFile of
    // `config`; keychain entries are named after config.name and appended to `secrets`.
    // False and `error` when an input is invalid.
    bool toConfig(StreamConfig &config, Secrets *secrets, QString *error) const;
    static QString suggestedName() { return QStringLiteral("betfair-markets"); }

private:
    QLineEdit *m_host = nullptr;
    QLineEdit *m_appKey = nullptr;
    QLineEdit *m_session = nullptr;
    QLineEdit *m_markets = nullptr;
    QList<QCheckBox *> m_fields;
    QSpinBox *m_heartbeat = nullptr;
    QLineEdit *m_caFile = nullptr;
};

} // namespace streamscope::ui
