#pragma once

// Segmented changes and market images of one Betfair stream (docs/venues.md, "Betfair"):
// - a segmented change (SEG_START, SEG.., SEG_END) must arrive whole: a SEG_START before the
//   open one's SEG_END, a whole change or a heartbeat in between, a SEG/SEG_END whose
//   SEG_START never came, or the connection's end in the middle count as an incomplete one
//   (incomplete_images; in practice images are what is large enough to be segmented);
// - the initial image is timed from the market subscription's sending to its last segment
//   (or its one message), in ms (initial_image_ms); a resumed subscription gets a RESUB_DELTA,
//   not an image;
// - an image's markets are read from its messages, whole (readMarkets; only for images, which
//   are rare): a market seen again in the same image keeps the higher marketDefinition.version
//   and counts (duplicate_markets); the last complete image's market count is image_markets.
//
// Thread contract: owned and called by the stream's BetfairVenue on its worker thread.
// follow() runs for every change message: a few compares, no allocation, lock or log but at
// an image's end or a broken segmented change.

#include <QtCore/QHash>
#include <QtCore/QString>

#include <string_view>

namespace streamscope {

class VenueHost;

class BetfairImages {
public:
    // Markets beyond this many in one image are not checked for duplicates, nor is an image
    // message over kMaxCheckBytes: bounded work and memory for a peer's image.
    static constexpr qsizetype kMaxMarkets = 20000;
    static constexpr qsizetype kMaxCheckBytes = 16 * 1024 * 1024;

    explicit BetfairImages(VenueHost &host)
        : m_host(host)
    {
    }

    // The market subscription was just sent; `resumed`: with clk, so no image is expected.
    void subscribed(bool resumed);
    // A RESUB_DELTA came: the subscription resumed, there is no initial image to time.
    void resumed() { m_awaitingImage = false; }
    // One change message: its segmentType (empty: a whole change), whether its ct is SUB_IMAGE
    // and whether it is of the market stream (mcm). True: the message is part of a market
    // image and readMarkets() wants it whole.
    bool follow(std::string_view segmentType, bool subImage, bool market);
    // A heartbeat, or the connection ended: an open segmented change is incomplete.
    void heartbeat();
    void disconnected();
    // The message follow() was just given, whole.
    void readMarkets(const char *data, qsizetype len);

private:
    enum class Segmented : quint8 { None = 0, Open, Orphan };
    void interrupted(const QString &why);
    void beginImage();
    void imageComplete();

    VenueHost &m_host;
    Segmented m_segmented = Segmented::None;
    bool m_runIsImage = false;        // the open segmented change is a market image
    bool m_inImage = false;           // a market image is arriving
    bool m_imageEnds = false;         // the current message completes it
    qint64 m_subscribedAtMs = -1;     // monotonic
    bool m_awaitingImage = false;     // the subscription's image has not arrived whole yet
    QHash<QString, qint64> m_markets; // the arriving image's markets, each with its highest version
};

} // namespace streamscope
