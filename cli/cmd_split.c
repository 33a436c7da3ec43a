/* SPDX-License-Identifier: MPL-2.0 */
/* contingency-cli split IN (--parts N | --size K) OUTPREFIX: cuts a `default` list into parts.
 *
 * Parts keep the input's order and are balanced by element count, which is what the run time
 * of a security analysis follows. --parts N needs the total first: a quick scan of IN counts
 * it (splitcount.h) and the read that writes checks the count (a wrong one, which the scan
 * should never give, has the parts written again); where the scan is unsure, a read counts
 * first (extension values skipped). stdin is copied to a temporary file for it. --size K
 * decides as it goes, in one read.
 *
 * All or nothing: parts are written in a temporary directory beside OUTPREFIX and renamed
 * into place once all are complete; on a failure the directory and what it holds are
 * removed, and no OUTPREFIX-NNNN.json is touched. Only a failure of the final renames (a
 * disk gone between two rename(2)s) can leave some parts in place; it is reported. */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pipeline.h"
#include "splitcount.h"

enum { FLAG_COMPACT = 1u << 0 };
enum { OPT_PARTS, OPT_SIZE, OPT_COUNT };
/* Also keeps the balance's products (weight x parts) far within 64 bits. */
#define SPLIT_MAX_PARTS 1000000

static const char *const split_flags[] = { "--compact", NULL };
static const char *const split_valued[] = { "--parts", "--size", NULL };

typedef struct split_job {
    const char *prefix;
    char *dir;      /* the temporary directory, owned */
    size_t parts;   /* --parts N, or 0 with --size */
    size_t size;    /* --size K */
    uint64_t total; /* weight of the whole input (--parts) */
    uint64_t count; /* contingencies of the whole input (--parts) */
    bool by_count;  /* no element at all: balance the number of contingencies */
    size_t part;    /* parts opened so far; the current one is part - 1 */
    size_t in_part; /* contingencies in the current part */
    uint64_t done;  /* weight before the current contingency */
    uint64_t part_weight;
    bool guessed;         /* total and by_count come from the quick count: checked after */
    uint64_t seen_weight; /* elements written, for that check */
    uint64_t seen_count;  /* contingencies written */
    bool compact;
    pl_out out;
    char out_path[4096];
    int status;
} split_job;

static int count_one(const ctg_stream_header *h, const ctg_contingency *c, const char *path,
                     const ctg_stream_place *at, void *ctx)
{
    split_job *j = ctx;

    (void)h;
    (void)path;
    (void)at;
    j->total += c->element_count;
    return 0;
}

/* Part `n` (from 1): its temporary path when `temp`, else its final name. The final names
 * have one width, that of the number of parts (at least 4), known when they are put in
 * place, so that a shell's glob of them lists them in order. */
static int part_name(const split_job *j, size_t n, bool temp, char *buf, size_t cap)
{
    size_t parts = j->parts > j->part ? j->parts : j->part;
    int width = parts > 9999 ? snprintf(NULL, 0, "%zu", parts) : 4;
    int len = temp ? snprintf(buf, cap, "%s/%zu", j->dir, n)
                   : snprintf(buf, cap, "%s-%0*zu.json", j->prefix, width, n);

    return len >= 0 && (size_t)len < cap ? 0 : -1;
}

/* Closes the current part and opens the next. */
static int next_part(split_job *j, const char *name)
{
    if (j->out.w != NULL && (j->status = pl_out_close(&j->out)) != CLI_OK)
        return j->status;
    if (part_name(j, ++j->part, true, j->out_path, sizeof j->out_path) != 0)
        return j->status = pl_fail(CLI_FAILURE, j->prefix, "", "name too long");
    pl_out_init(&j->out, j->out_path, j->compact, false);
    j->in_part = 0;
    j->part_weight = 0;
    return j->status = pl_out_open(&j->out, name);
}

/* Whether `w` more would take the current part past its share: with --parts, when the
 * contingency's middle lies past the part's end (total * part / parts), so that each
 * boundary falls where it is nearest its ideal place. */
static bool starts_new_part(const split_job *j, uint64_t w)
{
    if (j->out.w == NULL)
        return true;
    if (j->in_part == 0) /* a part holds at least one, and only the last ones can be empty */
        return false;
    if (j->parts == 0)
        return j->part_weight + w > j->size;
    if (j->part >= j->parts)
        return false;
    /* As many contingencies left as parts: one each, rather than empty parts at the end. */
    if (j->count - j->seen_count <= j->parts - j->part)
        return true;
    /* 2 * done + w > 2 * total * part / parts, without division */
    return (2 * j->done + w) * j->parts > 2 * j->total * j->part;
}

static int write_one(const ctg_stream_header *h, const ctg_contingency *c, const char *path,
                     const ctg_stream_place *at, void *ctx)
{
    split_job *j = ctx;
    uint64_t w = j->by_count ? 1 : c->element_count;

    (void)path;
    (void)at;
    if (starts_new_part(j, w) && next_part(j, h->name) != CLI_OK)
        return 1;
    j->done += w;
    j->part_weight += w;
    j->seen_weight += c->element_count;
    j->seen_count++;
    j->in_part++;
    j->status = pl_out_add(&j->out, h, c);
    return j->status != CLI_OK;
}

/* ---- all or nothing ------------------------------------------------------------------- */

static int make_dir(split_job *j)
{
    size_t len = strlen(j->prefix) + sizeof ".ctg-split-XXXXXX";

    j->dir = malloc(len);
    if (j->dir == NULL)
        return pl_fail(CLI_FAILURE, j->prefix, "", "out of memory");
    snprintf(j->dir, len, "%s.ctg-split-XXXXXX", j->prefix);
    if (mkdtemp(j->dir) == NULL) {
        int e = errno;

        free(j->dir);
        j->dir = NULL;
        return pl_fail(CLI_FAILURE, j->prefix, "", "cannot create a temporary directory: %s",
                       strerror(e));
    }
    return CLI_OK;
}

/* Removes the parts written so far; the next part is the first again. */
static void remove_parts(split_job *j)
{
    char path[4096];

    pl_out_abort(&j->out);
    for (size_t n = 1; n <= j->part; n++) {
        if (part_name(j, n, true, path, sizeof path) == 0)
            unlink(path);
    }
    j->part = j->in_part = 0;
    j->done = j->part_weight = j->seen_weight = j->seen_count = 0;
}

/* Removes the temporary directory and the parts in it. */
static void discard(split_job *j)
{
    remove_parts(j);
    rmdir(j->dir);
}

/* Moves every part into place; the first failure stops and is reported. */
static int install(split_job *j)
{
    char from[4096], to[4096];

    for (size_t n = 1; n <= j->part; n++) {
        if (part_name(j, n, true, from, sizeof from) != 0 ||
            part_name(j, n, false, to, sizeof to) != 0)
            return pl_fail(CLI_FAILURE, j->prefix, "", "name too long");
        if (rename(from, to) != 0) {
            int e = errno;

            discard(j);
            return pl_fail(CLI_FAILURE, to, "",
                           "cannot move the part into place: %s "
                           "(%zu of %zu parts in place)",
                           strerror(e), n - 1, j->part);
        }
    }
    rmdir(j->dir);
    return CLI_OK;
}

/* The empty parts after the last contingency (--parts), or the one part of an empty list. */
static int finish_parts(split_job *j, const char *name)
{
    size_t want = j->parts ? j->parts : 1;

    while (j->part < want) {
        if (next_part(j, name) != CLI_OK)
            return j->status;
    }
    return j->out.w ? pl_out_close(&j->out) : CLI_OK;
}

/* The total that --parts balances: the quick count's guess when it has one, else a read that
 * counts (extension values skipped). */
static int count_total(split_job *j, pl_read *r, const char *in)
{
    uint64_t elements, contingencies;
    int status;

    if (cli_split_count(in, &elements, &contingencies)) {
        j->guessed = true;
        j->by_count = elements == 0;
        j->total = j->by_count ? contingencies : elements;
        j->count = contingencies;
        return CLI_OK;
    }
    r->fn = count_one;
    r->skip_extensions = true;
    if ((status = pl_read_run(r, in)) != CLI_OK)
        return status;
    j->by_count = j->total == 0;
    j->total = j->by_count ? r->seen : j->total;
    j->count = r->seen;
    return CLI_OK;
}

/* Whether the guessed total was wrong; then it is corrected and the parts are to be written
 * again. Only an input the quick count misjudged gets here: not one seen yet. */
static bool guess_missed(split_job *j)
{
    bool by_count = j->seen_weight == 0;
    uint64_t total = by_count ? j->seen_count : j->seen_weight;

    if (!j->guessed ||
        (by_count == j->by_count && total == j->total && j->seen_count == j->count))
        return false;
    j->guessed = false;
    j->by_count = by_count;
    j->total = total;
    j->count = j->seen_count;
    remove_parts(j);
    return true;
}

/* Reads `in` (a copy of `arg` when it could not be read twice) into the parts. */
static int split_read(split_job *j, const char *in, const char *arg, bool no_progress)
{
    pl_read r;
    int status = CLI_OK;

    memset(&r, 0, sizeof r);
    r.display = cli_input_name(arg);
    r.ctx = j;
    r.no_progress = no_progress;
    if (j->parts && (status = count_total(j, &r, in)) != CLI_OK)
        return pl_read_dispose(&r), status;
    do {
        r.fn = write_one;
        r.skip_extensions = false;
        status = pl_read_run(&r, in);
        if (status == CLI_OK && r.stopped)
            status = j->status;
    } while (status == CLI_OK && guess_missed(j));
    if (status == CLI_OK)
        status = finish_parts(j, r.name);
    pl_read_dispose(&r);
    return status;
}

static int split(const char *in, split_job *j, bool no_progress)
{
    char *spool = NULL;
    int status = CLI_OK;

    /* --parts reads the input twice: first to count. */
    if (j->parts && (status = pl_spool_input(in, 1, &spool)) != CLI_OK)
        return status;
    if ((status = make_dir(j)) == CLI_OK) {
        status = split_read(j, spool ? spool : in, in, no_progress);
        if (status == CLI_OK)
            status = install(j);
        else
            discard(j);
        free(j->dir);
    }
    pl_spool_remove(spool, 1);
    return status;
}

int cli_split(const cli_command *cmd, int argc, char **argv)
{
    const char *values[OPT_COUNT] = { NULL };
    cli_options opts = { split_flags, split_valued, values };
    split_job j;
    cli_args args;
    int status;

    if (cli_begin(cmd, argc, argv, &opts, &args, &status))
        return status;
    if (args.npos != 2)
        return cli_usage_error(
            cmd, args.npos < 2 ? "missing IN or OUTPREFIX" : "too many arguments", NULL);
    if ((values[OPT_PARTS] == NULL) == (values[OPT_SIZE] == NULL))
        return cli_usage_error(cmd, "give one of --parts and --size", NULL);
    memset(&j, 0, sizeof j);
    if (values[OPT_PARTS] && !pl_parse_count(cmd, "--parts", values[OPT_PARTS], 1, &j.parts))
        return CLI_FAILURE;
    if (values[OPT_SIZE] && !pl_parse_count(cmd, "--size", values[OPT_SIZE], 1, &j.size))
        return CLI_FAILURE;
    if (j.parts > SPLIT_MAX_PARTS) /* more files than any file system wants in one place */
        return cli_usage_error(cmd, "at most 1000000 parts", values[OPT_PARTS]);
    j.prefix = args.pos[1];
    j.compact = (args.flags & FLAG_COMPACT) != 0;
    pl_out_init(&j.out, "-", false, false);
    return split(args.pos[0], &j, args.no_progress);
}
