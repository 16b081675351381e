// The hub: one process per worker pool (`narrate-worker --hub`, started by the pool and ended
// when the pool closes its standard input), listening on an abstract Unix socket named by the
// pool, that keeps a template per neural voice setting in use (hub_template.c) and hands each
// worker that asks a zygote forked from it.
//
// The socket's name is visible to every process in the network namespace (in Kubernetes, every
// container of the pod), so a client must send the pool's secret first: the hub compares it, in
// constant time, before it looks at anything else the client sent or takes any descriptor from
// it, and drops a client that fails (logging the first such refusal). It also accepts only its
// own user (SO_PEERCRED) and takes the worker's pidfd from the connection (SO_PEERPIDFD).
//
// No wait here is without a limit, and none holds up another client: one poll loop serves every
// client and template at once. A client has HUB_PEER_LIMIT_MS to send its request; a template
// has its load limit (load_limit_ms: its text's deadline, at least a minute; on the engine clock,
// so time it waits for a core is not counted) to load
// its voice, else it is killed and its clients are told to load the voice themselves; a loaded
// template answers a hand-over within TEMPLATE_HAND_OVER_MS or is ended.
//
// The process model's top floor: it knows no engine. Below: hub_template.c, engine_clock.c,
// hub_sockets.c.

#define _GNU_SOURCE  // accept4 and the socket flags

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine_clock.h"
#include "hub.h"
#include "hub_template.h"

#define MAX_TEMPLATES 4
#define MAX_CLIENTS 64

typedef struct {
    int used;
    int fd;
    int64_t until;      // its request must have come by then (monotonic ms)
    int has_request;    // its first message came, with the right secret
    hub_request request;
    int fds[HANDED_FDS];
    int has_fds;
    int worker_pidfd;
    int waits_for;      // the template (index) it waits for while that one loads; -1: none
} hub_client;

typedef struct {
    int used;
    int loaded;         // it answered that it serves zygotes
    voice_settings settings;
    int32_t sample_rate;
    pid_t pid;
    int pidfd;
    int control;
    engine_clock load_clock;  // while it loads
} template_place;

static hub_client clients[MAX_CLIENTS];
static template_place templates[MAX_TEMPLATES];
static const zygote_work *hub_work;
static const char *hub_secret;
static int refusal_logged;

static int secret_matches(const char *given) {
    // Constant time: every byte is looked at, whatever the first difference.
    size_t length = strlen(hub_secret);
    unsigned char difference = 0;
    for (size_t index = 0; index < HUB_SECRET_BYTES; index++) {
        unsigned char expected = index < length ? (unsigned char)hub_secret[index] : 0;
        difference |= (unsigned char)(expected ^ (unsigned char)given[index]);
    }
    return difference == 0;
}

static void end_client(hub_client *client) {
    close(client->fd);
    if (client->has_fds) close_all(client->fds, HANDED_FDS);
    if (client->worker_pidfd >= 0) close(client->worker_pidfd);
    client->used = 0;
}

// Tells the client its zygote (pid and pidfd) or none (0), and lets it go.
static void answer(hub_client *client, pid_t pid, int pidfd) {
    send_with_fds(client->fd, &pid, sizeof pid, &pidfd, pid > 0 && pidfd >= 0 ? 1 : 0);
    end_client(client);
}

static void end_template(template_place *place) {
    close(place->control);
    signal_process(place->pidfd, place->pid, SIGKILL);
    while (waitpid(place->pid, NULL, 0) < 0 && errno == EINTR) {}
    if (place->pidfd >= 0) close(place->pidfd);
    place->used = 0;
    // Whoever waited for it loads the voice itself.
    for (int index = 0; index < MAX_CLIENTS; index++) {
        if (clients[index].used && clients[index].waits_for == (int)(place - templates)) answer(&clients[index], 0, -1);
    }
}

// Hands the client's descriptors to its loaded template; answers the client either way.
static void hand_over(hub_client *client, template_place *place) {
    pid_t pid = 0;
    int pidfd = -1;
    if (template_hand_over(place->control, client->worker_pidfd, client->fds, &pid, &pidfd) != 0) {
        client->waits_for = -1;
        end_template(place);  // it did not answer in time, or said something else
        answer(client, 0, -1);
        return;
    }
    answer(client, pid, pidfd);
    if (pidfd >= 0) close(pidfd);
}

// The client's request is complete: its template serves it now, later (loading), or never.
static void request_ready(hub_client *client) {
    template_place *free_place = NULL;
    for (int index = 0; index < MAX_TEMPLATES; index++) {
        template_place *place = &templates[index];
        if (!place->used) {
            if (!free_place) free_place = place;
        } else if (memcmp(&place->settings, &client->request.settings, sizeof place->settings) == 0 &&
                   place->sample_rate == client->request.sample_rate) {
            if (place->loaded) hand_over(client, place);
            else client->waits_for = index;
            return;
        }
    }
    // Every place taken by a voice still in use: the worker loads its own.
    if (!free_place) {
        answer(client, 0, -1);
        return;
    }
    pid_t pid = 0;
    int pidfd = -1;
    int control = template_start(hub_work, &client->request.settings, client->request.sample_rate, &pid, &pidfd);
    if (control < 0) {
        answer(client, 0, -1);
        return;
    }
    *free_place = (template_place){.used = 1, .settings = client->request.settings, .sample_rate = client->request.sample_rate,
                                   .pid = pid, .pidfd = pidfd, .control = control};
    engine_clock_start(&free_place->load_clock, pid, load_limit_ms(client->request.deadline_ms));
    client->waits_for = (int)(free_place - templates);
}

// What a client sent: its request (the secret first), then its descriptors.
static void client_readable(hub_client *client) {
    if (!client->has_request) {
        int received = receive_exactly(client->fd, &client->request, sizeof client->request);
        if (received != 0 || !secret_matches(client->request.secret)) {
            if (received == 0 && !refusal_logged) {
                refusal_logged = 1;
                fprintf(stderr, "narrate-worker hub: refused a client without this pool's secret (further refusals are not logged)\n");
            }
            end_client(client);
            return;
        }
        client->has_request = 1;
        client->request.settings.voice[sizeof client->request.settings.voice - 1] = 0;
        return;
    }
    char marker = 0;
    if (receive_with_fds(client->fd, &marker, sizeof marker, client->fds, HANDED_FDS) != 0) {
        end_client(client);
        return;
    }
    client->has_fds = 1;
    request_ready(client);
}

static void accept_client(int listener) {
    int fd = accept4(listener, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd < 0) return;
    hub_client *place = NULL;
    for (int index = 0; index < MAX_CLIENTS && !place; index++) {
        if (!clients[index].used) place = &clients[index];
    }
    int worker_pidfd = place && peer_is_this_user(fd, NULL) ? peer_pidfd(fd) : -1;
    if (worker_pidfd < 0) {  // full, someone else, or gone already
        close(fd);
        return;
    }
    *place = (hub_client){.used = 1, .fd = fd, .until = monotonic_ms() + HUB_PEER_LIMIT_MS, .worker_pidfd = worker_pidfd, .waits_for = -1};
}

static void template_readable(template_place *place) {
    int32_t loaded = 0;
    if (receive_exactly(place->control, &loaded, sizeof loaded) != 0 || !loaded) {
        end_template(place);  // it cannot serve (a voice that does not load, or not in place)
        return;
    }
    place->loaded = 1;
    for (int index = 0; index < MAX_CLIENTS; index++) {
        if (clients[index].used && clients[index].waits_for == (int)(place - templates)) {
            clients[index].waits_for = -1;
            hand_over(&clients[index], place);
            if (!place->used) break;
        }
    }
}

// Clients past their limit are dropped, templates past their load deadline ended; the time
// until the next limit (at most a second).
static int64_t keep_limits(void) {
    int64_t now = monotonic_ms(), next = 1000;
    for (int index = 0; index < MAX_CLIENTS; index++) {
        hub_client *client = &clients[index];
        if (!client->used || client->has_fds) continue;
        if (client->until <= now) end_client(client);
        else if (client->until - now < next) next = client->until - now;
    }
    for (int index = 0; index < MAX_TEMPLATES; index++) {
        if (!templates[index].used) continue;
        if (templates[index].loaded) {
            // One that ended by itself (its last zygote ended) is taken out.
            struct pollfd watch = {.fd = templates[index].control, .events = POLLIN};
            if (poll(&watch, 1, 0) > 0 && (watch.revents & (POLLHUP | POLLERR))) end_template(&templates[index]);
            continue;
        }
        int64_t left = engine_clock_left(&templates[index].load_clock);
        if (left <= 0) end_template(&templates[index]);
        else if (left < next) next = left;
    }
    return next < 1 ? 1 : next;
}

static int listen_on(const char *name) {
    struct sockaddr_un address;
    socklen_t length;
    if (hub_address(name, &address, &length) != 0) return -1;
    int listener = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (listener < 0) return -1;
    if (bind(listener, (const struct sockaddr *)&address, length) != 0 || listen(listener, 64) != 0) {
        close(listener);
        return -1;
    }
    return listener;
}

int hub_main(const zygote_work *work, const char *name, const char *secret) {
    hub_work = work;
    hub_secret = secret;
    int listener = listen_on(name);
    if (listener < 0) {
        fprintf(stderr, "narrate-worker hub: cannot listen as %s: %s\n", name, strerror(errno));
        return 2;
    }
    // The pool reads this line: the hub listens, its workers may ask.
    static const char listening[] = "narrate-worker hub listening\n";
    if (write(STDOUT_FILENO, listening, sizeof listening - 1) != (ssize_t)(sizeof listening - 1)) return 0;
    int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null >= 0) {
        dup2(null, STDOUT_FILENO);
        close(null);
    }
    for (;;) {
        int64_t wait = keep_limits();
        struct pollfd watch[2 + MAX_CLIENTS + MAX_TEMPLATES];
        int count = 0;
        watch[count++] = (struct pollfd){.fd = STDIN_FILENO, .events = POLLIN};
        watch[count++] = (struct pollfd){.fd = listener, .events = POLLIN};
        for (int index = 0; index < MAX_CLIENTS; index++) {
            watch[count++] = (struct pollfd){.fd = clients[index].used && !clients[index].has_fds ? clients[index].fd : -1, .events = POLLIN};
        }
        for (int index = 0; index < MAX_TEMPLATES; index++) {
            watch[count++] = (struct pollfd){.fd = templates[index].used && !templates[index].loaded ? templates[index].control : -1, .events = POLLIN};
        }
        int ready = poll(watch, (nfds_t)count, (int)wait);
        if (ready < 0 && errno != EINTR) return 2;
        if (ready <= 0) continue;
        if (watch[0].revents) {
            char byte;
            if (read(STDIN_FILENO, &byte, 1) <= 0) return 0;  // the pool is done: templates and zygotes end with this process
        }
        for (int index = 0; index < MAX_CLIENTS; index++) {
            if (watch[2 + index].revents && clients[index].used) client_readable(&clients[index]);
        }
        for (int index = 0; index < MAX_TEMPLATES; index++) {
            if (watch[2 + MAX_CLIENTS + index].revents && templates[index].used) template_readable(&templates[index]);
        }
        if (watch[1].revents) accept_client(listener);
    }
}
