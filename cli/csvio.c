/* SPDX-License-Identifier: MPL-2.0 */
/* CSV and JSON Lines input and output for convert and generate: gzip through zlib (gzread
 * reads plain input as it is), CSV through libcsv. */

#include "csvio.h"
#include "diag.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csv.h>
#include <zlib.h>

const char *const cli_csv_header[CLI_CSV_COLUMNS] = {
    "contingency_id", "contingency_name", "element_id", "element_type", "voltage_level_id",
};

int cli_format_parse(const char *value, cli_format *out)
{
    static const char *const names[] = { "json", "csv", "jsonl" };

    for (int i = 0; i < 3; i++) {
        if (strcmp(value, names[i]) == 0) {
            *out = (cli_format)i;
            return 0;
        }
    }
    return -1;
}

static bool ends_with(const char *s, size_t len, const char *suffix)
{
    size_t n = strlen(suffix);

    return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

/* The length of `path` without a final ".gz". */
static size_t strip_gz(const char *path)
{
    size_t len = strlen(path);

    return ends_with(path, len, ".gz") ? len - 3 : len;
}

cli_format cli_format_of_path(const char *path)
{
    size_t len = strip_gz(path);

    if (ends_with(path, len, ".csv"))
        return CLI_FORMAT_CSV;
    if (ends_with(path, len, ".jsonl") || ends_with(path, len, ".ndjson"))
        return CLI_FORMAT_JSONL;
    return CLI_FORMAT_JSON;
}

char *cli_name_of_path(const char *path)
{
    const char *base = strrchr(path, '/');
    static const char *const exts[] = { ".csv", ".jsonl", ".ndjson", ".json" };
    size_t len;
    char *name;

    if (strcmp(path, "-") == 0)
        return NULL;
    base = base ? base + 1 : path;
    len = strip_gz(base);
    for (int i = 0; i < 4; i++) {
        if (ends_with(base, len, exts[i])) {
            len -= strlen(exts[i]);
            break;
        }
    }
    if ((name = malloc(len + 1)) != NULL) {
        memcpy(name, base, len);
        name[len] = '\0';
    }
    return name;
}

int cli_fail_at(ctg_error *err, int code, const char *source, unsigned line, unsigned column,
                const char *path, const char *fmt, ...)
{
    va_list ap;

    memset(err, 0, sizeof *err);
    err->code = code;
    err->line = line;
    err->column = column;
    snprintf(err->source, sizeof err->source, "%s", source);
    snprintf(err->path, sizeof err->path, "%s", path);
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return code;
}

/* ---- text input ---------------------------------------------------------------------- */

int cli_textin_open(cli_textin *in, const char *path, bool progress_wanted, ctg_error *err)
{
    bool std = strcmp(path, "-") == 0;
    /* gzclose closes the descriptor: stdin's is duplicated so that it stays open. */
    int fd = std ? dup(STDIN_FILENO) : open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;

    memset(in, 0, sizeof *in);
    in->name = cli_input_name(path);
    if (fd < 0)
        return cli_io_failure(err, in->name, "cannot open", errno);
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
        in->size = (size_t)st.st_size;
    cli_progress_init(&in->progress, progress_wanted, NULL);
    if ((in->gz = gzdopen(fd, "rb")) == NULL) {
        close(fd);
        return cli_io_failure(err, in->name, "cannot open", ENOMEM);
    }
    gzbuffer(in->gz, 65536);
    return CTG_OK;
}

int cli_textin_read(cli_textin *in, void *buf, size_t cap, size_t *got, ctg_error *err)
{
    int n = gzread(in->gz, buf, cap > 1u << 30 ? 1u << 30 : (unsigned)cap);
    int zerr;

    if (n >= 0) {
        /* Plain input: the bytes given are those read (gzoffset needs a seekable file);
         * gzip: the compressed bytes read, as the JSON reads count them. */
        z_off_t at = gzdirect(in->gz) ? 0 : gzoffset(in->gz);
        *got = (size_t)n;
        in->consumed = at > 0 ? (size_t)at : in->consumed + *got;
        cli_progress_update(in->consumed, in->size, &in->progress);
        return CTG_OK;
    }
    const char *why = gzerror(in->gz, &zerr);
    if (zerr == Z_ERRNO)
        return cli_io_failure(err, in->name, "cannot read", errno);
    return cli_fail_at(err, CTG_ESYNTAX, in->name, 0, 0, "", "corrupt gzip data: %s", why);
}

void cli_textin_close(cli_textin *in)
{
    cli_progress_done(&in->progress);
    if (in->gz != NULL)
        gzclose(in->gz);
    in->gz = NULL;
}

/* ---- text output --------------------------------------------------------------------- */

#define ZBUF_SIZE 65536

int cli_textout_open(cli_textout *t, const char *path, bool break_links, ctg_error *err)
{
    size_t len = strlen(path);
    z_stream *z;

    memset(t, 0, sizeof *t);
    if (strcmp(path, "-") != 0 && ends_with(path, len, ".gz")) {
        z = calloc(1, sizeof *z);
        t->zbuf = malloc(ZBUF_SIZE);
        /* 15 + 16: a gzip header and trailer around the deflate stream. */
        if (z == NULL || t->zbuf == NULL
            || deflateInit2(z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY)
                   != Z_OK) {
            free(z);
            free(t->zbuf);
            return cli_io_failure(err, path, "cannot compress", ENOMEM);
        }
        t->z = z;
    }
    int rc = cli_outfile_open(&t->file, path, 0, break_links, err);
    if (rc != CTG_OK && t->z != NULL) {
        deflateEnd(t->z);
        free(t->z);
        free(t->zbuf);
        t->z = NULL;
    }
    return rc;
}

/* Deflates what `z` holds with `flush`, handing the output to the file. */
static int deflate_out(cli_textout *t, int flush)
{
    z_stream *z = t->z;
    int rc;

    do {
        z->next_out = t->zbuf;
        z->avail_out = ZBUF_SIZE;
        rc = deflate(z, flush);
        if (rc == Z_STREAM_ERROR)
            return -1;
        if (cli_outfile_write(&t->file, t->zbuf, ZBUF_SIZE - z->avail_out) != 0)
            return -1;
    } while (z->avail_out == 0 || (flush == Z_FINISH && rc != Z_STREAM_END));
    return 0;
}

int cli_textout_write(cli_textout *t, const void *data, size_t len)
{
    z_stream *z = t->z;

    if (z == NULL)
        return cli_outfile_write(&t->file, data, len);
    while (len > 0) {
        unsigned n = len > 1u << 30 ? 1u << 30 : (unsigned)len;
        z->next_in = (unsigned char *)(uintptr_t)data;
        z->avail_in = n;
        if (deflate_out(t, Z_NO_FLUSH) != 0) {
            t->file.failed = true;
            return -1;
        }
        data = (const char *)data + n;
        len -= n;
    }
    return 0;
}

static void textout_end_z(cli_textout *t)
{
    if (t->z != NULL) {
        deflateEnd(t->z);
        free(t->z);
        free(t->zbuf);
        t->z = NULL;
    }
}

int cli_textout_commit(cli_textout *t, ctg_error *err)
{
    if (t->z != NULL && deflate_out(t, Z_FINISH) != 0)
        t->file.failed = true;
    textout_end_z(t);
    return cli_outfile_commit(&t->file, err);
}

void cli_textout_abort(cli_textout *t)
{
    textout_end_z(t);
    cli_outfile_abort(&t->file);
}

/* ---- CSV reading ----------------------------------------------------------------------- */

/* The longest field and line read by default: the list reader's longest string. */
#define TEXT_LIMIT ((size_t)64 << 20)

size_t cli_text_limit(void)
{
    const char *env = getenv("CTG_TEXT_LIMIT_BYTES");
    char *end;
    unsigned long long n = env && *env ? strtoull(env, &end, 10) : 0;

    return n > 0 && n < TEXT_LIMIT && *end == '\0' ? (size_t)n : TEXT_LIMIT;
}

/* libcsv's state of a parser between rows (ROW_NOT_BEGUN in libcsv.c); struct csv_parser is
 * public, its states are not named in csv.h. */
#define CSV_ROW_NOT_BEGUN 0

typedef struct csv_reader {
    cli_csv_row_fn row;
    void *payload;
    ctg_error *err;
    const char *name;
    char **fields; /* the current row's fields, owned */
    size_t *lens;
    size_t n, cap;
    unsigned line;     /* the line being fed */
    unsigned row_line; /* the current row's first line */
    bool after_cr;     /* the last byte fed was a '\r', ending a line (a "\r\n" cut?) */
    bool nul_in_chunk; /* the chunk being fed holds a NUL byte: its lines are searched */
    size_t max_field;  /* cli_text_limit() */
    int status;        /* the first failure: later callbacks do nothing */
} csv_reader;

static void drop_fields(csv_reader *r)
{
    for (size_t i = 0; i < r->n; i++)
        free(r->fields[i]);
    r->n = 0;
}

static int grow_fields(csv_reader *r)
{
    size_t cap = r->cap ? r->cap * 2 : 8;
    char **f = realloc(r->fields, cap * sizeof *f);

    if (f != NULL)
        r->fields = f;
    size_t *l = f ? realloc(r->lens, cap * sizeof *l) : NULL;
    if (l == NULL)
        return -1;
    r->lens = l;
    r->cap = cap;
    return 0;
}

/* The field being read is longer than r->max_field: the read fails at its row. */
static int too_long(csv_reader *r)
{
    return r->status = cli_fail_at(r->err, CTG_ELIMIT, r->name, r->row_line, 1, "",
                                   "field %zu longer than %zu bytes", r->n + 1, r->max_field);
}

static void on_field(void *s, size_t len, void *data)
{
    csv_reader *r = data;
    char *copy = NULL;
    size_t bad;

    if (r->status != CTG_OK)
        return;
    /* One that grew past the limit and ended within the same feed, before feed could see it. */
    if (len > r->max_field) {
        too_long(r);
        return;
    }
    /* Every text of a list is UTF-8: a field that is not is the input's fault, here. */
    if (s != NULL && (bad = cli_utf8_invalid_at(s, len)) < len) {
        r->status = cli_fail_at(r->err, CTG_ESYNTAX, r->name, r->row_line, 1, "",
                                "field %zu is not valid UTF-8 (byte %zu)", r->n + 1, bad + 1);
        return;
    }
    if ((r->n == r->cap && grow_fields(r) != 0)
        || (s != NULL && (copy = malloc(len + 1)) == NULL)) {
        r->status = cli_fail_at(r->err, CTG_ENOMEM, r->name, 0, 0, "", "out of memory");
        return;
    }
    if (copy != NULL) {
        memcpy(copy, s, len);
        copy[len] = '\0';
    }
    r->fields[r->n] = copy;
    r->lens[r->n++] = s ? len : 0;
}

static void on_row(int c, void *data)
{
    csv_reader *r = data;

    (void)c;
    if (r->status == CTG_OK)
        r->status = r->row(r->payload, r->row_line, r->fields, r->lens, r->n, r->err);
    drop_fields(r);
}

/* Keeps spaces: libcsv trims them around unquoted fields by default, RFC 4180 does not. */
static int no_space(unsigned char c)
{
    (void)c;
    return 0;
}

/* Feeds one line (or the part of it a read got: `column` its first byte's column). A NUL
 * byte, which no text of a list holds, is refused where it is, and a field past
 * r->max_field bytes as it grows: neither is held to the end of its field (a /dev/zero of a
 * CSV would be). */
static int feed(csv_reader *r, struct csv_parser *p, const char *s, size_t len, unsigned column)
{
    const char *nul = r->nul_in_chunk ? memchr(s, '\0', len) : NULL;
    size_t done;

    if (nul != NULL)
        return r->status = cli_fail_at(r->err, CTG_ESYNTAX, r->name, r->line,
                                       column + (unsigned)(nul - s), "",
                                       "a NUL byte: no field of a list holds one");
    if (column == 1 && p->pstate == CSV_ROW_NOT_BEGUN)
        r->row_line = r->line;
    done = csv_parse(p, s, len, on_field, on_row, r);
    if (r->status == CTG_OK && p->entry_pos > r->max_field)
        return too_long(r);
    if (r->status != CTG_OK || done == len)
        return r->status;
    if (csv_error(p) != CSV_EPARSE)
        return r->status = cli_fail_at(r->err, CTG_ENOMEM, r->name, 0, 0, "", "%s",
                                       csv_strerror(csv_error(p)));
    return r->status = cli_fail_at(r->err, CTG_ESYNTAX, r->name, r->line,
                                   column + (unsigned)done, "", "malformed CSV: a quote must "
                                   "open and close a field, and be doubled inside one");
}

/* The bytes of `buf` up to the end of its first line, its end included: a '\n', a '\r' or
 * "\r\n", each a line end to libcsv; `got` when the line goes on past the chunk. */
static size_t line_length(const char *buf, size_t got, bool *ended)
{
    const char *nl = memchr(buf, '\n', got);
    const char *cr = memchr(buf, '\r', nl != NULL ? (size_t)(nl - buf) : got);
    size_t len = cr != NULL ? (size_t)(cr - buf) : nl != NULL ? (size_t)(nl - buf) : got;

    *ended = len < got;
    if (len < got && buf[len] == '\r' && len + 1 < got && buf[len + 1] == '\n')
        len++;
    return len < got ? len + 1 : got;
}

/* Feeds a chunk line by line, counting lines; `*column` carries a line cut by the chunk. */
static int feed_chunk(csv_reader *r, struct csv_parser *p, const char *buf, size_t got,
                      unsigned *column)
{
    while (got > 0 && r->status == CTG_OK) {
        bool ended = false;
        /* The '\n' of a "\r\n" that the chunk cut ends the line counted at its '\r'. */
        size_t len = r->after_cr && buf[0] == '\n' ? 1 : line_length(buf, got, &ended);

        if (feed(r, p, buf, len, *column) != CTG_OK)
            break;
        *column = ended || (r->after_cr && buf[0] == '\n') ? 1 : *column + (unsigned)len;
        if (ended && r->line < UINT_MAX)
            r->line++;
        r->after_cr = buf[len - 1] == '\r';
        buf += len;
        got -= len;
    }
    return r->status;
}

static int read_rows(csv_reader *r, struct csv_parser *p, cli_textin *in)
{
    enum { CHUNK = 65536 };
    char *buf = malloc(CHUNK);
    unsigned column = 1;
    size_t got;
    int rc;

    if (buf == NULL)
        return cli_fail_at(r->err, CTG_ENOMEM, r->name, 0, 0, "", "out of memory");
    bool first = true;

    while ((rc = cli_textin_read(in, buf, CHUNK, &got, r->err)) == CTG_OK && got > 0) {
        size_t skip = 0;
        /* Spreadsheets save "CSV UTF-8" with a byte order mark: not part of the header. */
        if (first && got >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0)
            skip = 3;
        first = false;
        /* one search a chunk; its lines are searched only when it holds one (rare) */
        r->nul_in_chunk = memchr(buf + skip, '\0', got - skip) != NULL;
        if (feed_chunk(r, p, buf + skip, got - skip, &column) != CTG_OK)
            break;
    }
    free(buf);
    if (rc != CTG_OK || r->status != CTG_OK)
        return rc != CTG_OK ? rc : r->status;
    if (column == 1 && p->pstate == CSV_ROW_NOT_BEGUN)
        r->row_line = r->line;
    if (csv_fini(p, on_field, on_row, r) != 0 && r->status == CTG_OK)
        r->status = cli_fail_at(r->err, CTG_ESYNTAX, r->name, r->row_line, 1, "",
                                "malformed CSV: a quoted field is not closed at the end");
    return r->status;
}

int cli_csv_read(cli_textin *in, char delimiter, cli_csv_row_fn row, void *payload,
                 ctg_error *err)
{
    struct csv_parser p;
    csv_reader r = { row, payload, err, in->name, NULL, NULL, 0, 0, 1, 1, false, false, 0,
                     CTG_OK };
    int rc;

    if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL | CSV_EMPTY_IS_NULL) != 0)
        return cli_fail_at(err, CTG_ENOMEM, in->name, 0, 0, "", "out of memory");
    r.max_field = cli_text_limit();
    csv_set_delim(&p, (unsigned char)delimiter);
    csv_set_space_func(&p, no_space);
    rc = read_rows(&r, &p, in);
    csv_free(&p);
    drop_fields(&r);
    free(r.fields);
    free(r.lens);
    return rc;
}

/* ---- CSV writing ----------------------------------------------------------------------- */

static bool needs_quotes(const char *s, char delimiter)
{
    size_t len = strlen(s);

    if (len > 0 && (s[0] == ' ' || s[0] == '\t' || s[len - 1] == ' ' || s[len - 1] == '\t'))
        return true;
    for (; *s; s++) {
        if (*s == delimiter || *s == '"' || *s == '\n' || *s == '\r')
            return true;
    }
    return false;
}

int cli_csv_field(cli_textout *t, char delimiter, const char *s, bool quote_empty, bool first)
{
    char small[256], *buf = small;
    size_t len, need;
    int rc;

    if (!first && cli_textout_write(t, &delimiter, 1) != 0)
        return -1;
    if (s == NULL || (s[0] == '\0' && !quote_empty))
        return 0;
    len = strlen(s);
    if (s[0] != '\0' && !needs_quotes(s, delimiter))
        return cli_textout_write(t, s, len);
    need = csv_write2(NULL, 0, s, len, '"');
    if (need > sizeof small && (buf = malloc(need)) == NULL)
        return -1;
    csv_write2(buf, need, s, len, '"');
    rc = cli_textout_write(t, buf, need);
    if (buf != small)
        free(buf);
    return rc;
}

int cli_csv_end_row(cli_textout *t)
{
    return cli_textout_write(t, "\n", 1);
}
