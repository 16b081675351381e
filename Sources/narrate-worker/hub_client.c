// The workers' side of the hub (hub.c): a worker that needs a zygote for a neural voice asks the
// pool's hub, sending the pool's secret first, then the voice and the descriptors the zygote is
// to serve it with, and waits, within a bound, for the zygote's pid and pidfd. Anything else (no
// hub, a hub of another user, no answer in time) and the worker forks its own zygote, as without
// a hub. Below: engine_clock.c, hub_sockets.c.

#define _GNU_SOURCE  // the socket flags, whatever -std the compiler is given

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "engine_clock.h"
#include "hub.h"
#include "hub_client.h"
#include "hub_sockets.h"
#include "hub_template.h"

const char *hub_name;
const char *hub_secret;
pid_t hub_pid;

// The longest a worker waits for the hub's answer: the deadline the hub keeps for the template's
// load, stretched as far as the engine clock may stretch it, and a margin for the hand-over.
static int64_t answer_limit_ms(uint32_t deadline_ms) {
    return (int64_t)load_limit_ms(deadline_ms) * engine_clock_most_waited + (TEMPLATE_HAND_OVER_MS + HUB_PEER_LIMIT_MS);
}

static int hub_connect(void) {
    struct sockaddr_un address;
    socklen_t length;
    if (hub_address(hub_name, &address, &length) != 0) return -1;
    int hub = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    if (hub < 0) return -1;
    // Its sends wait no longer than the hub waits for them.
    struct timeval limit = {.tv_sec = HUB_PEER_LIMIT_MS / 1000, .tv_usec = (HUB_PEER_LIMIT_MS % 1000) * 1000};
    setsockopt(hub, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
    int connected;
    do {
        connected = connect(hub, (const struct sockaddr *)&address, length);
    } while (connected != 0 && errno == EINTR);
    // Only the pool's hub (this user's, and the very process the pool started, when the pool
    // says which) is handed this worker's secret and output. A peer in another pid namespace
    // shows as pid 0.
    pid_t peer = 0;
    if (connected != 0 || !peer_is_this_user(hub, &peer) || (hub_pid > 0 && peer != hub_pid)) {
        close(hub);
        return -1;
    }
    return hub;
}

pid_t hub_zygote(const voice_settings *settings, int sample_rate, uint32_t deadline_ms, int requests, int replies, int *pidfd) {
    *pidfd = -1;
    if (!hub_name || !hub_secret) return 0;
    int hub = hub_connect();
    if (hub < 0) return 0;
    hub_request request;
    memset(&request, 0, sizeof request);
    strncpy(request.secret, hub_secret, sizeof request.secret);
    request.settings = *settings;
    request.sample_rate = sample_rate;
    request.deadline_ms = deadline_ms;
    int fds[HANDED_FDS] = {requests, replies, STDOUT_FILENO, STDERR_FILENO};
    char marker = 0;
    pid_t pid = 0;
    int count = 0, watch = -1;
    if (send_with_fds(hub, &request, sizeof request, NULL, 0) == 0 && send_with_fds(hub, &marker, sizeof marker, fds, HANDED_FDS) == 0 &&
        wait_readable(hub, answer_limit_ms(deadline_ms)) == 0 && receive_message(hub, &pid, sizeof pid, &watch, 1, &count) == 0) {
        if (pid > 0 && count == 1) {
            *pidfd = watch;
        } else {
            if (count == 1) close(watch);
            pid = 0;
        }
    } else {
        pid = 0;
    }
    memset(&request, 0, sizeof request);
    close(hub);
    return pid;
}
