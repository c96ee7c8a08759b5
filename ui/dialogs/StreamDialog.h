#pragma once

// Add / edit a stream. Hosts one page per preset — BinancePage (spot and USD-M futures),
// BetfairPage, VenuePage (one preset per venue of "channel:instrument" subscriptions: OKX,
// Bybit, Coinbase, Kraken, Hyperliquid), GenericPage (ws/wss/tcp/tls) — plus what every preset
// shares: the name, decode mode, websocket client, stall timeout and the stream's alert
// thresholds. A Find box searches the channels of every venue and opens the one picked. Every input is validated
// with a message that says what to change before the dialog accepts. The dialog never
// touches the keychain or the engine: the caller reads config(), alertRule() and
// secrets(). Owns its pages and widgets. GUI thread only.

#include "AlertRule.h"
#include "StreamConfig.h"

#include <QtCore/QHash>
#include <QtCore/QPair>
#include <QtWidgets/QDialog>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QStackedWidget;

namespace streamscope::ui {

using alerts::AlertRule;

class BetfairPage;
class BinancePage;
class GenericPage;
class VenuePage;

class StreamDialog : public QDialog {
    Q_OBJECT
public:
    // BinanceOwnUrl: Binance's protocol (decoding, SUBSCRIBE) on a URL of the user's that the
    // Binance page cannot build (a replay server's, the demo's); its page is the generic one.
    // ChannelVenue: the venue is the preset entry's (setVenue()).
    enum class Preset { Unknown = 0, BinanceSpot, BinanceFutures, Betfair, Generic, BinanceOwnUrl, ChannelVenue };

    // `existingNames`: names already used by other streams (must not be reused).
    explicit StreamDialog(const QStringList &existingNames, QWidget *parent = nullptr);

    // Edit mode: fills the dialog from an existing stream.
    void setConfig(const StreamConfig &config, const AlertRule &rule);
    void setPreset(Preset preset);
    Preset preset() const;
    // The preset of `venue` (Binance: spot; a channel venue: its own).
    void setVenue(Venue venue);
    // Opens what the Find box's entry `text` names ("OKX · Public · books"); false when none.
    bool findChannel(const QString &text);

    // Validates and builds; on failure returns false and sets `error` (also shown in the dialog).
    bool validate(QString *error = nullptr);
    StreamConfig config() const { return m_config; }
    AlertRule alertRule() const { return m_rule; }
    // Secrets typed in clear: (keychain name, value) to store; config() refers to them.
    QList<QPair<QString, QString>> secrets() const { return m_secrets; }

    void accept() override;

private:
    QWidget *buildOptions();
    QWidget *buildFind();
    void onPresetChanged();
    void onPageChanged();
    void showError(const QString &error);
    QString suggestedName() const;

    QStringList m_existingNames;
    QString m_originalName;
    StreamConfig m_original;
    bool m_editing = false;

    QLineEdit *m_name = nullptr;
    QComboBox *m_preset = nullptr;
    QStackedWidget *m_pages = nullptr;
    BinancePage *m_binance = nullptr;
    BetfairPage *m_betfair = nullptr;
    GenericPage *m_generic = nullptr;
    VenuePage *m_venue = nullptr;
    QLineEdit *m_find = nullptr;
    // The Find box's entries: what each opens.
    struct FindTarget {
        Venue venue;
        QString market;
        QString channel;
    };
    QHash<QString, FindTarget> m_findTargets;

    // Options and alerts, common to every preset
    QComboBox *m_mode = nullptr;
    QComboBox *m_transport = nullptr;
    QSpinBox *m_stallS = nullptr;
    QCheckBox *m_reconnectOnStall = nullptr;
    QDoubleSpinBox *m_alertRate = nullptr;
    QDoubleSpinBox *m_alertP99 = nullptr;
    QSpinBox *m_alertSilent = nullptr;
    QCheckBox *m_alertGaps = nullptr;

    QLabel *m_error = nullptr;

    StreamConfig m_config;
    AlertRule m_rule;
    QList<QPair<QString, QString>> m_secrets;
};

} // namespace streamscope::ui
