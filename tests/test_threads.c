/* SPDX-License-Identifier: MPL-2.0 */
/* Threads: several readers at once on different files, all sharing the one handler registry
 * (its index is built lazily, once, by whichever read comes first). Run under ThreadSanitizer
 * (CTG_TSAN) this proves the lazily resolved cache race-free; in every build it checks that
 * concurrent reads give exactly what a read alone gives.
 *
 * The files are made in a fresh temporary folder: a large `default` list (several refills), a
 * `list` list, an `identifier` list and a `lineCriterion` list, so that different handlers are
 * resolved for the first time on different threads at the same moment. Each thread reads its
 * file in turn with the cache, without it (CTG_READ_NO_CACHE) and as a stream, then reads a
 * neighbour's file.
 *
 * Then one list, read once, is shared by every thread: each writes it (pretty and compact) and
 * converts it to a json-c tree, its kept extension values included, as the headers promise a
 * list may be read from several threads at once. Exit status 0 when every thread saw the
 * expected bytes, else 1.
 *
 * Last, the multi-threaded read (ctg_read_options.threads): the large list in PowSyBl's pretty
 * layout read by two threads at once, each splitting it into four parts, each part on a thread
 * of its own, through a counting allocator called from all of them; both lists must write back
 * the bytes of a one-thread read, and every block come back. */

#include <locale.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "ctg/ctg.h"
#include "ctg/stream.h"
#include "format/read_internal.h"

#define THREADS 4
#define ROUNDS 6

typedef struct result {
    int status;
    ctg_buf out; /* the list written back compact; empty on failure */
    size_t streamed;
} result;

typedef struct job {
    int index;
    const char *paths[THREADS];
    pthread_barrier_t *start;
    result first[2];  /* own file, neighbour's file: the first round */
    int mismatches;
} job;

static char *big_default(void)
{
    const size_t n = 3000; /* about 250 KiB: several 64 KiB refills */
    char *doc = malloc(200 + n * 140);
    size_t len = 0;

    if (doc == NULL)
        return NULL;
    len += (size_t)sprintf(doc, "{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"big\","
                                "\"contingencies\":[");
    for (size_t i = 0; i < n; i++)
        len += (size_t)sprintf(doc + len, "%s{\"id\":\"N-1_%06zu\",\"name\":\"c\\u00e9%zu\","
                                          "\"elements\":[{\"id\":\"LINE_%06zu\",\"type\":\"LINE\","
                                          "\"voltageLevelId\":\"VL%zu\"}]}",
                               i ? "," : "", i, i, i, i % 7);
    strcpy(doc + len, "]}");
    return doc;
}

static const char list_doc[] =
    "{\"type\":\"list\",\"version\":\"1.1\",\"name\":\"lists\",\"contingencyLists\":["
    "{\"type\":\"default\",\"version\":\"1.0\",\"name\":\"a\",\"contingencies\":[{\"id\":\"c1\","
    "\"elements\":[{\"id\":\"D\",\"type\":\"DANGLING_LINE\"},{\"id\":\"G\",\"type\":\"GENERATOR\"}]}]},"
    "{\"type\":\"default\",\"name\":\"b\",\"contingencies\":[{\"id\":\"c2\",\"elements\":["
    "{\"id\":\"T\",\"type\":\"TIE_LINE\",\"voltageLevelId\":\"V\"}]}]}]}";

static const char identifier_doc[] =
    "{\"type\":\"identifier\",\"version\":\"1.3\",\"name\":\"ids\",\"identifiers\":["
    "{\"type\":\"ID_BASED\",\"contingencyId\":\"c1\",\"identifier\":\"L1\"},"
    "{\"type\":\"VOLTAGE_LEVELS_AND_ORDER\",\"voltageLevelId1\":\"a\",\"voltageLevelId2\":\"b\","
    "\"order\":\"1\"},{\"type\":\"LIST\",\"identifierList\":[{\"type\":\"ID_BASED\","
    "\"identifier\":\"L2\"}]},{\"type\":\"ID_WITH_WILDCARDS\",\"identifier\":\"L?\","
    "\"wildcard\":\"?\"}]}";

static const char criterion_doc[] =
    "{\"type\":\"lineCriterion\",\"version\":\"1.1\",\"name\":\"lines\",\"countryCriterion\":"
    "{\"type\":\"TWO_COUNTRY\",\"countries1\":[\"FR\"],\"countries2\":[\"BE\"]},"
    "\"nominalVoltageCriterion\":{\"type\":\"TWO_NOMINAL_VOLTAGE\",\"voltageInterval1\":"
    "{\"nominalVoltageLowBound\":200.0,\"lowClosed\":true,\"nominalVoltageHighBound\":230.0,"
    "\"highClosed\":true}},\"regexCriterion\":{\"type\":\"REGEX\",\"regex\":\"L.*\"}}";

static int write_file(const char *path, const char *text)
{
    FILE *fp = fopen(path, "wb");
    int ok = fp != NULL && fputs(text, fp) >= 0;

    if (fp != NULL && fclose(fp) != 0)
        ok = 0;
    return ok ? 0 : -1;
}

static int count_item(const ctg_stream_header *h, const ctg_contingency *c, void *payload)
{
    (void)h;
    (void)c;
    (*(size_t *)payload)++;
    return 0;
}

static int count_list(const ctg_stream_header *h, const ctg_list *l, void *payload)
{
    (void)h;
    (void)l;
    (*(size_t *)payload)++;
    return 0;
}

/* Reads `path` three ways: cached, uncached, streamed. The list is written back compact. */
static void read_one(const char *path, unsigned flags, result *r)
{
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_write_options wopts = CTG_WRITE_OPTIONS_INIT;
    ctg_visitor v = { .version = CTG_VISITOR_VERSION,
                      .contingency = count_item,
                      .list = count_list };
    ctg_source src = ctg_source_path(path);
    ctg_list *list = NULL;

    memset(r, 0, sizeof *r);
    opts.flags = flags;
    wopts.flags = CTG_WRITE_COMPACT;
    r->status = ctg_list_read_file(&list, path, &opts, NULL);
    if (r->status == CTG_OK && ctg_list_write_buf(&r->out, list, &wopts, NULL) != CTG_OK)
        r->status = 1001; /* a list that was read cannot be written */
    ctg_list_free(list);
    v.payload = &r->streamed;
    if (ctg_read_stream(&src, &v, &opts, NULL) != r->status)
        r->status = 1000; /* the stream disagrees with the full read */
}

static void drop(result *r)
{
    ctg_buf_dispose(&r->out);
}

static bool same(const result *a, const result *b)
{
    return a->status == b->status && a->out.len == b->out.len && a->streamed == b->streamed &&
           (a->out.len == 0 || memcmp(a->out.data, b->out.data, a->out.len) == 0);
}

static void *reader_thread(void *arg)
{
    job *j = arg;

    pthread_barrier_wait(j->start);
    for (int round = 0; round < ROUNDS; round++) {
        for (int which = 0; which < 2; which++) {
            const char *path = j->paths[(j->index + which) % THREADS];
            result r;

            read_one(path, (unsigned)round % 2 ? CTG_READ_NO_CACHE : 0, &r);
            if (round == 0)
                j->first[which] = r;
            else if (!same(&r, &j->first[which]))
                j->mismatches++;
            if (round != 0)
                drop(&r);
        }
    }
    return NULL;
}

static int make_files(char *dir, char paths[THREADS][512])
{
    const char *names[THREADS] = { "big.json", "lists.json", "identifiers.json", "lines.json" };
    char *big = big_default();
    const char *texts[THREADS] = { big, list_doc, identifier_doc, criterion_doc };
    int rc = big != NULL && mkdtemp(dir) != NULL ? 0 : -1;

    for (int i = 0; rc == 0 && i < THREADS; i++) {
        snprintf(paths[i], 512, "%s/%s", dir, names[i]);
        rc = write_file(paths[i], texts[i]);
    }
    free(big);
    return rc;
}

/* Compares every thread's results with a read made alone, after the threads; returns the
 * number of threads that saw something else. The `default` and `list` files must read. */
static int check(job *jobs, const char *const *paths)
{
    int failed = 0;

    for (int t = 0; t < THREADS; t++) {
        bool ok = jobs[t].mismatches == 0;

        for (int which = 0; which < 2; which++) {
            int file = (t + which) % THREADS;
            result alone;

            read_one(paths[file], 0, &alone);
            if (!same(&alone, &jobs[t].first[which]) || (file < 2 && alone.status != CTG_OK)) {
                fprintf(stderr, "thread %d, %s: status %d, alone %d\n", t, paths[file],
                        jobs[t].first[which].status, alone.status);
                ok = false;
            }
            if (t == file)
                printf("%s: status %s, %zu bytes written back, %zu items streamed\n",
                       paths[file], ctg_status_name(alone.status), alone.out.len,
                       alone.streamed);
            drop(&alone);
            drop(&jobs[t].first[which]);
        }
        if (!ok)
            fprintf(stderr, "thread %d: %d rounds differed from its first\n", t,
                    jobs[t].mismatches);
        failed += !ok;
    }
    return failed;
}

/* ---- one list shared by every thread ----------------------------------------------------- */

static const char shared_doc[] =
    "{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"shared\",\"contingencies\":["
    "{\"id\":\"c1\",\"elements\":[{\"id\":\"L1\",\"type\":\"LINE\",\"voltageLevelId\":\"V\"}],"
    "\"extensions\":{\"notes\":[\"checked\",{\"by\":\"ops\",\"at\":20240101}],"
    "\"probability\":{\"probability\":0.0125}}},"
    "{\"id\":\"c2\",\"name\":\"two\",\"elements\":[{\"id\":\"G\",\"type\":\"GENERATOR\"}]}]}";

typedef struct shared_job {
    const ctg_list *list;
    const ctg_buf *want[2]; /* pretty, compact */
    pthread_barrier_t *start;
    int mismatches;
} shared_job;

/* One use of the shared list: both layouts and a json-c tree, compared with the references. */
static int use_shared(const shared_job *j)
{
    ctg_write_options wopts = CTG_WRITE_OPTIONS_INIT;
    struct json_object *tree = NULL;
    int bad = 0;

    for (int layout = 0; layout < 2; layout++) {
        ctg_buf out = CTG_BUF_INIT;

        wopts.flags = layout ? CTG_WRITE_COMPACT : 0u;
        bad += ctg_list_write_buf(&out, j->list, &wopts, NULL) != CTG_OK ||
               out.len != j->want[layout]->len ||
               memcmp(out.data, j->want[layout]->data, out.len) != 0;
        ctg_buf_dispose(&out);
    }
    bad += ctg_list_to_json_object(&tree, j->list, NULL, NULL) != CTG_OK ||
           json_object_array_length(json_object_object_get(tree, "contingencies")) != 2;
    json_object_put(tree);
    bad += ctg_list_contingency_count(j->list) != 2 ||
           ctg_list_contingency_at(j->list, 0)->extension_count != 2;
    return bad;
}

static void *shared_thread(void *arg)
{
    shared_job *j = arg;

    pthread_barrier_wait(j->start);
    for (int round = 0; round < ROUNDS; round++)
        j->mismatches += use_shared(j) != 0;
    return NULL;
}

/* Returns the number of threads that saw something else than the references. */
static int run_shared(void)
{
    ctg_write_options compact = CTG_WRITE_OPTIONS_INIT;
    ctg_buf want[2] = { CTG_BUF_INIT, CTG_BUF_INIT };
    ctg_list *list = NULL;
    pthread_t tid[THREADS];
    pthread_barrier_t start;
    shared_job jobs[THREADS];
    int failed = 0;

    compact.flags = CTG_WRITE_COMPACT;
    if (ctg_list_read_buffer(&list, shared_doc, sizeof shared_doc - 1, NULL, NULL) != CTG_OK ||
        ctg_list_write_buf(&want[0], list, NULL, NULL) != CTG_OK ||
        ctg_list_write_buf(&want[1], list, &compact, NULL) != CTG_OK) {
        fprintf(stderr, "ctg_threads: the shared list does not read or write\n");
        failed = THREADS;
    }
    pthread_barrier_init(&start, NULL, THREADS);
    for (int i = 0; failed == 0 && i < THREADS; i++) {
        shared_job init = { list, { &want[0], &want[1] }, &start, 0 };

        jobs[i] = init;
        if (pthread_create(&tid[i], NULL, shared_thread, &jobs[i]) != 0) {
            fprintf(stderr, "ctg_threads: cannot start thread %d\n", i);
            exit(1); /* the started ones wait at the barrier for ever */
        }
    }
    for (int i = 0; failed == 0 && i < THREADS; i++) {
        pthread_join(tid[i], NULL);
        if (jobs[i].mismatches != 0)
            fprintf(stderr, "shared list, thread %d: %d rounds differed\n", i,
                    jobs[i].mismatches);
        failed += jobs[i].mismatches != 0;
    }
    pthread_barrier_destroy(&start);
    printf("one list shared by %d threads: %zu bytes written, %d failed\n", THREADS, want[0].len,
           failed);
    ctg_buf_dispose(&want[0]);
    ctg_buf_dispose(&want[1]);
    ctg_list_free(list);
    return failed;
}

/* ---- the multi-threaded read --------------------------------------------------------- */

typedef struct counted {
    pthread_mutex_t lock;
    long live; /* blocks not yet released */
} counted;

static void *counted_alloc(void *payload, size_t size)
{
    counted *c = payload;

    pthread_mutex_lock(&c->lock);
    c->live++;
    pthread_mutex_unlock(&c->lock);
    return malloc(size);
}

static void *counted_realloc(void *payload, void *p, size_t old, size_t size)
{
    counted *c = payload;
    void *q;

    (void)old;
    q = realloc(p, size);
    if (p == NULL && q != NULL) {
        pthread_mutex_lock(&c->lock);
        c->live++;
        pthread_mutex_unlock(&c->lock);
    }
    return q;
}

static void counted_free(void *payload, void *p, size_t size)
{
    counted *c = payload;

    (void)size;
    if (p == NULL)
        return;
    pthread_mutex_lock(&c->lock);
    c->live--;
    pthread_mutex_unlock(&c->lock);
    free(p);
}

typedef struct split_job {
    const ctg_buf *doc;
    const ctg_allocator *alloc;
    ctg_buf out;
    size_t parts;
    int status;
} split_job;

static void *split_thread(void *arg)
{
    split_job *j = arg;
    ctg_read_options o = CTG_READ_OPTIONS_INIT;
    ctg_source src = ctg_source_buffer(j->doc->data, j->doc->len);
    ctg_list *list = NULL;
    ctg_error err;

    o.threads = 4;
    o.allocator = j->alloc;
    j->status = ctg_list_read_split(&list, &src, &o, &err, 1, &j->parts);
    if (j->status == CTG_OK)
        j->status = ctg_list_write_buf(&j->out, list, NULL, &err);
    ctg_list_free(list);
    return NULL;
}

/* 1 when a check failed. */
static int run_split(void)
{
    char *doc = big_default();
    ctg_list *list = NULL;
    ctg_buf pretty = CTG_BUF_INIT;
    counted c = { PTHREAD_MUTEX_INITIALIZER, 0 };
    ctg_allocator a = { counted_alloc, counted_realloc, counted_free, &c };
    split_job jobs[2];
    pthread_t tid[2];
    int failed = 0;

    /* The compact document written back pretty: PowSyBl's layout. */
    if (doc == NULL || ctg_list_read_buffer(&list, doc, strlen(doc), NULL, NULL) != CTG_OK
        || ctg_list_write_buf(&pretty, list, NULL, NULL) != CTG_OK)
        return 1;
    for (int i = 0; i < 2; i++) {
        jobs[i] = (split_job){ &pretty, &a, CTG_BUF_INIT, 0, -1 };
        if (pthread_create(&tid[i], NULL, split_thread, &jobs[i]) != 0)
            return 1;
    }
    for (int i = 0; i < 2; i++) {
        pthread_join(tid[i], NULL);
        failed |= jobs[i].status != CTG_OK || jobs[i].parts != 4 || jobs[i].out.len != pretty.len
                  || memcmp(jobs[i].out.data, pretty.data, pretty.len) != 0;
        ctg_buf_dispose(&jobs[i].out);
    }
    failed |= c.live != 0;
    printf("split reads: %s (%ld blocks not released)\n", failed ? "FAILED" : "passed", c.live);
    ctg_buf_dispose(&pretty);
    ctg_list_free(list);
    free(doc);
    return failed;
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    char dir[256], paths[THREADS][512];
    const char *path_ptrs[THREADS];
    pthread_t tid[THREADS];
    pthread_barrier_t start;
    job jobs[THREADS];
    int failed;

    setlocale(LC_ALL, ""); /* CI runs every test under LC_ALL=de_DE.UTF-8 too */
    snprintf(dir, sizeof dir, "%s/ctg-threads-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (make_files(dir, paths) != 0) {
        perror("ctg_threads: cannot create the test files");
        return 1;
    }
    for (int i = 0; i < THREADS; i++)
        path_ptrs[i] = paths[i];
    pthread_barrier_init(&start, NULL, THREADS);
    for (int i = 0; i < THREADS; i++) {
        memset(&jobs[i], 0, sizeof jobs[i]);
        jobs[i].index = i;
        memcpy(jobs[i].paths, path_ptrs, sizeof path_ptrs);
        jobs[i].start = &start;
        if (pthread_create(&tid[i], NULL, reader_thread, &jobs[i]) != 0) {
            fprintf(stderr, "ctg_threads: cannot start thread %d\n", i);
            return 1;
        }
    }
    for (int i = 0; i < THREADS; i++)
        pthread_join(tid[i], NULL);
    pthread_barrier_destroy(&start);
    failed = check(jobs, path_ptrs);
    for (int i = 0; i < THREADS; i++)
        remove(paths[i]);
    rmdir(dir);
    printf("threads: %d passed, %d failed\n", THREADS - failed, failed);
    failed += run_shared();
    failed += run_split();
    return failed != 0;
}
