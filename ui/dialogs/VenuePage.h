#pragma once

// The stream dialog's page for the venues whose subscriptions are "channel:instrument" pairs
// (VenueCatalog::channelSubscriptions: OKX, Bybit, Coinbase, Kraken, Hyperliquid): the venue's
// market and endpoint, the instruments, the channels (for every instrument), and a preview of
// the URL and of the messages each connection sends when it comes up, written by the venue's
// own handler (VenueCatalog::openingMessages). What it offers is the venue's presets, given as
// data by its folder: a venue added to the registry appears here with nothing else changed.
// A stored stream whose pairs are not every instrument × every channel keeps its own list
// until the user changes the instruments or the channels. Owns its widgets only.
//
// Thread contract: GUI thread only.

#include "StreamConfig.h"
#include "VenuePresets.h"

#include <QtWidgets/QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;

namespace streamscope::ui {

class VenuePage : public QWidget {
    Q_OBJECT
public:
    // Connections the preview shows (a stream split over more says how many there are).
    static constexpr int kPreviewConnections = 3;

    explicit VenuePage(QWidget *parent = nullptr);

    // The venues this page serves, in the registry's order.
    static QList<Venue> venues();

    // Shows `venue`'s markets, endpoints and channels; keeps the instruments typed.
    void setVenue(Venue venue);
    Venue venue() const { return m_presets.venue; }
    // Selects the market `id` (when the venue has it) and checks `channel` there.
    void select(const QString &marketId, const QString &channel);

    // Fills the page from a stored stream of one of these venues.
    void fromConfig(const StreamConfig &config);
    // Sets venue, url and subscribe of `config`; false and `error` when a choice is invalid.
    bool toConfig(StreamConfig &config, QString *error) const;
    // "okx-btc-usdt", "bybit-btcusdt-and-2-more"
    QString suggestedName() const;

signals:
    // Any choice changed (the dialog updates its name suggestion).
    void changed();

private:
    const VenueMarket *currentMarket() const;
    void fillMarket();
    QStringList instruments() const;
    QStringList checkedChannels() const;
    // The pairs the choices make: every instrument × every checked channel, or the stored
    // stream's own list while the user has not changed them.
    QStringList pairs() const;
    void onChoiceChanged();
    void updatePreview();

    VenuePresets m_presets;
    QStringList m_keptPairs; // a stored stream's pairs that are not a product of the choices
    bool m_filling = false;

    QComboBox *m_market = nullptr;
    QLabel *m_marketLabel = nullptr;
    QComboBox *m_endpoint = nullptr;
    QLineEdit *m_instruments = nullptr;
    QListWidget *m_channels = nullptr;
    QLabel *m_kept = nullptr;
    QPlainTextEdit *m_preview = nullptr;
};

} // namespace streamscope::ui
