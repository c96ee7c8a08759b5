#pragma once

// One connection ("link") of a stream: its transport, the share of the subscriptions it
// carries, its liveness watchdog and its paced outgoing queue. The transport delivers each
// message (or a read's batch of them) to the link by a direct call, which hands it straight to the stream's hot path
// (MessageRouter).
//
// Thread contract: the session's worker only. The transport refers to `config`, so a link
// lives until its transport is gone (ConnectionGroup frees retired links on the next tick).

#include "ConnectionPacer.h"
#include "ConnectionWatchdog.h"
#include "OutgoingPacer.h"
#include "model/StreamConfig.h"
#include "transport/Transport.h"

#include <QtCore/QStringList>

class QTimer;

namespace streamscope {

class MessageRouter;

struct Link final : public MessageSink {
    // `messageRouter` gets the link's messages; null only for a link that never receives one
    // (ConnectionGroup on its own).
    Link(MessageRouter *messageRouter, int linkId, int shardIndex, bool isRollover);
    Link(const Link &) = delete;
    Link &operator=(const Link &) = delete;
    ~Link();

    // MessageSink: defined in MessageRouter.cpp, the hot path's home.
    void onMessage(ReceivedMessage &message) override;
    void onMessages(const MessageBatch &batch) override;

    MessageRouter *const router;
    const int id;
    const int shard;     // which share of the subscriptions it carries
    bool rollover;       // a replacement not yet switched over to
    StreamConfig config; // this connection's copy (its own URL)
    QStringList streams; // Binance streams this connection carries
    Transport *transport = nullptr;
    bool active = false;
    qint64 connectedWallMs = 0; // shown in the connection list
    ConnectionWatchdog watchdog;
    // The venue's connection-attempt slot it waits for before it opens (ConnectionPacer);
    // given back if the link goes before.
    ConnectSlot pendingOpen;
    // Its place among the engine's connection attempts under way, held from open() until it
    // is up or gone (ConnectionPacer); awaitingHandshake: due, but waiting for a place.
    HandshakeTicket handshake;
    bool awaitingHandshake = false;
    OutgoingPacer outbox;
    QTimer *outboxTimer = nullptr; // wakes a paced queue between ticks
};

} // namespace streamscope
