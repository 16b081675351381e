// The hub's sockets (hub_sockets.c): what hub.c needs of Unix sockets, pidfds and descriptors.

#ifndef NARRATE_WORKER_HUB_SOCKETS_H
#define NARRATE_WORKER_HUB_SOCKETS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/un.h>

// The handed-over descriptors: the zygote's requests (read end), its replies (write end), the
// worker's output and its standard error.
#define HANDED_FDS 4

// The most descriptors one message carries: the handed-over ones and a pidfd.
#define MAX_MESSAGE_FDS (HANDED_FDS + 1)
// The pool's secret that a client sends first (hex, NUL-padded), and its least length.
#define HUB_SECRET_BYTES 64
#define HUB_SECRET_LEAST 32

// The abstract address of the hub named `name`; -1 when the name is too long.
int hub_address(const char *name, struct sockaddr_un *address, socklen_t *length);
// Whether the other end of `socket` runs as this user (and its pid).
int peer_is_this_user(int socket, pid_t *pid);
// A pidfd for the process at the other end of `socket`: SO_PEERPIDFD (Linux 6.5) where the
// kernel has it, else pidfd_open of its SO_PEERCRED pid; -1 when neither works.
int peer_pidfd(int socket);
// Sends `bytes` with `count` descriptors (at most MAX_MESSAGE_FDS); 0 when all was sent.
int send_with_fds(int socket, const void *bytes, size_t length, const int *fds, int count);
// A message of exactly `length` bytes with at most `most` descriptors (at most MAX_MESSAGE_FDS),
// which are put in `fds` and counted in `count`: 0; the end of the connection: 1; anything
// else: -1 (and no descriptor left open). It does not wait: the caller polls first.
int receive_message(int socket, void *bytes, size_t length, int *fds, int most, int *count);
// A message of exactly `length` bytes with exactly `count` descriptors (at most
// MAX_MESSAGE_FDS): 0; the end of the connection: 1; anything else: -1 (and no descriptor
// left open). It does not wait: the caller polls first.
int receive_with_fds(int socket, void *bytes, size_t length, int *fds, int count);
// Exactly `length` bytes in one message, without any descriptor sent along (the kernel closes
// them): 0; the end of the connection: 1; anything else: -1.
int receive_exactly(int socket, void *bytes, size_t length);
// Waits until `socket` is readable, at most `timeout_ms` (on the monotonic clock): 0 when it
// is, -1 when the time ran out or the wait failed.
int wait_readable(int socket, int64_t timeout_ms);
// A pidfd for `pid` (Linux 5.3), or -1.
int open_pidfd(pid_t pid);
// Sends `signal` to the process of `pidfd` (a process that ended and was reaped is never
// confused with another that took its pid); where pidfds are missing (-1), to `pid`.
int signal_process(int pidfd, pid_t pid, int signal);
// In a process just forked: closes every descriptor but standard input, output and error and
// `keep` (see hub_sockets.c).
void close_all_but(int keep);
// Closes the descriptors of `fds` that are open (>= 0).
void close_all(const int *fds, int count);

#endif
