#pragma once

// A venue whose order books come as in-stream snapshots, on 127.0.0.1, for the cross-venue
// tests and the screenshot harness: a QWebSocketServer that sends each instrument's book, in
// OKX's shape ("books", {"arg":..,"action":"snapshot","data":[..]}) or Bybit's
// ("orderbook.50.X", {"type":"snapshot","data":{..}}), to every connection when asked to
// (setMid()) and whenever a client sends anything (its subscribe request). A book is two levels a
// side around its mid: mid ∓ halfSpread, mid ∓ 2 × halfSpread. Trades, in the same venue's
// shape (OKX "trades", Bybit "publicTrade.X"), go every few milliseconds at the price
// setTradePrice() gave to every connection that asked for trades (a request that names them).
//
// Thread contract: the test's thread; its event loop must run.

#include "LoopbackVenue.h"

#include <QtCore/QDateTime>
#include <QtCore/QMap>
#include <QtCore/QPointer>
#include <QtCore/QTimer>

namespace streamscope::testing {

class SnapshotVenueServer {
public:
    enum class Shape { Okx, Bybit };

    explicit SnapshotVenueServer(Shape shape)
        : m_shape(shape)
        , m_venue(QStringLiteral("venue"), [this](QWebSocket *s, const QString &text) {
            if (text.contains(QLatin1String("rade")) && !m_tradeSockets.contains(s))
                m_tradeSockets.append(s);
            for (auto it = m_mids.cbegin(); it != m_mids.cend(); ++it)
                send(it.key());
        })
    {
    }

    bool listen() { return m_venue.listen(); }
    QUrl url() const { return m_venue.wsUrl(QStringLiteral("/ws")); }

    // The instrument's book around `mid`, sent now to every connection.
    void setMid(const QString &symbol, double mid, double halfSpread = 0.5)
    {
        m_mids[symbol] = {mid, halfSpread};
        send(symbol);
    }

    // Trades of the instrument at `price` from now on, one every `everyMs`.
    void setTradePrice(const QString &symbol, double price, int everyMs = 100)
    {
        m_trades[symbol] = price;
        if (!m_tradeTimer.isActive()) {
            QObject::connect(&m_tradeTimer, &QTimer::timeout, &m_context, [this] {
                for (auto it = m_trades.cbegin(); it != m_trades.cend(); ++it)
                    sendTrade(it.key(), it.value());
            });
            m_tradeTimer.start(everyMs);
        }
    }

private:
    void sendTrade(const QString &symbol, double price)
    {
        ++m_seq;
        const QString px = QString::number(price, 'f', 2);
        const QString ts = QString::number(QDateTime::currentMSecsSinceEpoch());
        const QString message = m_shape == Shape::Okx
            ? QStringLiteral(R"({"arg":{"channel":"trades","instId":"%1"},"data":[{"instId":"%1","tradeId":"%2",)"
                             R"("px":"%3","sz":"0.1","side":"buy","ts":"%4"}]})")
                  .arg(symbol)
                  .arg(m_seq)
                  .arg(px, ts)
            : QStringLiteral(R"({"topic":"publicTrade.%1","type":"snapshot","ts":%2,"data":[{"T":%2,"s":"%1",)"
                             R"("S":"Buy","v":"0.001","p":"%3","L":"PlusTick","i":"t%4","BT":false}]})")
                  .arg(symbol, ts, px)
                  .arg(m_seq);
        for (const QPointer<QWebSocket> &s : m_tradeSockets) {
            if (s)
                s->sendTextMessage(message);
        }
    }

    void send(const QString &symbol)
    {
        const auto [mid, half] = m_mids.value(symbol);
        ++m_seq;
        const auto text = [](double v) { return QString::number(v, 'f', 2); };
        const QString bid = text(mid - half);
        const QString bid2 = text(mid - 2 * half);
        const QString ask = text(mid + half);
        const QString ask2 = text(mid + 2 * half);
        const QString ts = QString::number(QDateTime::currentMSecsSinceEpoch());
        QString message;
        if (m_shape == Shape::Okx)
            message = QStringLiteral(R"({"arg":{"channel":"books","instId":"%1"},"action":"snapshot","data":[{)"
                                     R"("asks":[["%2","1","0","1"],["%3","2","0","1"]],)"
                                     R"("bids":[["%4","1","0","1"],["%5","2","0","1"]],)"
                                     R"("ts":"%6","checksum":0,"prevSeqId":-1,"seqId":%7}]})")
                          .arg(symbol, ask, ask2, bid, bid2, ts)
                          .arg(m_seq);
        else
            message = QStringLiteral(R"({"topic":"orderbook.50.%1","type":"snapshot","ts":%2,"data":{"s":"%1",)"
                                     R"("b":[["%3","1"],["%4","2"]],"a":[["%5","1"],["%6","2"]],"u":%7,"seq":%7},)"
                                     R"("cts":%2})")
                          .arg(symbol, ts, bid, bid2, ask, ask2)
                          .arg(100 + m_seq);
        m_venue.broadcast(message);
    }

    Shape m_shape;
    QObject m_context;
    QList<QPointer<QWebSocket>> m_tradeSockets;
    QTimer m_tradeTimer;
    QMap<QString, double> m_trades;
    QMap<QString, std::pair<double, double>> m_mids;
    qint64 m_seq = 0;
    LoopbackVenue m_venue; // last: it goes first
};

} // namespace streamscope::testing
