/* SPDX-License-Identifier: MPL-2.0 */
/* Threads and networks: network.h and resolve.h promise that one network (and one list) may
 * be read and resolved against from several threads at once, and that different imports are
 * independent. Each thread imports the same XIIDM text into a network of its own (the
 * importer's thread-local allocator hand-over included), then resolves a criterion list, an
 * identifier list with a regular expression and wildcards, and a `default` list against the
 * ONE network shared by all threads, in several rounds. Run under ThreadSanitizer (CTG_TSAN)
 * this proves the shared reads race-free (the calculated-bus hash the validity filter builds
 * is per evaluation, the RE2 patterns per evaluation); in every build it checks that each
 * thread got exactly the bytes a single-threaded resolve gives. Exit status 0 when they all
 * did, else 1. */

#include <locale.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctg/ctg.h"
#include "ctg/iidm.h"
#include "ctg/network.h"
#include "ctg/resolve.h"

#define THREADS 4
#define ROUNDS 5
#define LISTS 3

static const char network_doc[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<iidm:network xmlns:iidm=\"http://www.powsybl.org/schema/iidm/1_17\" id=\"net\" "
    "caseDate=\"2024-01-01T00:00:00.000+01:00\" forecastDistance=\"0\" "
    "sourceFormat=\"code\" minimumValidationLevel=\"STEADY_STATE_HYPOTHESIS\">\n"
    "<iidm:substation id=\"S1\" country=\"FR\">\n"
    "<iidm:voltageLevel id=\"VL1\" nominalV=\"400.0\" topologyKind=\"BUS_BREAKER\">\n"
    "<iidm:busBreakerTopology><iidm:bus id=\"B1\"/></iidm:busBreakerTopology>\n"
    "<iidm:generator id=\"G1\" energySource=\"OTHER\" minP=\"0.0\" maxP=\"100.0\" "
    "voltageRegulatorOn=\"false\" targetP=\"10.0\" targetQ=\"0.0\" bus=\"B1\" "
    "connectableBus=\"B1\"/>\n"
    "<iidm:load id=\"L1\" loadType=\"UNDEFINED\" p0=\"1.0\" q0=\"0.0\" bus=\"B1\" "
    "connectableBus=\"B1\"/>\n"
    "</iidm:voltageLevel>\n</iidm:substation>\n"
    "<iidm:substation id=\"S2\" country=\"BE\">\n"
    "<iidm:voltageLevel id=\"VL2\" nominalV=\"400.0\" topologyKind=\"BUS_BREAKER\">\n"
    "<iidm:busBreakerTopology><iidm:bus id=\"B2\"/></iidm:busBreakerTopology>\n"
    "<iidm:load id=\"L2\" loadType=\"UNDEFINED\" p0=\"1.0\" q0=\"0.0\" bus=\"B2\" "
    "connectableBus=\"B2\"/>\n"
    "</iidm:voltageLevel>\n</iidm:substation>\n"
    "<iidm:line id=\"LINE_A\" r=\"1.0\" x=\"1.0\" g1=\"0.0\" b1=\"0.0\" g2=\"0.0\" b2=\"0.0\" "
    "bus1=\"B1\" connectableBus1=\"B1\" voltageLevelId1=\"VL1\" bus2=\"B2\" "
    "connectableBus2=\"B2\" voltageLevelId2=\"VL2\"/>\n"
    "<iidm:line id=\"LINE_B\" r=\"1.0\" x=\"1.0\" g1=\"0.0\" b1=\"0.0\" g2=\"0.0\" b2=\"0.0\" "
    "bus1=\"B1\" connectableBus1=\"B1\" voltageLevelId1=\"VL1\" bus2=\"B2\" "
    "connectableBus2=\"B2\" voltageLevelId2=\"VL2\"/>\n"
    "</iidm:network>\n";

static const char *const list_docs[LISTS] = {
    "{\"type\":\"lineCriterion\",\"version\":\"1.0\",\"name\":\"fr-be\","
    "\"countryCriterion\":{\"type\":\"TWO_COUNTRY\",\"countries1\":[\"FR\"],"
    "\"countries2\":[\"BE\"]},\"regexCriterion\":{\"type\":\"REGEX\",\"regex\":\"_[AB]$\"}}",
    "{\"type\":\"identifier\",\"version\":\"1.2\",\"name\":\"ids\",\"identifiers\":["
    "{\"type\":\"ID_BASED\",\"identifier\":\"G1\"},"
    "{\"type\":\"ID_WITH_WILDCARDS\",\"identifier\":\"L?\",\"wildcard\":\"?\"},"
    "{\"type\":\"ID_BASED\",\"identifier\":\"missing\"}]}",
    "{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"n-1\",\"contingencies\":["
    "{\"id\":\"c1\",\"elements\":[{\"id\":\"LINE_A\",\"type\":\"LINE\"}]},"
    "{\"id\":\"c2\",\"elements\":[{\"id\":\"G1\",\"type\":\"LOAD\"}]},"
    "{\"id\":\"c3\",\"elements\":[{\"id\":\"B2\",\"type\":\"BUS\"}]}]}",
};

typedef struct shared {
    const ctg_network *net;
    const ctg_list *lists[LISTS];
    ctg_buf want[LISTS]; /* each list resolved on the main thread, compact */
    size_t want_objects;
    pthread_barrier_t start;
} shared;

typedef struct job {
    shared *s;
    int mismatches;
} job;

/* Resolves `list` against `net` into `out` (compact); CTG_OK or the failing status. */
static int resolve_to(ctg_buf *out, const ctg_network *net, const ctg_list *list)
{
    ctg_write_options wopts = CTG_WRITE_OPTIONS_INIT;
    ctg_list *resolved = NULL;
    int rc = ctg_resolve(&resolved, net, list, NULL, NULL);

    wopts.flags = CTG_WRITE_COMPACT;
    if (rc == CTG_OK)
        rc = ctg_list_write_buf(out, resolved, &wopts, NULL);
    ctg_list_free(resolved);
    return rc;
}

/* An import of its own: the same objects as the shared network, or a mismatch. */
static int import_own(const shared *s)
{
    ctg_source src = ctg_source_buffer(network_doc, sizeof network_doc - 1);
    ctg_network *own = NULL;
    int bad = ctg_iidm_read(&own, &src, NULL, NULL) != CTG_OK ||
              ctg_network_object_count(own) != s->want_objects;

    ctg_network_free(own);
    return bad;
}

static void *worker(void *arg)
{
    job *j = arg;
    shared *s = j->s;

    pthread_barrier_wait(&s->start);
    for (int round = 0; round < ROUNDS; round++) {
        j->mismatches += import_own(s);
        for (int i = 0; i < LISTS; i++) {
            ctg_buf out = CTG_BUF_INIT;

            j->mismatches += resolve_to(&out, s->net, s->lists[i]) != CTG_OK ||
                             out.len != s->want[i].len ||
                             memcmp(out.data, s->want[i].data, out.len) != 0;
            ctg_buf_dispose(&out);
        }
    }
    return NULL;
}

/* Reads the network and the lists and resolves each once: the references. */
static int prepare(shared *s, ctg_network **net, ctg_list *lists[LISTS])
{
    ctg_source src = ctg_source_buffer(network_doc, sizeof network_doc - 1);
    ctg_error err;

    if (ctg_iidm_read(net, &src, NULL, &err) != CTG_OK) {
        fprintf(stderr, "ctg_threads_network: the network does not read: %s\n", err.message);
        return 1;
    }
    s->net = *net;
    s->want_objects = ctg_network_object_count(*net);
    for (int i = 0; i < LISTS; i++) {
        s->want[i] = (ctg_buf)CTG_BUF_INIT;
        if (ctg_list_read_buffer(&lists[i], list_docs[i], strlen(list_docs[i]), NULL, &err) !=
                CTG_OK ||
            resolve_to(&s->want[i], *net, lists[i]) != CTG_OK) {
            fprintf(stderr, "ctg_threads_network: list %d does not resolve\n", i);
            return 1;
        }
        s->lists[i] = lists[i];
    }
    return 0;
}

int main(void)
{
    static shared s;
    ctg_network *net = NULL;
    ctg_list *lists[LISTS] = { NULL, NULL, NULL };
    pthread_t tid[THREADS];
    job jobs[THREADS];
    int failed = 0;

    setlocale(LC_ALL, ""); /* CI runs every test under LC_ALL=de_DE.UTF-8 too */
    if (prepare(&s, &net, lists) != 0)
        return 1;
    pthread_barrier_init(&s.start, NULL, THREADS);
    for (int i = 0; i < THREADS; i++) {
        jobs[i] = (job){ &s, 0 };
        if (pthread_create(&tid[i], NULL, worker, &jobs[i]) != 0) {
            fprintf(stderr, "ctg_threads_network: cannot start thread %d\n", i);
            exit(1); /* the started ones wait at the barrier for ever */
        }
    }
    for (int i = 0; i < THREADS; i++) {
        pthread_join(tid[i], NULL);
        if (jobs[i].mismatches != 0)
            fprintf(stderr, "thread %d: %d results differed\n", i, jobs[i].mismatches);
        failed += jobs[i].mismatches != 0;
    }
    pthread_barrier_destroy(&s.start);
    printf("one network shared by %d threads (%zu, %zu, %zu bytes resolved): %d passed, "
           "%d failed\n",
           THREADS, s.want[0].len, s.want[1].len, s.want[2].len, THREADS - failed, failed);
    for (int i = 0; i < LISTS; i++) {
        ctg_buf_dispose(&s.want[i]);
        ctg_list_free(lists[i]);
    }
    ctg_network_free(net);
    return failed != 0;
}
