#pragma once

// The stream dialog's Binance page: endpoint, symbols, stream types with their interval,
// levels and update speeds, delivery (all in the URL or SUBSCRIBE after connect) and a
// preview of what will be connected. fromConfig() recovers the choices from a stored
// stream; toConfig() writes the URL and SUBSCRIBE list, built by BinanceStreamBuilder (and
// so by the engine's VenueCatalog, whose Binance presets also give the endpoints, intervals,
// levels and speeds offered). Owns its widgets only.
//
// Thread contract: GUI thread only.

#include "BinanceStreamBuilder.h"
#include "StreamConfig.h"

#include <QtWidgets/QWidget>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QPlainTextEdit;
class QRadioButton;

namespace streamscope::ui {

struct BinanceRequest;

class BinancePage : public QWidget {
    Q_OBJECT
public:
    using Market = BinanceRequest::Market;

    explicit BinancePage(QWidget *parent = nullptr);

    // Spot or USD-M futures: the endpoints offered, the update speeds and whether a trade
    // stream exists. A custom endpoint typed by the user is kept.
    void setMarket(Market market);
    Market market() const { return m_market; }
    // The market a stored Binance stream belongs to (futures on an fstream host).
    static Market marketOf(const StreamConfig &config);

    // Fills the page from a stream on this page's market; false when the page cannot give
    // back exactly the same URL and SUBSCRIBE list (the caller then uses the generic page).
    bool fromConfig(const StreamConfig &config);
    // Sets venue, url and subscribe of `config`; false and `error` when a choice is invalid.
    bool toConfig(StreamConfig &config, QString *error) const;
    // Checks the stream type `channel` ("aggTrade", "depthDiff"); false when the page has none.
    bool selectChannel(const QString &channel);
    // "binance-btcusdt", "binance-fut-btcusdt-and-2-more"
    QString suggestedName() const;

signals:
    // Any choice changed (the dialog updates its name suggestion).
    void changed();

private:
    BinanceRequest request() const;
    void onChoiceChanged();

    Market m_market = Market::Spot;
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
};

} // namespace streamscope::ui
