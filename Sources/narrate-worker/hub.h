// The hub (hub.c): one process per worker pool, started by the pool (`narrate-worker --hub`) and
// ended with it, that keeps a template per neural voice setting in use (hub_template.c) and hands
// each worker that asks a zygote forked from it, so that the pool's workers share one copy of the
// loaded model. The workers' side is hub_client.c.

#ifndef NARRATE_WORKER_HUB_H
#define NARRATE_WORKER_HUB_H

#include <stdint.h>

#include "hub_sockets.h"
#include "voices.h"
#include "zygote.h"

// What a worker asks the hub, in its first message (no descriptor): the pool's secret, then the
// voice, the sample rate and the deadline of the text it needs the zygote for. Its second message
// (one byte) carries the descriptors to hand over.
typedef struct {
    char secret[HUB_SECRET_BYTES];
    voice_settings settings;
    int32_t sample_rate;
    uint32_t deadline_ms;
} hub_request;

// How long a client has, from its connection, to send its two messages: a peer that says
// nothing is dropped then, and delays nobody meanwhile.
#define HUB_PEER_LIMIT_MS 2000

// The hub's life: listens on the abstract name `name`, accepts only clients that send `secret`
// first (a refused one is logged once), and ends when its standard input ends (the pool closed
// it, or died). 0 when it ended so; 2 when it could not listen.
int hub_main(const zygote_work *work, const char *name, const char *secret);

#endif
