/* The timed runners and the one-time preparation and checks of their input. */

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

/* Results go here so that the compiler cannot drop the work that produced them. */
static volatile size_t sink;

static void report_ctg(const char *what, const ctg_error *err)
{
    char text[1024];

    ctg_error_format(err, text, sizeof text);
    fprintf(stderr, "contingency-bench: %s failed: %s\n", what, text);
}

/* ctg_list_free is part of the run, as json_object_put is part of the json-c one. */
static int read_with(bench_input *in, unsigned flags, ctg_read_stats *stats)
{
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_list *list = NULL;
    ctg_error err;
    int rc;

    opts.flags = flags;
    opts.stats = stats;
    rc = ctg_list_read_buffer(&list, in->bytes.data, in->bytes.len, &opts, &err);
    if (rc != CTG_OK) {
        report_ctg("ctg read", &err);
        return -1;
    }
    sink = ctg_list_contingency_count(list);
    ctg_list_free(list);
    return 0;
}

static int run_ctg_read(bench_input *in)
{
    return read_with(in, 0, NULL);
}

static int run_ctg_read_nocache(bench_input *in)
{
    return read_with(in, CTG_READ_NO_CACHE, NULL);
}

static json_object *jsonc_parse(bench_input *in)
{
    json_object *obj;

    json_tokener_reset(in->tokener);
    obj = json_tokener_parse_ex(in->tokener, in->bytes.data, (int)in->bytes.len);
    if (obj == NULL || json_tokener_get_error(in->tokener) != json_tokener_success) {
        fprintf(stderr, "contingency-bench: json-c parse failed: %s\n",
                json_tokener_error_desc(json_tokener_get_error(in->tokener)));
        json_object_put(obj);
        return NULL;
    }
    return obj;
}

static int run_jsonc_parse_free(bench_input *in)
{
    json_object *obj = jsonc_parse(in);

    if (obj == NULL)
        return -1;
    sink = (size_t)json_object_object_length(obj);
    json_object_put(obj);
    return 0;
}

static int run_ctg_write(bench_input *in)
{
    ctg_error err;

    in->out.len = 0; /* keeps the capacity: the run measures the writer, not the allocator */
    if (ctg_list_write_buf(&in->out, in->list, NULL, &err) != CTG_OK) {
        report_ctg("ctg write", &err);
        return -1;
    }
    sink = in->out.len;
    return 0;
}

static int run_jsonc_write(bench_input *in)
{
    const char *text =
        json_object_to_json_string_ext(in->dom, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED);

    if (text == NULL) {
        fprintf(stderr, "contingency-bench: json-c write failed\n");
        return -1;
    }
    sink = (size_t)(unsigned char)text[0];
    return 0;
}

/* The memory-bandwidth floor: one pass over the bytes that every reader must make. */
static int run_memchr_floor(bench_input *in)
{
    const char *p = in->bytes.data, *end = p + in->bytes.len;
    size_t quotes = 0;

    while ((p = memchr(p, '"', (size_t)(end - p))) != NULL) {
        quotes++;
        p++;
    }
    sink = quotes;
    return 0;
}

static const bench_runner runners[] = {
    { "ctg-read", "ctg_list_read_buffer + ctg_list_free", run_ctg_read },
    { "ctg-read-nocache", "the same with CTG_READ_NO_CACHE", run_ctg_read_nocache },
    { "jsonc-dom-parse-free", "json_tokener_parse_ex + json_object_put", run_jsonc_parse_free },
    { "ctg-write", "ctg_list_write_buf (pretty) into a cleared buffer", run_ctg_write },
    { "jsonc-dom-write", "json_object_to_json_string_ext (PRETTY | SPACED) of the DOM",
      run_jsonc_write },
    { "memchr-floor", "one memchr pass counting '\"'", run_memchr_floor },
};

const bench_runner *bench_runners(size_t *count)
{
    *count = sizeof runners / sizeof runners[0];
    return runners;
}

/* A full read: keeps the list for the writer and checks the count the case promises. */
static int check_read(bench_input *in, unsigned flags, size_t *resolves, ctg_list **keep)
{
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_read_stats stats;
    ctg_list *list = NULL;
    ctg_error err;
    size_t count;

    opts.flags = flags;
    opts.stats = &stats;
    if (ctg_list_read_buffer(&list, in->bytes.data, in->bytes.len, &opts, &err) != CTG_OK) {
        report_ctg("ctg read", &err);
        return -1;
    }
    count = ctg_list_contingency_count(list);
    *resolves = stats.handler_resolves;
    if (keep != NULL)
        *keep = list;
    else
        ctg_list_free(list);
    if (count != in->gen->contingencies) {
        fprintf(stderr, "contingency-bench: %s: ctg read %zu contingencies, expected %zu\n",
                in->gen->name, count, in->gen->contingencies);
        return -1;
    }
    return 0;
}

/* The generator writes PowSyBl's layout, so the ctg writer must give back the same bytes. */
static int check_write(bench_input *in)
{
    size_t i = 0, n;

    if (run_ctg_write(in) != 0)
        return -1;
    n = in->out.len < in->bytes.len ? in->out.len : in->bytes.len;
    while (i < n && in->out.data[i] == in->bytes.data[i])
        i++;
    if (i == n && in->out.len == in->bytes.len)
        return 0;
    fprintf(stderr,
            "contingency-bench: %s: ctg write differs from the input at byte %zu "
            "(%zu bytes written, %zu read)\n",
            in->gen->name, i, in->out.len, in->bytes.len);
    return -1;
}

static int check_jsonc(bench_input *in)
{
    /* json-c takes an int length. */
    if (in->bytes.len > INT_MAX) {
        fprintf(stderr, "contingency-bench: %s: too large for json-c\n", in->gen->name);
        return -1;
    }
    in->tokener = json_tokener_new();
    if (in->tokener == NULL) {
        fprintf(stderr, "contingency-bench: out of memory\n");
        return -1;
    }
    in->dom = jsonc_parse(in);
    return in->dom != NULL ? 0 : -1;
}

int bench_input_init(bench_input *in, const bench_gen_case *c)
{
    ctg_buf empty = CTG_BUF_INIT;
    bench_bytes none = BENCH_BYTES_INIT;

    in->gen = c;
    in->bytes = none;
    in->list = NULL;
    in->dom = NULL;
    in->tokener = NULL;
    in->out = empty;
    if (bench_gen_generate(c, &in->bytes) != 0) {
        fprintf(stderr, "contingency-bench: %s: out of memory\n", c->name);
        return -1;
    }
    if (check_read(in, 0, &in->resolves_cached, &in->list) != 0 ||
        check_read(in, CTG_READ_NO_CACHE, &in->resolves_nocache, NULL) != 0 ||
        check_write(in) != 0 || check_jsonc(in) != 0)
        return -1;
    return 0;
}

void bench_input_dispose(bench_input *in)
{
    bench_bytes_dispose(&in->bytes);
    ctg_list_free(in->list);
    json_object_put(in->dom);
    if (in->tokener != NULL)
        json_tokener_free(in->tokener);
    ctg_buf_dispose(&in->out);
    in->list = NULL;
    in->dom = NULL;
    in->tokener = NULL;
}
