/* SPDX-License-Identifier: MPL-2.0 */
/* Path outputs: what a path is decides how it is written (io.h, ctg_list_write_file).
 *
 * A regular file is replaced atomically: the bytes go to a temporary file beside it (same
 * file system, so the rename is atomic), which gets the old file's mode and owner, is flushed
 * to disk, then renamed over it. A symbolic link is followed, so that its target is replaced
 * and the link stays. Anything else that is not a directory (a device, a FIFO, a socket) is
 * written through: renaming a file over /dev/null or a FIFO would destroy it. So are the names
 * of our own descriptors (/dev/stdout, /dev/fd/N), which mean the descriptor. */

#include "io/output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/error_set.h"

/* statfs's f_type of ext4 (and of ext2 and ext3, which refuse fallocate: that ends it). */
#define EXT4_MAGIC 0xEF53

/* What the temporary name adds to the base name: "." before, TEMP_TAG after. */
#define TEMP_TAG ".ctg-tmp-XXXXXX"
#define TEMP_EXTRA (1 + sizeof TEMP_TAG - 1)
/* Links followed before giving up with ELOOP, as the kernel does (40 on Linux). */
#define MAX_LINK_HOPS 40
#define LINK_TEXT_MAX 4096

/* ---- following symbolic links ----------------------------------------------------------- */

/* Length of the directory part of `path`, its last '/' included; 0 when it has none. */
static size_t dir_length(const char *path)
{
    const char *slash = strrchr(path, '/');

    return slash ? (size_t)(slash - path) + 1 : 0;
}

/* Makes o->target the path the symbolic link at o->target points to: its text when absolute,
 * else that text in the link's directory. */
static int follow_link(ctg_output *o, ctg_error *w)
{
    char text[LINK_TEXT_MAX];
    ssize_t n = readlink(o->target, text, sizeof text);
    size_t dir, size;
    char *next;

    if (n < 0)
        return ctg_output_io_failure(w, "cannot read the symbolic link");
    if ((size_t)n == sizeof text) {
        errno = ENAMETOOLONG;
        return ctg_output_io_failure(w, "cannot read the symbolic link");
    }
    dir = text[0] == '/' ? 0 : dir_length(o->target);
    size = dir + (size_t)n + 1;
    next = ctg_mem_alloc(o->alloc, size);
    if (next == NULL)
        return ctg_output_message(w, CTG_ENOMEM, "out of memory");
    memcpy(next, o->target, dir);
    memcpy(next + dir, text, (size_t)n);
    next[size - 1] = '\0';
    ctg_mem_release(o->alloc, o->target, o->target_size);
    o->target = next;
    o->target_size = size;
    return CTG_OK;
}

/* The descriptor that a name of this process's own descriptors ("/dev/stdout", "/dev/fd/3",
 * "/proc/self/fd/3") stands for, or -1. Such a name means that descriptor, as a shell's
 * redirection means it: opening it again would, on Linux, start at offset 0 of a file, and
 * fail for a socket. */
static int own_descriptor(const char *path)
{
    static const char *const dirs[] = { "/dev/fd/", "/proc/self/fd/" };
    long fd = 0;
    const char *p = NULL;

    if (strcmp(path, "/dev/stdout") == 0)
        return 1;
    if (strcmp(path, "/dev/stderr") == 0)
        return 2;
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0] && p == NULL; i++)
        if (strncmp(path, dirs[i], strlen(dirs[i])) == 0)
            p = path + strlen(dirs[i]);
    if (p == NULL || *p == '\0')
        return -1;
    for (; *p; p++) {
        if (*p < '0' || *p > '9' || fd > INT_MAX / 10)
            return -1;
        fd = fd * 10 + (*p - '0');
    }
    return fd <= INT_MAX ? (int)fd : -1;
}

/* What a path turned out to be. */
typedef enum target_kind {
    TARGET_NONE,       /* nothing there: a new file at o->target */
    TARGET_FOUND,      /* o->target, not a link; *st says what it is */
    TARGET_DESCRIPTOR, /* one of our descriptors, *fd */
    TARGET_MAGIC       /* a link whose text is no path ("pipe:[42]" under /proc): only the
                          kernel can follow it, from the path given; *st says what it is */
} target_kind;

/* lstat()s o->target through its symbolic links, rewriting o->target as it goes. */
static int find_target(ctg_output *o, target_kind *kind, struct stat *st, int *fd,
                       ctg_error *w)
{
    for (int hops = 0;; hops++) {
        int rc;

        if ((*fd = own_descriptor(o->target)) >= 0)
            return *kind = TARGET_DESCRIPTOR, CTG_OK;
        if (lstat(o->target, st) != 0) {
            if (errno != ENOENT)
                return ctg_output_io_failure(w, "cannot write");
            /* A dangling link, or one only the kernel can follow. */
            *kind = hops > 0 && stat(o->source, st) == 0 ? TARGET_MAGIC : TARGET_NONE;
            return CTG_OK;
        }
        if (!S_ISLNK(st->st_mode))
            return *kind = TARGET_FOUND, CTG_OK;
        if (hops == MAX_LINK_HOPS) {
            errno = ELOOP;
            return ctg_output_io_failure(w, "cannot write");
        }
        if ((rc = follow_link(o, w)) != CTG_OK)
            return rc;
    }
}

/* ---- the temporary file ----------------------------------------------------------------- */

static size_t name_max(const char *dir)
{
    long n = pathconf(dir, _PC_NAME_MAX);

    return n > 0 ? (size_t)n : 255;
}

/* How much of the base name fits in a temporary name of at most `max` bytes; a cut never
 * splits a UTF-8 sequence, so that the name stays readable. */
static size_t fit_base(const char *base, size_t len, size_t max)
{
    size_t room = max > TEMP_EXTRA ? max - TEMP_EXTRA : 0;

    if (len <= room)
        return len;
    while (room > 0 && ((unsigned char)base[room] & 0xC0) == 0x80)
        room--;
    return room;
}

/* o->tmp = "<dir>/.<base>.ctg-tmp-XXXXXX" for o->target = "<dir>/<base>": hidden, and named
 * after its file so that one left by a killed process is recognised. */
static int make_temp_name(ctg_output *o, ctg_error *w)
{
    size_t dir = dir_length(o->target), len = strlen(o->target + dir), keep;

    o->tmp_size = dir + len + TEMP_EXTRA + 1;
    o->tmp = ctg_mem_alloc(o->alloc, o->tmp_size);
    if (o->tmp == NULL)
        return ctg_output_message(w, CTG_ENOMEM, "out of memory");
    memcpy(o->tmp, o->target, dir);
    o->tmp[dir] = '\0';
    keep = fit_base(o->target + dir, len, name_max(dir ? o->tmp : "."));
    o->tmp[dir] = '.';
    memcpy(o->tmp + dir + 1, o->target + dir, keep);
    memcpy(o->tmp + dir + 1 + keep, TEMP_TAG, sizeof TEMP_TAG);
    return CTG_OK;
}

/* The process umask from /proc (reading it with umask() would change it for a moment, for
 * every thread); -1 when unknown. */
static int read_umask(void)
{
    FILE *fp = fopen("/proc/self/status", "r");
    char line[128];
    unsigned mask;
    int found = -1;

    if (fp == NULL)
        return -1;
    while (found < 0 && fgets(line, sizeof line, fp) != NULL) {
        if (sscanf(line, "Umask: %o", &mask) == 1)
            found = (int)(mask & 0777);
    }
    fclose(fp);
    return found;
}

/* mkstemp makes the file 0600 and ours. A replacement gets the old file's owner and group
 * where we may set them (root may; others may set a group they belong to), then its mode
 * (after the chown, which may clear the set-id bits). A new file gets 0666 less the umask;
 * when that is unknown it stays 0600, the safe side. */
static void set_attributes(int fd, const struct stat *old)
{
    int mask;

    if (old == NULL) {
        mask = read_umask();
        if (mask >= 0)
            (void)fchmod(fd, (mode_t)(0666 & ~mask));
        return;
    }
    if (fchown(fd, old->st_uid, old->st_gid) != 0 && fchown(fd, (uid_t)-1, old->st_gid) != 0) {
        /* EPERM: the file becomes ours, as any new file would. */
    }
    (void)fchmod(fd, old->st_mode & 07777);
}

/* Whether a big file on the file system of `fd` gains from being allocated ahead (output.c
 * says why): ext4, where it was measured. Not tmpfs, which zeroes the pages it allocates and
 * loses 30%; other file systems were not measured. */
static bool worth_preallocating(int fd)
{
    struct statfs sf;

    return fstatfs(fd, &sf) == 0 && sf.f_type == EXT4_MAGIC;
}

static int open_temp(ctg_output *o, const struct stat *old, ctg_error *w)
{
    int rc = make_temp_name(o, w);

    if (rc != CTG_OK)
        return rc;
    o->fd = mkstemp(o->tmp);
    if (o->fd < 0) {
        rc = ctg_output_io_failure(w, "cannot create a temporary file");
        ctg_mem_release(o->alloc, o->tmp, o->tmp_size);
        o->tmp = NULL; /* not ours: never to be removed */
        return rc;
    }
    (void)fcntl(o->fd, F_SETFD, FD_CLOEXEC);
    if (o->temp_file)
        o->temp_file(o->tmp, o->temp_payload);
    set_attributes(o->fd, old);
    o->preallocate = worth_preallocating(o->fd);
    return CTG_OK;
}

/* ---- written through -------------------------------------------------------------------- */

/* A descriptor connected to the Unix stream socket at `path`, or -1 with errno set. */
static int connect_socket(const char *path)
{
    struct sockaddr_un sa;
    size_t n = strlen(path);
    int fd, saved;

    if (n >= sizeof sa.sun_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    memcpy(sa.sun_path, path, n + 1);
    fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    if (connect(fd, (const struct sockaddr *)&sa, sizeof sa) != 0) {
        saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

/* Opens a device, FIFO or socket at `path` for writing: no O_CREAT, nothing replaced, and no
 * O_TRUNC but for a regular file reached by a link only the kernel follows (a deleted file
 * still open somewhere), which is then written through as cp would. */
static int open_direct(ctg_output *o, const char *path, const struct stat *st, ctg_error *w)
{
    int trunc = S_ISREG(st->st_mode) ? O_TRUNC : 0;
    struct stat now;

    o->direct = true;
    o->sync = S_ISBLK(st->st_mode);
    if (S_ISSOCK(st->st_mode)) {
        o->fd = connect_socket(path);
    } else {
        do /* a FIFO's open waits for a reader: a signal may interrupt it */
            o->fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | trunc);
        while (o->fd < 0 && errno == EINTR);
    }
    if (o->fd < 0)
        return ctg_output_io_failure(w, "cannot open");
    (void)fcntl(o->fd, F_SETFD, FD_CLOEXEC);
    /* Replaced by a file since the lstat: it would be overwritten in place, untruncated. */
    if (fstat(o->fd, &now) != 0 || S_ISDIR(now.st_mode) || (S_ISREG(now.st_mode) && !trunc))
        return ctg_output_message(w, CTG_EIO, "cannot write: the path changed while opening");
    return CTG_OK;
}

/* One of our own descriptors: a duplicate, written at its offset, closed at the end. */
static int open_descriptor(ctg_output *o, int fd, ctg_error *w)
{
    o->direct = true;
    o->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    return o->fd >= 0 ? CTG_OK : ctg_output_io_failure(w, "cannot write");
}

/* ---- opening, committing, aborting ------------------------------------------------------ */

/* A regular file: replaced, unless other names share it and the caller did not allow it. */
static int open_regular(ctg_output *o, const struct stat *st, unsigned flags, ctg_error *w)
{
    if (st->st_nlink > 1 && !(flags & CTG_WRITE_BREAK_LINKS))
        return ctg_error_set(w, CTG_EINVAL, NULL, NULL,
                             "cannot replace a file with %lu hard links: the other names would "
                             "keep the old content", (unsigned long)st->st_nlink);
    return open_temp(o, st, w);
}

int ctg_output_open_target(ctg_output *o, unsigned flags, ctg_error *w)
{
    target_kind kind = TARGET_NONE;
    struct stat st;
    int fd, rc = find_target(o, &kind, &st, &fd, w);

    if (rc != CTG_OK)
        return rc;
    if (kind == TARGET_NONE)
        return open_temp(o, NULL, w);
    if (kind == TARGET_DESCRIPTOR)
        return open_descriptor(o, fd, w);
    if (S_ISDIR(st.st_mode)) {
        errno = EISDIR;
        return ctg_output_io_failure(w, "cannot write");
    }
    if (kind == TARGET_MAGIC)
        return open_direct(o, o->source, &st, w);
    if (!S_ISREG(st.st_mode))
        return open_direct(o, o->target, &st, w);
    return open_regular(o, &st, flags, w);
}

/* After the rename, makes the new directory entry durable. Best effort: some file systems
 * refuse fsync on a directory, and the data is already safe. */
static void sync_dir(ctg_output *o)
{
    size_t n = dir_length(o->target);
    char *dir = o->tmp; /* no longer needed as a name: it was renamed */
    int fd;

    if (n == 0) {
        dir = ".";
    } else {
        dir[n > 1 ? n - 1 : 1] = '\0'; /* "/" stays "/" */
    }
    fd = open(dir, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
}

/* The temporary file is gone (renamed or removed): tell the caller it has nothing to clean. */
static void temp_gone(ctg_output *o)
{
    if (o->temp_file)
        o->temp_file(NULL, o->temp_payload);
}

static int commit_direct(ctg_output *o, ctg_error *w)
{
    int rc = CTG_OK;

    if (o->sync && fsync(o->fd) != 0)
        rc = ctg_output_io_failure(w, "cannot flush");
    if (close(o->fd) != 0 && rc == CTG_OK)
        rc = ctg_output_io_failure(w, "cannot close");
    o->fd = -1;
    return rc;
}

int ctg_output_commit_target(ctg_output *o, ctg_error *w)
{
    int rc = CTG_OK;

    if (o->direct)
        return commit_direct(o, w);
    if (fsync(o->fd) != 0)
        rc = ctg_output_io_failure(w, "cannot flush the temporary file");
    if (close(o->fd) != 0 && rc == CTG_OK)
        rc = ctg_output_io_failure(w, "cannot close the temporary file");
    o->fd = -1;
    if (rc == CTG_OK && rename(o->tmp, o->target) != 0)
        rc = ctg_output_io_failure(w, "cannot rename the temporary file");
    if (rc != CTG_OK)
        unlink(o->tmp);
    temp_gone(o);
    if (rc == CTG_OK)
        sync_dir(o);
    return rc;
}

void ctg_output_abort_target(ctg_output *o)
{
    if (o->fd >= 0)
        close(o->fd);
    if (o->tmp && !o->direct) {
        unlink(o->tmp);
        temp_gone(o);
    }
    o->fd = -1;
}
