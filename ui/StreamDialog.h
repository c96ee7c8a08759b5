#pragma once

// Add / edit a stream. Presets: Binance spot and USD-M futures (symbols × stream types →
// combined-stream URL and SUBSCRIBE list), Betfair (host, app key and session kept in the
// OS keychain, market ids, data fields) and generic ws/wss/tcp/tls (headers, messages to
// send on connect, latency field and unit). Alert thresholds for the stream are set here
// too. Every input is validated with a message that says what to change before the
// dialog accepts. The dialog never touches the keychain or the engine: the caller reads
// config(), alertRule() and secrets(). GUI thread only.

#include "AlertRule.h"
#include "StreamConfig.h"

#include <QtCore/QPair>
#include <QtWidgets/QDialog>

class QButtonGroup;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QRadioButton;
class QSpinBox;
class QStackedWidget;

namespace streamscope::ui {

struct BinanceRequest;

class StreamDialog : public QDialog {
    Q_OBJECT
public:
    enum class Preset { Unknown = 0, BinanceSpot, BinanceFutures, Betfair, Generic };

    // `existingNames`: names already used by other streams (must not be reused).
    explicit StreamDialog(const QStringList &existingNames, QWidget *parent = nullptr);

    // Edit mode: fills the dialog from an existing stream.
    void setConfig(const StreamConfig &config, const AlertRule &rule);
    void setPreset(Preset preset);
    Preset preset() const;

    // Validates and builds; on failure returns false and sets `error` (also shown in the dialog).
    bool validate(QString *error = nullptr);
    StreamConfig config() const { return m_config; }
    AlertRule alertRule() const { return m_rule; }
    // Secrets typed in clear: (keychain name, value) to store; config() refers to them.
    QList<QPair<QString, QString>> secrets() const { return m_secrets; }
    QString errorText() const;

    void accept() override;

private:
    QWidget *buildBinancePage();
    QWidget *buildBetfairPage();
    QWidget *buildGenericPage();
    QWidget *buildOptions();
    void onPresetChanged();
    void updatePreview();
    void showError(const QString &error);
    BinanceRequest binanceRequest() const;
    QString suggestedName() const;
    bool fillFromBinance(const StreamConfig &config);

    bool buildBinance(StreamConfig &c, QString *error) const;
    bool buildBetfair(StreamConfig &c, QString *error);
    bool buildGeneric(StreamConfig &c, QString *error) const;

    QStringList m_existingNames;
    QString m_originalName;
    StreamConfig m_original;
    bool m_editing = false;

    QLineEdit *m_name = nullptr;
    QComboBox *m_preset = nullptr;
    QStackedWidget *m_pages = nullptr;

    // Binance
    QComboBox *m_endpoint = nullptr;
    QLineEdit *m_symbols = nullptr;
    QCheckBox *m_trade = nullptr;
    QCheckBox *m_aggTrade = nullptr;
    QCheckBox *m_kline = nullptr;
    QComboBox *m_klineInterval = nullptr;
    QCheckBox *m_depth = nullptr;
    QComboBox *m_depthLevels = nullptr;
    QComboBox *m_depthSpeed = nullptr;
    QCheckBox *m_diff = nullptr;
    QComboBox *m_diffSpeed = nullptr;
    QCheckBox *m_bookTicker = nullptr;
    QRadioButton *m_inUrl = nullptr;
    QRadioButton *m_subscribe = nullptr;
    QPlainTextEdit *m_preview = nullptr;

    // Betfair
    QLineEdit *m_bfHost = nullptr;
    QLineEdit *m_bfAppKey = nullptr;
    QLineEdit *m_bfSession = nullptr;
    QLineEdit *m_bfMarkets = nullptr;
    QList<QCheckBox *> m_bfFields;
    QSpinBox *m_bfHeartbeat = nullptr;
    QLineEdit *m_bfCaFile = nullptr;

    // Generic
    QLineEdit *m_url = nullptr;
    QPlainTextEdit *m_headers = nullptr;
    QPlainTextEdit *m_sendOnConnect = nullptr;
    QLineEdit *m_latencyField = nullptr;
    QComboBox *m_latencyUnit = nullptr;

    // Options and alerts
    QComboBox *m_mode = nullptr;
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
