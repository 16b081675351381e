// The hub's sockets (hub_sockets.c): what hub.c needs of Unix sockets, pidfds and descriptors.

#ifndef NARRATE_WORKER_HUB_SOCKETS_H
#define NARRATE_WORKER_HUB_SOCKETS_H

#include <stddef.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/un.h>

// The handed-over descriptors: the zygote's requests (read end), its replies (write end), the
// worker's output and its standard error.
#define HANDED_FDS 4

// The abstract address of the hub named `name`; -1 when the name is too long.
int hub_address(const char *name, struct sockaddr_un *address, socklen_t *length);
// Whether the other end of `socket` runs as this user (and its pid).
int peer_is_this_user(int socket, pid_t *pid);
// Sends `bytes` with `count` descriptors (at most HANDED_FDS); 0 when all was sent.
int send_with_fds(int socket, const void *bytes, size_t length, const int *fds, int count);
// A message of exactly `length` bytes with exactly HANDED_FDS descriptors: 0; the end of the
// connection: 1; anything else: -1 (and no descriptor left open).
int receive_with_fds(int socket, void *bytes, size_t length, int fds[HANDED_FDS]);
// Exactly `length` bytes in one message: 0.
int receive_exactly(int socket, void *bytes, size_t length);
// A pidfd for `pid` (Linux 5.3), or -1.
int open_pidfd(pid_t pid);
// In a process just forked: closes every descriptor but standard input, output and error and
// `keep` (see hub_sockets.c).
void close_all_but(int keep);
// Closes the descriptors of `fds` that are open (>= 0).
void close_all(const int *fds, int count);

#endif
