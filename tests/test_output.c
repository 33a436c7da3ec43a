/* SPDX-License-Identifier: MPL-2.0 */
/* Path outputs: what ctg_list_write_file and ctg_stream_writer_open_path do with each kind of
 * path. A regular file is replaced atomically and keeps its mode and owner; a symbolic link's
 * target is replaced and the link kept; devices, FIFOs and sockets are written through; a
 * directory or a file with several hard links is refused before anything is written. The
 * tests that need root (mknod, chown, a tmpfs mount) print a note and return otherwise. */

/* mknod, makedev and mount are beyond POSIX: this suite is for Linux (glibc or musl). */
#define _DEFAULT_SOURCE

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "tests/test_common.h"

/* ---- helpers -------------------------------------------------------------------------- */

static const ctg_element line[] = { { "NHV1_NHV2_1", CTG_ELEMENT_LINE, NULL } };

/* A `default` list of `n` contingencies; `n` large makes a large file. */
static ctg_list *make_list(size_t n)
{
    ctg_list *list = NULL;
    char id[32];

    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&list, CTG_LIST_DEFAULT, "out", NULL), CTG_OK);
    for (size_t i = 0; i < n; i++) {
        snprintf(id, sizeof id, "N-1_%zu", i);
        CU_ASSERT_EQUAL_FATAL(ctg_list_add_contingency(list, id, NULL, line, 1), CTG_OK);
    }
    return list;
}

/* What the list's write gives, NUL-terminated; the caller frees it. */
static char *expected(const ctg_list *list)
{
    ctg_buf b = CTG_BUF_INIT;

    CU_ASSERT_EQUAL_FATAL(ctg_list_write_buf(&b, list, NULL, NULL), CTG_OK);
    return b.data;
}

/* A scratch folder in the working directory (short paths: a socket's must fit 108 bytes). */
static void scratch_make(char *dir, size_t size)
{
    ctg_test_scratch_make(dir, size, "ctg-output");
}

/* Number of entries of `dir` holding ".ctg-tmp-": temporary files left behind. */
static int temp_files(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *ent;
    int n = 0;

    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    while ((ent = readdir(d)) != NULL)
        n += strstr(ent->d_name, ".ctg-tmp-") != NULL;
    closedir(d);
    return n;
}

static void assert_file(const char *path, const char *want)
{
    size_t len = 0;
    char *got = ctg_test_slurp(path, &len);

    CU_ASSERT_PTR_NOT_NULL_FATAL(got);
    CU_ASSERT_EQUAL(len, strlen(want));
    CU_ASSERT(len == strlen(want) && memcmp(got, want, len) == 0);
    free(got);
}

static mode_t file_type(const char *path)
{
    struct stat st;

    CU_ASSERT_EQUAL_FATAL(lstat(path, &st), 0);
    return st.st_mode & S_IFMT;
}

static bool need_root(const char *what)
{
    if (geteuid() == 0)
        return true;
    printf("\n  skipped (needs root): %s", what);
    return false;
}

/* The temp_file hook's record: every call, the last path, and whether the file existed. */
typedef struct hook_log {
    int calls, nulls;
    bool existed;
    char path[4096];
} hook_log;

static void on_temp_file(const char *path, void *payload)
{
    hook_log *h = payload;
    struct stat st;

    h->calls++;
    if (path == NULL) {
        h->nulls++;
        return;
    }
    snprintf(h->path, sizeof h->path, "%s", path);
    h->existed = lstat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static ctg_write_options hooked(hook_log *h, unsigned flags)
{
    ctg_write_options o = CTG_WRITE_OPTIONS_INIT;

    memset(h, 0, sizeof *h);
    o.flags = flags;
    o.temp_file = on_temp_file;
    o.payload = h;
    return o;
}

/* ---- readers on the other end of a FIFO or a socket ---------------------------------- */

typedef struct reader {
    const char *path;
    int listen_fd; /* a socket's, or -1 for a FIFO */
    char *data;
    size_t len;
} reader;

static void read_all(reader *r, int fd)
{
    size_t cap = 0;
    ssize_t n;

    for (;;) {
        if (r->len + 4096 > cap) {
            cap = (r->len + 4096) * 2;
            r->data = realloc(r->data, cap + 1);
        }
        n = read(fd, r->data + r->len, cap - r->len);
        if (n <= 0)
            break;
        r->len += (size_t)n;
    }
    r->data[r->len] = '\0';
}

static void *reader_main(void *arg)
{
    reader *r = arg;
    int fd = r->listen_fd >= 0 ? accept(r->listen_fd, NULL, NULL) : open(r->path, O_RDONLY);

    if (fd >= 0) {
        read_all(r, fd);
        close(fd);
    }
    return NULL;
}

/* ---- devices -------------------------------------------------------------------------- */

static void check_written_through(const char *path, dev_t rdev)
{
    ctg_list *list = make_list(3);
    ctg_stream_writer *w = NULL;
    hook_log h;
    ctg_write_options o = hooked(&h, 0);
    struct stat st;

    CU_ASSERT_EQUAL(ctg_list_write_file(path, list, &o, NULL), CTG_OK);
    CU_ASSERT_EQUAL(h.calls, 0); /* no temporary file */
    CU_ASSERT_EQUAL_FATAL(ctg_stream_writer_open_path(&w, path, "s", &o, NULL), CTG_OK);
    CU_ASSERT_PTR_NULL(ctg_stream_writer_temp_path(w));
    CU_ASSERT_EQUAL(ctg_stream_writer_add(w, ctg_list_contingency_at(list, 0), NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_stream_writer_close(w, NULL), CTG_OK);
    CU_ASSERT_EQUAL(h.calls, 0);
    CU_ASSERT_EQUAL_FATAL(lstat(path, &st), 0);
    CU_ASSERT(S_ISCHR(st.st_mode));
    CU_ASSERT_EQUAL(st.st_rdev, rdev);
    ctg_list_free(list);
}

/* A device node (here /dev/null's numbers) stays the device: the bytes go to it. */
CTG_TEST(output, device_node_written_through)
{
    char dir[64], path[128];

    if (geteuid() != 0) {
        /* Not root: /dev/null itself cannot be harmed, and the old code failed on it. */
        check_written_through("/dev/null", makedev(1, 3));
        need_root("a device node made with mknod");
        return;
    }
    scratch_make(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/null", dir);
    CU_ASSERT_EQUAL_FATAL(mknod(path, S_IFCHR | 0666, makedev(1, 3)), 0);
    check_written_through(path, makedev(1, 3));
    CU_ASSERT_EQUAL(temp_files(dir), 0);
    ctg_test_scratch_remove(dir);
}

/* /dev/full (or a node of it when root, so that the real one is never at risk): the error of
 * the device, and the device is still there. */
CTG_TEST(output, full_device_reports_no_space)
{
    ctg_list *list = make_list(3);
    ctg_stream_writer *w = NULL;
    char dir[64], path[128] = "/dev/full";
    ctg_error err;

    scratch_make(dir, sizeof dir);
    if (geteuid() == 0) {
        snprintf(path, sizeof path, "%s/full", dir);
        CU_ASSERT_EQUAL_FATAL(mknod(path, S_IFCHR | 0666, makedev(1, 7)), 0);
    }
    CU_ASSERT_EQUAL(ctg_list_write_file(path, list, NULL, &err), CTG_EIO);
    CU_ASSERT_STRING_EQUAL(err.message, "cannot write: No space left on device");
    CU_ASSERT_STRING_EQUAL(err.source, path);
    CU_ASSERT_EQUAL_FATAL(ctg_stream_writer_open_path(&w, path, "s", NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_stream_writer_add(w, ctg_list_contingency_at(list, 0), NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_stream_writer_close(w, &err), CTG_EIO);
    CU_ASSERT_STRING_EQUAL(err.message, "cannot write: No space left on device");
    CU_ASSERT_EQUAL(file_type(path), S_IFCHR);
    CU_ASSERT_EQUAL(temp_files(dir), 0);
    ctg_test_scratch_remove(dir);
    ctg_list_free(list);
}

/* ---- FIFOs and sockets ---------------------------------------------------------------- */

/* Writes the list to `path` while `r` reads the other end; checks what it got. A writer that
 * replaced the path instead must fail the test, not hang it: for a FIFO, `hold` (a reader and
 * writer of our own) keeps the reader's open from waiting and its read from ending before we
 * close it; for a socket, a path that is no longer one shuts down the pending accept. */
static void write_to_reader(reader *r, const char *path)
{
    ctg_list *list = make_list(2000); /* more than a pipe holds: the writer must wait */
    char *want = expected(list);
    int hold = r->listen_fd < 0 ? open(path, O_RDWR) : -1;
    pthread_t t;
    struct stat st;

    r->path = path;
    CU_ASSERT_EQUAL_FATAL(pthread_create(&t, NULL, reader_main, r), 0);
    CU_ASSERT_EQUAL(ctg_list_write_file(path, list, NULL, NULL), CTG_OK);
    if (hold >= 0)
        close(hold);
    if (r->listen_fd >= 0 && (lstat(path, &st) != 0 || !S_ISSOCK(st.st_mode)))
        shutdown(r->listen_fd, SHUT_RDWR);
    pthread_join(t, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r->data);
    CU_ASSERT_STRING_EQUAL(r->data, want);
    free(r->data);
    free(want);
    ctg_list_free(list);
}

CTG_TEST(output, fifo_written_through)
{
    reader r = { NULL, -1, NULL, 0 };
    char dir[64], path[128];

    scratch_make(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/fifo", dir);
    CU_ASSERT_EQUAL_FATAL(mkfifo(path, 0600), 0);
    write_to_reader(&r, path);
    CU_ASSERT_EQUAL(file_type(path), S_IFIFO);
    CU_ASSERT_EQUAL(temp_files(dir), 0);
    ctg_test_scratch_remove(dir);
}

CTG_TEST(output, socket_connected_to)
{
    reader r = { NULL, -1, NULL, 0 };
    struct sockaddr_un sa;
    char dir[64];

    scratch_make(dir, sizeof dir);
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s/sock", dir);
    r.listen_fd = socket(AF_UNIX, SOCK_STREAM, 0);
    CU_ASSERT_FATAL(r.listen_fd >= 0);
    CU_ASSERT_EQUAL_FATAL(bind(r.listen_fd, (struct sockaddr *)&sa, sizeof sa), 0);
    CU_ASSERT_EQUAL_FATAL(listen(r.listen_fd, 1), 0);
    write_to_reader(&r, sa.sun_path);
    close(r.listen_fd);
    CU_ASSERT_EQUAL(file_type(sa.sun_path), S_IFSOCK);
    CU_ASSERT_EQUAL(temp_files(dir), 0);
    ctg_test_scratch_remove(dir);
}

/* ---- names of our own descriptors ---------------------------------------------------- */

/* Reads what a pipe holds now (the writer has finished and closed its copy). */
static char *drain(int fd)
{
    reader r = { NULL, -1, NULL, 0 };

    read_all(&r, fd);
    return r.data;
}

/* "/dev/fd/N" and "/proc/self/fd/N" are the descriptor: a pipe gets the bytes, a file opened
 * for appending gets them at its end (a new open of the name would start at 0). A link to
 * such a name (under /proc the link's text is "pipe:[N]", no path) is followed by the kernel. */
CTG_TEST(output, own_descriptor_names)
{
    ctg_list *list = make_list(2);
    char *want = expected(list), *got, name[64], dir[64], path[128], link[128];
    int p[2], fd;

    CU_ASSERT_EQUAL_FATAL(pipe(p), 0);
    snprintf(name, sizeof name, "/dev/fd/%d", p[1]);
    CU_ASSERT_EQUAL(ctg_list_write_file(name, list, NULL, NULL), CTG_OK);
    snprintf(name, sizeof name, "/proc/self/fd/%d", p[1]);
    CU_ASSERT_EQUAL(ctg_list_write_file(name, list, NULL, NULL), CTG_OK);
    scratch_make(dir, sizeof dir);
    snprintf(link, sizeof link, "%s/link", dir);
    CU_ASSERT_EQUAL_FATAL(symlink(name, link), 0);
    CU_ASSERT_EQUAL(ctg_list_write_file(link, list, NULL, NULL), CTG_OK);
    close(p[1]);
    got = drain(p[0]);
    close(p[0]);
    CU_ASSERT_EQUAL(strlen(got), 3 * strlen(want));
    CU_ASSERT(strncmp(got, want, strlen(want)) == 0 && strcmp(got + 2 * strlen(want), want) == 0);
    free(got);
    snprintf(path, sizeof path, "%s/log", dir);
    ctg_test_put_file(path, "head\n");
    fd = open(path, O_WRONLY | O_APPEND);
    CU_ASSERT_FATAL(fd >= 0);
    snprintf(name, sizeof name, "/dev/fd/%d", fd);
    CU_ASSERT_EQUAL(ctg_list_write_file(name, list, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL(write(fd, "\ntail", 5), 5);
    close(fd);
    got = malloc(strlen(want) + 16);
    sprintf(got, "head\n%s\ntail", want);
    assert_file(path, got);
    CU_ASSERT_EQUAL(temp_files(dir), 0);
    ctg_test_scratch_remove(dir);
    free(got);
    free(want);
    ctg_list_free(list);
}

/* ---- symbolic links ------------------------------------------------------------------- */

/* dir/c -> b -> sub/t.json (relative links, resolved from the link's folder): the target is
 * replaced, from a temporary file in its own folder, and both links stay. */
CTG_TEST(output, symlink_target_replaced)
{
    ctg_list *list = make_list(2);
    char *want = expected(list);
    char dir[64], sub[96], t[128], b[128], c[128], tmp_prefix[160];
    hook_log h;
    ctg_write_options o = hooked(&h, 0);

    scratch_make(dir, sizeof dir);
    snprintf(sub, sizeof sub, "%s/sub", dir);
    snprintf(t, sizeof t, "%s/t.json", sub);
    snprintf(b, sizeof b, "%s/b", dir);
    snprintf(c, sizeof c, "%s/c", dir);
    CU_ASSERT_EQUAL_FATAL(mkdir(sub, 0700), 0);
    ctg_test_put_file(t, "old");
    CU_ASSERT_EQUAL_FATAL(symlink("sub/t.json", b), 0);
    CU_ASSERT_EQUAL_FATAL(symlink("b", c), 0);
    CU_ASSERT_EQUAL(ctg_list_write_file(c, list, &o, NULL), CTG_OK);
    assert_file(t, want);
    CU_ASSERT_EQUAL(file_type(b), S_IFLNK);
    CU_ASSERT_EQUAL(file_type(c), S_IFLNK);
    snprintf(tmp_prefix, sizeof tmp_prefix, "%s/.t.json.ctg-tmp-", sub);
    CU_ASSERT_EQUAL(strncmp(h.path, tmp_prefix, strlen(tmp_prefix)), 0);
    CU_ASSERT_EQUAL(strlen(h.path), strlen(tmp_prefix) + 6);
    CU_ASSERT_EQUAL(h.nulls, 1);
    CU_ASSERT_EQUAL(temp_files(dir) + temp_files(sub), 0);
    ctg_test_scratch_remove(dir);
    free(want);
    ctg_list_free(list);
}

/* An absolute link, through the stream writer. */
CTG_TEST(output, absolute_symlink_through_stream_writer)
{
    ctg_list *list = make_list(1);
    ctg_stream_writer *w = NULL;
    char dir[64], t[128], link[128], abs_t[4096];

    scratch_make(dir, sizeof dir);
    snprintf(t, sizeof t, "%s/t.json", dir);
    snprintf(link, sizeof link, "%s/link", dir);
    ctg_test_put_file(t, "old");
    CU_ASSERT_PTR_NOT_NULL_FATAL(realpath(t, abs_t));
    CU_ASSERT_EQUAL_FATAL(symlink(abs_t, link), 0);
    CU_ASSERT_EQUAL_FATAL(ctg_stream_writer_open_path(&w, link, "out", NULL, NULL), CTG_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(ctg_stream_writer_temp_path(w), "/.t.json.ctg-tmp-"));
    CU_ASSERT_EQUAL(ctg_stream_writer_add(w, ctg_list_contingency_at(list, 0), NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_stream_writer_close(w, NULL), CTG_OK);
    CU_ASSERT_EQUAL(file_type(link), S_IFLNK);
    {
        char *want = expected(list);
        assert_file(t, want);
        free(want);
    }
    CU_ASSERT_EQUAL(temp_files(dir), 0);
    ctg_test_scratch_remove(dir);
    ctg_list_free(list);
}

/* A dangling link: its target is created, as a shell's `>` would, and the link stays. */
CTG_TEST(output, dangling_symlink_creates_target)
{
    ctg_list *list = make_list(1);
    char *want = expected(list);
    char dir[64], t[128], link[128];

    scratch_make(dir, sizeof dir);
    snprintf(t, sizeof t, "%s/new.json", dir);
    snprintf(link, sizeof link, "%s/link", dir);
    CU_ASSERT_EQUAL_FATAL(symlink("new.json", link), 0);
    CU_ASSERT_EQUAL(ctg_list_write_file(link, list, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL(file_type(link), S_IFLNK);
    CU_ASSERT_EQUAL(file_type(t), S_IFREG);
    assert_file(t, want);
    CU_ASSERT_EQUAL(temp_files(dir), 0);
    ctg_test_scratch_remove(dir);
    free(want);
    ctg_list_free(list);
}

/* a -> b -> a: the system's ELOOP, and both links as they were. */
CTG_TEST(output, symlink_loop_fails)
{
    ctg_list *list = make_list(1);
    char dir[64], a[128], b[128];
    ctg_error err;

    scratch_make(dir, sizeof dir);
    snprintf(a, sizeof a, "%s/a", dir);
    snprintf(b, sizeof b, "%s/b", dir);
    CU_ASSERT_EQUAL_FATAL(symlink("b", a), 0);
    CU_ASSERT_EQUAL_FATAL(symlink("a", b), 0);
    CU_ASSERT_EQUAL(ctg_list_write_file(a, list, NULL, &err), CTG_EIO);
    CU_ASSERT_STRING_EQUAL(err.message, "cannot write: Too many levels of symbolic links");
    CU_ASSERT_EQUAL(file_type(a), S_IFLNK);
    CU_ASSERT_EQUAL(file_type(b), S_IFLNK);
    CU_ASSERT_EQUAL(temp_files(dir), 0);
    ctg_test_scratch_remove(dir);
    ctg_list_free(list);
}

/* ---- hard links and directories ------------------------------------------------------- */

CTG_TEST(output, hard_link_refused_unless_allowed)
{
    ctg_list *list = make_list(1);
    char *want = expected(list);
    ctg_stream_writer *w = NULL;
    char dir[64], a[128], b[128];
    hook_log h;
    ctg_write_options o = hooked(&h, 0);
    ctg_error err;
    struct stat st;

    scratch_make(dir, sizeof dir);
    snprintf(a, sizeof a, "%s/a.json", dir);
    snprintf(b, sizeof b, "%s/b.json", dir);
    ctg_test_put_file(a, "old");
    CU_ASSERT_EQUAL_FATAL(link(a, b), 0);
    CU_ASSERT_EQUAL(ctg_list_write_file(a, list, &o, &err), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.message, "cannot replace a file with 2 hard links: the other "
                                        "names would keep the old content");
    CU_ASSERT_STRING_EQUAL(err.source, a);
    CU_ASSERT_EQUAL(ctg_stream_writer_open_path(&w, a, "out", &o, &err), CTG_EINVAL);
    CU_ASSERT_PTR_NULL(w);
    CU_ASSERT_EQUAL(h.calls, 0); /* refused before a temporary file was made */
    assert_file(a, "old");
    o.flags = CTG_WRITE_BREAK_LINKS;
    CU_ASSERT_EQUAL(ctg_list_write_file(a, list, &o, &err), CTG_OK);
    assert_file(a, want);
    assert_file(b, "old");
    CU_ASSERT(stat(b, &st) == 0 && st.st_nlink == 1);
    CU_ASSERT_EQUAL(temp_files(dir), 0);
    ctg_test_scratch_remove(dir);
    free(want);
    ctg_list_free(list);
}

/* A directory fails at the open, before any byte: the stream writer does not even open. */
CTG_TEST(output, directory_refused_before_writing)
{
    ctg_list *list = make_list(1);
    ctg_stream_writer *w = NULL;
    char dir[64];
    hook_log h;
    ctg_write_options o = hooked(&h, 0);
    ctg_error err;

    scratch_make(dir, sizeof dir);
    CU_ASSERT_EQUAL(ctg_stream_writer_open_path(&w, dir, "out", &o, &err), CTG_EIO);
    CU_ASSERT_PTR_NULL(w);
    CU_ASSERT_STRING_EQUAL(err.message, "cannot write: Is a directory");
    CU_ASSERT_EQUAL(ctg_list_write_file(dir, list, &o, &err), CTG_EIO);
    CU_ASSERT_STRING_EQUAL(err.message, "cannot write: Is a directory");
    CU_ASSERT_EQUAL(h.calls, 0); /* no temporary file was made */
    CU_ASSERT_EQUAL(file_type(dir), S_IFDIR);
    ctg_test_scratch_remove(dir);
    ctg_list_free(list);
}

/* ---- attributes and names ------------------------------------------------------------- */

CTG_TEST(output, owner_and_mode_kept)
{
    ctg_list *list = make_list(1);
    char dir[64], path[128];
    struct stat st;

    scratch_make(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/out.json", dir);
    ctg_test_put_file(path, "old");
    CU_ASSERT_EQUAL_FATAL(chmod(path, 0604), 0);
    if (geteuid() == 0)
        CU_ASSERT_EQUAL_FATAL(chown(path, 65534, 65534), 0); /* nobody/nogroup */
    CU_ASSERT_EQUAL(ctg_list_write_file(path, list, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(stat(path, &st), 0);
    CU_ASSERT_EQUAL(st.st_mode & 07777, 0604);
    if (need_root("the owner kept (chown to 65534)")) {
        CU_ASSERT_EQUAL(st.st_uid, 65534);
        CU_ASSERT_EQUAL(st.st_gid, 65534);
    }
    CU_ASSERT_EQUAL(temp_files(dir), 0);
    ctg_test_scratch_remove(dir);
    ctg_list_free(list);
}

/* The base name of the last temporary file the hook saw. */
static const char *base_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* Writes to dir/<name>; returns the length of the temporary file's name. */
static size_t write_named(const char *dir, const char *name, const ctg_list *list)
{
    char path[512];
    hook_log h;
    ctg_write_options o = hooked(&h, 0);

    snprintf(path, sizeof path, "%s/%s", dir, name);
    CU_ASSERT_EQUAL(ctg_list_write_file(path, list, &o, NULL), CTG_OK);
    CU_ASSERT_EQUAL(file_type(path), S_IFREG);
    CU_ASSERT(h.existed);
    CU_ASSERT_EQUAL(base_of(h.path)[0], '.');
    CU_ASSERT_PTR_NOT_NULL(strstr(base_of(h.path), ".ctg-tmp-"));
    CU_ASSERT_EQUAL(unlink(path), 0);
    return strlen(base_of(h.path));
}

/* Every legal name works: a long one is shortened in the temporary name, which stays within
 * NAME_MAX (255), and never cut inside a UTF-8 sequence. */
CTG_TEST(output, temporary_name_fits_long_names)
{
    ctg_list *list = make_list(1);
    char dir[64], name[256];

    scratch_make(dir, sizeof dir);
    for (size_t len = 230; len <= 255; len++) {
        memset(name, 'a', len);
        name[len] = '\0';
        CU_ASSERT_EQUAL(write_named(dir, name, list), len + 16 <= 255 ? len + 16 : 255);
    }
    /* 127 two-byte characters and 'a': the cut at 239 bytes would split one. */
    for (size_t i = 0; i < 127; i++)
        memcpy(name + 2 * i, "\xc3\xa9", 2);
    memcpy(name + 254, "a", 2);
    CU_ASSERT_EQUAL(write_named(dir, name, list), 254);
    CU_ASSERT_EQUAL(temp_files(dir), 0);
    ctg_test_scratch_remove(dir);
    ctg_list_free(list);
}

/* ---- the temporary file, for signal handlers ------------------------------------------ */

CTG_TEST(output, temp_path_of_the_stream_writer)
{
    ctg_list *list = make_list(1);
    ctg_stream_writer *w = NULL;
    ctg_buf buf = CTG_BUF_INIT;
    char dir[64], path[128], copy[256];
    hook_log h;
    ctg_write_options o = hooked(&h, 0);
    struct stat st;

    scratch_make(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/out.json", dir);
    CU_ASSERT_EQUAL_FATAL(ctg_stream_writer_open_path(&w, path, "out", &o, NULL), CTG_OK);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ctg_stream_writer_temp_path(w));
    snprintf(copy, sizeof copy, "%s", ctg_stream_writer_temp_path(w));
    CU_ASSERT_STRING_EQUAL(copy, h.path);
    CU_ASSERT(h.existed && h.calls == 1 && h.nulls == 0);
    CU_ASSERT_EQUAL(strncmp(copy, "ctg-output-", 11), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(copy, "/.out.json.ctg-tmp-"));
    CU_ASSERT_EQUAL(ctg_stream_writer_close(w, NULL), CTG_OK);
    CU_ASSERT(h.calls == 2 && h.nulls == 1);
    CU_ASSERT(stat(copy, &st) != 0 && errno == ENOENT); /* renamed: unlink would be harmless */
    /* Aborted: removed, and the hook told. */
    CU_ASSERT_EQUAL_FATAL(ctg_stream_writer_open_path(&w, path, "out", &o, NULL), CTG_OK);
    ctg_stream_writer_abort(w);
    CU_ASSERT(h.calls == 4 && h.nulls == 2);
    /* Nothing to clean for memory and FILE * outputs. */
    CU_ASSERT_EQUAL_FATAL(ctg_stream_writer_open_buf(&w, &buf, "out", NULL, NULL), CTG_OK);
    CU_ASSERT_PTR_NULL(ctg_stream_writer_temp_path(w));
    ctg_stream_writer_abort(w);
    CU_ASSERT_PTR_NULL(ctg_stream_writer_temp_path(NULL));
    CU_ASSERT_EQUAL(temp_files(dir), 0);
    ctg_test_scratch_remove(dir);
    ctg_buf_dispose(&buf);
    ctg_list_free(list);
}

/* What a signal handler does, then the close the process never reaches: the old file stays. */
CTG_TEST(output, temp_file_removed_by_a_handler)
{
    ctg_list *list = make_list(1);
    ctg_stream_writer *w = NULL;
    char dir[64], path[128];
    ctg_error err;

    scratch_make(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/out.json", dir);
    ctg_test_put_file(path, "old");
    CU_ASSERT_EQUAL_FATAL(ctg_stream_writer_open_path(&w, path, "out", NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_stream_writer_add(w, ctg_list_contingency_at(list, 0), NULL), CTG_OK);
    CU_ASSERT_EQUAL(unlink(ctg_stream_writer_temp_path(w)), 0);
    CU_ASSERT_EQUAL(temp_files(dir), 0);
    CU_ASSERT_EQUAL(ctg_stream_writer_close(w, &err), CTG_EIO);
    CU_ASSERT_STRING_EQUAL(err.message,
                           "cannot rename the temporary file: No such file or directory");
    assert_file(path, "old");
    ctg_test_scratch_remove(dir);
    ctg_list_free(list);
}

/* Version 1 options (without temp_file) are still read, and only as far as they go. */
CTG_TEST(output, version_1_options)
{
    struct v1 {
        unsigned version, flags;
        const ctg_allocator *allocator;
    } *v1 = malloc(sizeof *v1); /* exactly its size: ASan sees any read beyond it */
    ctg_list *list = make_list(1);
    ctg_write_options v3 = CTG_WRITE_OPTIONS_INIT;
    ctg_buf buf = CTG_BUF_INIT;
    ctg_error err;

    v1->version = 1;
    v1->flags = CTG_WRITE_COMPACT;
    v1->allocator = NULL;
    CU_ASSERT_EQUAL(ctg_list_write_buf(&buf, list, (const ctg_write_options *)(void *)v1, NULL),
                    CTG_OK);
    CU_ASSERT_STRING_EQUAL(buf.data, "{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"out\","
                                     "\"contingencies\":[{\"id\":\"N-1_0\",\"elements\":[{\"id\":"
                                     "\"NHV1_NHV2_1\",\"type\":\"LINE\"}]}]}");
    v3.version = CTG_WRITE_OPTIONS_VERSION + 1;
    CU_ASSERT_EQUAL(ctg_list_write_buf(&buf, list, &v3, &err), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.message, "unknown ctg_write_options version");
    v3.version = CTG_WRITE_OPTIONS_VERSION;
    v3.flags = 1u << 2;
    CU_ASSERT_EQUAL(ctg_list_write_buf(&buf, list, &v3, &err), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.message, "unknown write flag");
    ctg_buf_dispose(&buf);
    free(v1);
    ctg_list_free(list);
}

/* ---- a big file, allocated ahead on ext4 ---------------------------------------------- */

/* Past its first 16 MiB, a temporary file on ext4 is allocated 64 MiB at a time ahead of the
 * writes (output.c), then cut to what was written before the rename: the file has exactly the
 * list's bytes, and no block beyond them. */
CTG_TEST(output, big_file_allocated_ahead_then_cut)
{
    ctg_list *list = make_list(300000); /* about 27 MB */
    ctg_stream_writer *w = NULL;
    char dir[64], path[128], *want = expected(list), *got;
    size_t len = 0, n = ctg_list_contingency_count(list);
    struct statfs sf;
    struct stat st;
    int rc = CTG_OK;

    scratch_make(dir, sizeof dir);
    if (statfs(dir, &sf) != 0 || sf.f_type != 0xEF53) {
        printf("\n  skipped: the working directory is not on ext4");
        goto done;
    }
    snprintf(path, sizeof path, "%s/out.json", dir);
    CU_ASSERT_EQUAL_FATAL(ctg_stream_writer_open_path(&w, path, "out", NULL, NULL), CTG_OK);
    for (size_t i = 0; rc == CTG_OK && i < n; i++)
        rc = ctg_stream_writer_add(w, ctg_list_contingency_at(list, i), NULL);
    CU_ASSERT_EQUAL_FATAL(rc, CTG_OK);
    /* Before the close: the file reaches 64 MiB past where the 16 MiB were crossed. */
    CU_ASSERT_EQUAL_FATAL(stat(ctg_stream_writer_temp_path(w), &st), 0);
    CU_ASSERT(st.st_size > (off_t)80 * 1024 * 1024 - 256 * 1024);
    CU_ASSERT(strlen(want) > 24 * 1024 * 1024 && strlen(want) < 40 * 1024 * 1024);
    CU_ASSERT_EQUAL_FATAL(ctg_stream_writer_close(w, NULL), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(stat(path, &st), 0);
    CU_ASSERT_EQUAL((size_t)st.st_size, strlen(want));
    CU_ASSERT((size_t)st.st_blocks * 512 <= strlen(want) + 64 * 1024); /* no block left over */
    got = ctg_test_slurp(path, &len);
    CU_ASSERT(len == strlen(want) && memcmp(got, want, len) == 0);
    free(got);
    CU_ASSERT_EQUAL(temp_files(dir), 0);
    unlink(path);
done:
    ctg_test_scratch_remove(dir);
    free(want);
    ctg_list_free(list);
}

/* ---- a full file system --------------------------------------------------------------- */

/* A 64 KiB tmpfs holding a small file: a list of about 600 KB does not fit. The old file is
 * untouched and no temporary file stays, for both writers. */
CTG_TEST(output, full_file_system_keeps_old_file)
{
    ctg_list *list = NULL;
    ctg_stream_writer *w = NULL;
    char dir[64], path[128];
    ctg_error err;
    int rc = CTG_OK;

    if (!need_root("a full file system (a tmpfs mount)"))
        return;
    scratch_make(dir, sizeof dir);
    if (mount("tmpfs", dir, "tmpfs", 0, "size=64k") != 0) {
        printf("\n  skipped: cannot mount a tmpfs: %s", strerror(errno));
        rmdir(dir);
        return;
    }
    list = make_list(8000);
    snprintf(path, sizeof path, "%s/out.json", dir);
    ctg_test_put_file(path, "old");
    CU_ASSERT_EQUAL(ctg_list_write_file(path, list, NULL, &err), CTG_EIO);
    CU_ASSERT_STRING_EQUAL(err.message, "cannot write: No space left on device");
    assert_file(path, "old");
    CU_ASSERT_EQUAL(temp_files(dir), 0);
    CU_ASSERT_EQUAL_FATAL(ctg_stream_writer_open_path(&w, path, "out", NULL, NULL), CTG_OK);
    for (size_t i = 0; rc == CTG_OK && i < ctg_list_contingency_count(list); i++)
        rc = ctg_stream_writer_add(w, ctg_list_contingency_at(list, i), &err);
    CU_ASSERT_EQUAL(rc, CTG_EIO);
    ctg_stream_writer_abort(w);
    assert_file(path, "old");
    CU_ASSERT_EQUAL(temp_files(dir), 0);
    unlink(path);
    CU_ASSERT_EQUAL(umount(dir), 0);
    rmdir(dir);
    ctg_list_free(list);
}

/* A 40 MiB ext4 holds about 34 MiB: the 64 MiB step taken at 16 MiB stops partway, after
 * growing the file, and the 27 MB list still fits. The file must end where the list ends,
 * with no zeros after it, and read back as written. */
CTG_TEST(output, failed_allocation_step_is_cut)
{
    ctg_list *list = NULL;
    char dir[64], img[80], path[128], cmd[512], *want = NULL, *got;
    size_t len = 0;
    struct stat st;
    ctg_error err;

    if (!need_root("a nearly full ext4 (a loop mount)"))
        return;
    scratch_make(dir, sizeof dir);
    snprintf(img, sizeof img, "%s.img", dir);
    snprintf(cmd, sizeof cmd, "truncate -s 40M %s && mkfs.ext4 -q -F %s >/dev/null 2>&1 && "
             "mount -o loop %s %s", img, img, img, dir);
    if (system(cmd) != 0) {
        printf("\n  skipped: cannot make and mount an ext4 image");
        goto done;
    }
    list = make_list(300000);
    want = expected(list);
    snprintf(path, sizeof path, "%s/out.json", dir);
    CU_ASSERT_EQUAL(ctg_list_write_file(path, list, NULL, &err), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(stat(path, &st), 0);
    CU_ASSERT_EQUAL((size_t)st.st_size, strlen(want));
    got = ctg_test_slurp(path, &len);
    CU_ASSERT(len == strlen(want) && memcmp(got, want, len) == 0);
    free(got);
    CU_ASSERT_EQUAL(temp_files(dir), 0);
    CU_ASSERT_EQUAL(umount(dir), 0);
done:
    unlink(img);
    rmdir(dir);
    free(want);
    ctg_list_free(list);
}

#include "test_output.tests.h"
