/* SPDX-License-Identifier: MPL-2.0 */
/* Text outputs that are not contingency lists (a network's JSON dump, a resolve report),
 * written as the library writes lists: a regular file (or the file a link leads to) is
 * replaced atomically through a temporary file beside it, flushed and renamed over it, so that
 * a failure leaves it as it was; a device, FIFO or stdout is written through as the text
 * comes. The library's own writer takes lists only, hence this small twin. */

/* realpath(): X/Open, beyond the POSIX level the CLI is built at. */
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* The file that `path` leads to: a copy of `path`, or of the end of its links. */
static char *target_of(const char *path)
{
    struct stat st;

    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && stat(path, &st) == 0)
        return realpath(path, NULL);
    return strdup(path);
}

/* mkstemp's file is 0600: a new file gets 0666 less the umask, a replaced one its mode. */
static mode_t new_mode(const char *target)
{
    struct stat st;
    mode_t mask;

    if (stat(target, &st) == 0)
        return st.st_mode & 07777;
    mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

static int open_temp(cli_outfile *o, const char *target, ctg_error *err)
{
    char *dir_copy = strdup(target), *base_copy = strdup(target);
    size_t need;
    int fd = -1;

    if (dir_copy && base_copy) {
        const char *dir = dirname(dir_copy), *base = basename(base_copy);

        need = strlen(dir) + strlen(base) + sizeof "/..ctg-tmp-XXXXXX";
        o->temp = malloc(need);
        if (o->temp) {
            snprintf(o->temp, need, "%s/.%s.ctg-tmp-XXXXXX", dir, base);
            fd = mkstemp(o->temp);
        }
    }
    free(dir_copy);
    free(base_copy);
    if (fd < 0) {
        int e = o->temp ? errno : ENOMEM;

        free(o->temp);
        o->temp = NULL;
        return cli_io_failure(err, o->name, "cannot create a temporary file", e);
    }
    cli_signals_temp_file_at(o->slot, o->temp); /* removed if a signal ends us */
    if (fchmod(fd, new_mode(target)) != 0 || (o->fp = fdopen(fd, "w")) == NULL) {
        int e = errno;

        close(fd);
        cli_outfile_abort(o);
        return cli_io_failure(err, o->name, "cannot write", e);
    }
    return CTG_OK;
}

int cli_outfile_open(cli_outfile *o, const char *path, int slot, bool break_links, ctg_error *err)
{
    struct stat st;
    int rc;

    memset(o, 0, sizeof *o);
    o->slot = slot;
    o->name = cli_output_name(path);
    if (strcmp(path, "-") == 0) {
        o->fp = stdout;
        return CTG_OK;
    }
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return cli_io_failure(err, path, "cannot write", EISDIR);
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        /* A device or a FIFO: written through, never replaced. */
        o->fp = fopen(path, "w");
        return o->fp ? CTG_OK : cli_io_failure(err, path, "cannot open", errno);
    }
    o->target = target_of(path);
    if (o->target == NULL)
        return cli_io_failure(err, path, "cannot open", ENOMEM);
    if (!break_links && stat(o->target, &st) == 0 && st.st_nlink > 1) {
        /* Replacing it would leave its other names with the old text, as for a list. */
        free(o->target);
        o->target = NULL;
        memset(err, 0, sizeof *err);
        err->code = CTG_EINVAL;
        snprintf(err->source, sizeof err->source, "%s", path);
        snprintf(err->message, sizeof err->message,
                 "cannot replace a file with %lu hard links: the other names would keep the old "
                 "content",
                 (unsigned long)st.st_nlink);
        return CTG_EINVAL;
    }
    rc = open_temp(o, o->target, err);
    if (rc != CTG_OK) {
        free(o->target);
        o->target = NULL;
    }
    return rc;
}

int cli_outfile_write(cli_outfile *o, const void *data, size_t len)
{
    if (len > 0 && fwrite(data, 1, len, o->fp) != len)
        o->failed = true;
    return o->failed ? -1 : 0;
}

int cli_outfile_puts(cli_outfile *o, const char *text)
{
    return cli_outfile_write(o, text, strlen(text));
}

/* The directory is flushed too, so that the rename survives a crash. */
static void sync_dir(const char *target)
{
    char *copy = strdup(target);
    int fd = copy ? open(dirname(copy), O_RDONLY | O_CLOEXEC) : -1;

    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    free(copy);
}

/* The temporary file is gone (renamed or removed): no signal is to remove it any more. */
static void forget_temp(cli_outfile *o)
{
    if (o->temp)
        cli_signals_temp_file_at(o->slot, NULL);
    free(o->temp);
    free(o->target);
    o->temp = o->target = NULL;
}

int cli_outfile_prepare(cli_outfile *o, ctg_error *err)
{
    int e = 0;

    if (o->fp == NULL) /* prepared already, or done */
        return CTG_OK;
    if (o->fp == stdout) {
        o->fp = NULL;
        return fflush(stdout) == 0 && !o->failed && !ferror(stdout)
                   ? CTG_OK
                   : cli_io_failure(err, o->name, "cannot write", errno);
    }
    errno = 0;
    if (o->failed || ferror(o->fp) || fflush(o->fp) != 0 || (o->temp && fsync(fileno(o->fp)) != 0))
        e = errno ? errno : EIO;
    if (fclose(o->fp) != 0 && e == 0)
        e = errno;
    o->fp = NULL;
    if (e != 0) {
        cli_outfile_abort(o);
        return cli_io_failure(err, o->name, "cannot write", e);
    }
    return CTG_OK;
}

int cli_outfile_commit(cli_outfile *o, ctg_error *err)
{
    bool through = o->temp == NULL;
    int rc = cli_outfile_prepare(o, err), e;

    if (rc != CTG_OK || through) {
        forget_temp(o);
        return rc;
    }
    if (rename(o->temp, o->target) != 0) {
        e = errno;
        cli_outfile_abort(o);
        return cli_io_failure(err, o->name, "cannot write", e);
    }
    sync_dir(o->target);
    forget_temp(o);
    return CTG_OK;
}

void cli_outfile_abort(cli_outfile *o)
{
    if (o->fp != NULL && o->fp != stdout)
        fclose(o->fp);
    o->fp = NULL;
    if (o->temp)
        unlink(o->temp);
    forget_temp(o);
}

/* stat of `path`, "-" being stdout: false when it does not exist (or cannot be looked at). */
static bool stat_output(const char *path, struct stat *st)
{
    return strcmp(path, "-") == 0 ? fstat(STDOUT_FILENO, st) == 0 : stat(path, st) == 0;
}

/* Whether two paths of files not there yet would be one: the same name in one folder. */
static bool same_new_file(const char *a, const char *b)
{
    const char *ba = strrchr(a, '/'), *bb = strrchr(b, '/');
    char *da = strdup(a), *db = strdup(b);
    struct stat sa, sb;
    bool yes = false;

    ba = ba != NULL ? ba + 1 : a;
    bb = bb != NULL ? bb + 1 : b;
    if (da != NULL && db != NULL && strcmp(ba, bb) == 0 && stat(dirname(da), &sa) == 0 &&
        stat(dirname(db), &sb) == 0)
        yes = sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    free(da);
    free(db);
    return yes;
}

bool cli_same_output(const char *a, const char *b)
{
    struct stat sa, sb;
    bool ea, eb;

    if (strcmp(a, "-") == 0 && strcmp(b, "-") == 0)
        return true;
    ea = stat_output(a, &sa);
    eb = stat_output(b, &sb);
    if (ea && eb) /* a device (/dev/null twice, the terminal) is no file to lose */
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino && !S_ISCHR(sa.st_mode);
    return !ea && !eb && strcmp(a, "-") != 0 && strcmp(b, "-") != 0 && same_new_file(a, b);
}

bool cli_replaces_input(const char *out, const char *in)
{
    return strcmp(out, "-") != 0 && strcmp(in, "-") != 0 && cli_same_output(out, in);
}
