// The hub's sockets: its abstract name, who is at the other end, descriptors handed over with
// a message (SCM_RIGHTS), pidfds, and a forked process's descriptors closed. A bottom floor:
// it calls no other file; hub.c, hub_template.c and hub_client.c sit above it.

#define _GNU_SOURCE  // struct ucred, close_range

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <time.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include "hub_sockets.h"

int hub_address(const char *name, struct sockaddr_un *address, socklen_t *length) {
    memset(address, 0, sizeof *address);
    address->sun_family = AF_UNIX;
    // Abstract (a leading 0): nothing in the file system, gone with the hub.
    int written = snprintf(address->sun_path + 1, sizeof address->sun_path - 1, "narrate-worker-hub/%s", name);
    if (written < 0 || (size_t)written >= sizeof address->sun_path - 1) return -1;
    *length = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)written);
    return 0;
}

// Whether the other end of `socket` runs as this user (and its pid).
int peer_is_this_user(int socket, pid_t *pid) {
    struct ucred credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(socket, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0 || credentials.uid != getuid()) return 0;
    if (pid) *pid = credentials.pid;
    return 1;
}

int peer_pidfd(int socket) {
#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD 77
#endif
    int pidfd = -1;
    socklen_t length = sizeof pidfd;
    if (getsockopt(socket, SOL_SOCKET, SO_PEERPIDFD, &pidfd, &length) == 0 && pidfd >= 0) return pidfd;
    pid_t pid = 0;
    return peer_is_this_user(socket, &pid) && pid > 0 ? open_pidfd(pid) : -1;
}

int send_with_fds(int socket, const void *bytes, size_t length, const int *fds, int count) {
    if (count < 0 || count > MAX_MESSAGE_FDS) return -1;
    char control[CMSG_SPACE(sizeof(int) * MAX_MESSAGE_FDS)];
    memset(control, 0, sizeof control);
    struct iovec part = {(void *)bytes, length};
    struct msghdr message = {.msg_iov = &part, .msg_iovlen = 1};
    if (count > 0) {
        message.msg_control = control;
        message.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)count);
        struct cmsghdr *header = CMSG_FIRSTHDR(&message);
        header->cmsg_level = SOL_SOCKET;
        header->cmsg_type = SCM_RIGHTS;
        header->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)count);
        memcpy(CMSG_DATA(header), fds, sizeof(int) * (size_t)count);
    }
    ssize_t sent;
    do {
        sent = sendmsg(socket, &message, MSG_NOSIGNAL);
    } while (sent < 0 && errno == EINTR);
    return sent == (ssize_t)length ? 0 : -1;
}

int receive_message(int socket, void *bytes, size_t length, int *fds, int most, int *count) {
    *count = 0;
    if (most < 0 || most > MAX_MESSAGE_FDS) return -1;
    char control[CMSG_SPACE(sizeof(int) * MAX_MESSAGE_FDS)];
    struct iovec part = {bytes, length};
    struct msghdr message = {.msg_iov = &part, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof control};
    ssize_t received;
    do {
        received = recvmsg(socket, &message, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
    } while (received < 0 && errno == EINTR);
    if (received == 0 && length > 0) return 1;
    int kept = 0, extra = 0;
    for (struct cmsghdr *header = received > 0 ? CMSG_FIRSTHDR(&message) : NULL; header; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
        int got = (int)((header->cmsg_len - CMSG_LEN(0)) / sizeof(int));
        int *data = (int *)CMSG_DATA(header);
        for (int index = 0; index < got; index++) {
            if (kept < most) fds[kept++] = data[index];
            else {
                close(data[index]);
                extra = 1;
            }
        }
    }
    if (received == (ssize_t)length && !extra && !(message.msg_flags & (MSG_TRUNC | MSG_CTRUNC))) {
        *count = kept;
        return 0;
    }
    for (int index = 0; index < kept; index++) close(fds[index]);
    return -1;
}

int receive_with_fds(int socket, void *bytes, size_t length, int *fds, int expected) {
    int count = 0;
    int received = receive_message(socket, bytes, length, fds, expected, &count);
    if (received != 0) return received;
    if (count == expected) return 0;
    for (int index = 0; index < count; index++) close(fds[index]);
    return -1;
}

int receive_exactly(int socket, void *bytes, size_t length) {
    ssize_t received;
    do {
        received = recv(socket, bytes, length, MSG_DONTWAIT);
    } while (received < 0 && errno == EINTR);
    if (received == 0 && length > 0) return 1;
    return received == (ssize_t)length ? 0 : -1;
}

int wait_readable(int socket, int64_t timeout_ms) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    int64_t until = (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000 + timeout_ms;
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        int64_t left = until - ((int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000);
        if (left <= 0) return -1;
        struct pollfd watch = {.fd = socket, .events = POLLIN};
        int ready = poll(&watch, 1, (int)(left > 60000 ? 60000 : left));
        if (ready > 0) return 0;
        if (ready < 0 && errno != EINTR) return -1;
    }
}

int open_pidfd(pid_t pid) {
    return (int)syscall(SYS_pidfd_open, pid, 0);
}

int signal_process(int pidfd, pid_t pid, int signal) {
    if (pidfd >= 0) return (int)syscall(SYS_pidfd_send_signal, pidfd, signal, NULL, 0);
    return kill(pid, signal);
}

// In a process just forked: closes every descriptor but standard input, output and error and
// `keep`. What the parent held at the fork (another worker's output, a zygote's pipe ends
// being handed over) must not live on here: a client waits for the end of a worker's output
// until every copy of it is closed, and a zygote for the end of its requests.
void close_all_but(int keep) {
    if (keep > 3) close_range(3, (unsigned)keep - 1, 0);
    close_range((unsigned)(keep < 3 ? 3 : keep + 1), ~0U, 0);
}

void close_all(const int *fds, int count) {
    for (int index = 0; index < count; index++) {
        if (fds[index] >= 0) close(fds[index]);
    }
}
