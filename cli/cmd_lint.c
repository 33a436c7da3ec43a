/* SPDX-License-Identifier: MPL-2.0 */
/* contingency-cli lint FILE... (and validate --strict): what is valid JSON and valid PowSyBl
 * but almost certainly a mistake, each finding a diagnostic with its line, column and JSON
 * Pointer. The read streams, in bounded memory whatever the size of the file.
 *
 * Duplicate ids: the ids of the first ID_BUDGET contingencies go in an in-memory table (id_set,
 * 20 bytes per id, at most ID_SET_MAX_CAP slots: 2.5 MB), and their duplicates are reported as
 * they come. A file with more contingencies spills: the table's hashes and every later id's
 * go to a cli_spill (sorted runs on a temporary file, 16 MB of buffers) and the findings from
 * there on are held in a temporary file, in order. At the end, when no id hash repeats, the
 * held findings are printed and that is all (one read). When some repeat, the held findings
 * are dropped and a confirmation read lints the file again: silent up to where the table
 * filled, printing every finding after it, duplicate ids now found among the hashes that
 * repeat only (20 bytes per repeated id: memory then grows with their number, not the file's).
 * Either way the findings come out in file order, as in one read. stdin is copied to a
 * temporary file first, so that it can be read again.
 *
 * For one contingency at a time, 24 bytes per element find an element given twice. */

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_lint_refs.h"
#include "diag.h"
#include "hashspill.h"
#include "pipeline.h"

/* ---- the set of contingency ids seen ------------------------------------------------------ */

/* One id seen: two unrelated hashes of it, 96 bits together (a false duplicate needs two ids
 * that agree on all of them: for 10^8 ids, odds below 10^-13), and where it was first. Five
 * 32-bit words: 20 bytes, without padding, in 32- and 64-bit builds alike. */
typedef struct id_slot {
    uint32_t lo, hi, check;
    uint32_t line, column; /* line 0: a free slot (lines start at 1) */
} id_slot;

/* Open addressing, linear probing, at most 3/4 full: doubling leaves it 3/8 full, so an id
 * costs 27 to 54 bytes, 80 while the table doubles (old and new at once). */
typedef struct id_set {
    id_slot *slots;
    size_t cap; /* a power of two, or 0 */
    size_t count;
} id_set;

#define ID_SET_FIRST_CAP 1024
/* The in-memory table's largest size: 2.5 MB of slots, ID_BUDGET ids at 3/4 full. */
#define ID_SET_MAX_CAP ((size_t)1 << 17)
#define ID_BUDGET (ID_SET_MAX_CAP / 4 * 3)
/* For tests only: the number of ids kept in memory before the spill (0: spill from the
 * first), to run the spill and confirmation read on small files. */
#define ID_BUDGET_ENV "CTG_TEST_LINT_ID_BUDGET"

static uint64_t mix64(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 33);
}

/* FNV-1a and a multiply-xorshift hash in one pass, each finished by a 64-bit mixer. */
static void hash_id(const char *id, uint64_t *h, uint32_t *check)
{
    const unsigned char *s = (const unsigned char *)id;
    uint64_t a = 0xcbf29ce484222325ULL, b = 0x9e3779b97f4a7c15ULL;
    size_t n = 0;

    for (; s[n] != '\0'; n++) {
        a = (a ^ s[n]) * 0x100000001b3ULL;
        b = (b + s[n]) * 0xbf58476d1ce4e5b9ULL;
        b ^= b >> 31;
    }
    *h = mix64(a ^ n);
    *check = (uint32_t)(mix64(b + n) >> 32);
}

static id_slot *id_set_probe(id_slot *slots, size_t cap, uint32_t lo, uint32_t hi,
                             uint32_t check)
{
    size_t mask = cap - 1, i = (((size_t)hi << 16 << 16) | lo) & mask;

    while (slots[i].line != 0
           && (slots[i].lo != lo || slots[i].hi != hi || slots[i].check != check))
        i = (i + 1) & mask;
    return &slots[i];
}

static bool id_set_grow(id_set *s)
{
    size_t cap = s->cap ? s->cap * 2 : ID_SET_FIRST_CAP;
    id_slot *slots;

    if (s->cap > SIZE_MAX / 2 / sizeof *slots)
        return false;
    if ((slots = calloc(cap, sizeof *slots)) == NULL)
        return false;
    for (size_t i = 0; i < s->cap; i++) {
        const id_slot *e = &s->slots[i];
        if (e->line != 0)
            *id_set_probe(slots, cap, e->lo, e->hi, e->check) = *e;
    }
    free(s->slots);
    s->slots = slots;
    s->cap = cap;
    return true;
}

/* Adds the id of hashes `h` and `check` (hash_id), first seen at line:column. Returns the slot
 * of its first sighting when it was there already; else NULL (`*oom` set when the set could
 * not grow). */
static const id_slot *id_set_add(id_set *s, uint64_t h, uint32_t check, unsigned line,
                                 unsigned column, bool *oom)
{
    id_slot *e;

    if (s->count >= s->cap / 4 * 3 && !id_set_grow(s)) {
        *oom = true;
        return NULL;
    }
    e = id_set_probe(s->slots, s->cap, (uint32_t)h, (uint32_t)(h >> 32), check);
    if (e->line != 0)
        return e;
    *e = (id_slot){ (uint32_t)h, (uint32_t)(h >> 32), check, line != 0 ? line : 1, column };
    s->count++;
    return NULL;
}

/* In the confirmation read, where the id of a repeated hash was first: 12 bytes, with the 8
 * of the hash, per repeated id (no load factor: the hashes are a sorted array). */
typedef struct first_seen {
    uint32_t check;
    uint32_t line, column; /* line 0: not met yet */
} first_seen;

/* ---- one file ----------------------------------------------------------------------------- */

typedef struct el_ref {
    const ctg_element *el;
    size_t index;
} el_ref;

/* The state of one file's lint: the visitor's payload. */
typedef struct lint_job {
    cli_progress progress; /* first: the payload is also the bar's */
    const cli_lint_config *cfg;
    const char *name; /* the file, as diagnostics name it */
    id_set ids;
    size_t findings;
    bool kind_flagged; /* --target dynaflow: the list's kind said once */
    bool oom, write_failed;
    int temp_errno; /* a temporary file failed: the errno */
    /* Past the in-memory table (see the top of the file). */
    size_t budget;          /* the ids the table takes */
    uint64_t ordinal;       /* the contingencies met in this read */
    uint64_t spill_at;      /* the ordinal of the first whose findings are held; or UINT64_MAX */
    size_t findings_before; /* the findings printed before it */
    bool kind_said;         /* kind_flagged then */
    cli_spill spill;        /* the hashes of all the ids */
    FILE *held;             /* the findings from spill_at on: a temporary file while spilling */
    bool confirming;        /* the confirmation read */
    bool quiet;             /* in it: a contingency before spill_at, its findings printed */
    uint64_t *dups;         /* the id hashes that repeat, sorted */
    size_t ndups;
    first_seen *seen;       /* for each, its first sighting in the confirmation read */
    /* For one contingency: first[k] is the index of the first element equal to element k
     * (k itself when none); refs sorts them. Kept for the next one. */
    size_t *first;
    el_ref *refs;
    size_t el_cap;
    /* --target dynaflow, a version after the contingencies (final_versions): for the root
     * (index 0) and each list nested in it (1 + its index), whether its final version is at
     * most 1.0. */
    const char *file, *path; /* what lint_read reads */
    bool finals_read;
    unsigned char *finals;
    size_t finals_n;
} lint_job;

/* The contingency being linted. */
typedef struct lint_at {
    lint_job *job;
    const ctg_stream_header *list;
    const ctg_contingency *c;
    const ctg_stream_place *at;
} lint_at;

/* What a finding points at in the contingency. Its JSON Pointer is made only when a finding
 * is printed: most contingencies have none. */
typedef enum spot_kind { SPOT_CONTINGENCY, SPOT_ID, SPOT_ELEMENT, SPOT_EXTENSION } spot_kind;
typedef struct lint_spot {
    spot_kind kind;
    size_t k; /* the element's or the extension's index */
    unsigned line, column;
} lint_spot;

/* An id as messages quote it: at most 120 bytes of it, cut on a UTF-8 boundary, "..." after. */
static const char *shown(char *buf, size_t cap, const char *id)
{
    size_t len = strlen(id), keep = len < cap - 4 ? len : cap - 4;

    if (keep > 120)
        keep = 120;
    while (keep < len && keep > 0 && ((unsigned char)id[keep] & 0xC0) == 0x80)
        keep--;
    memcpy(buf, id, keep);
    strcpy(buf + keep, keep < len ? "..." : "");
    return buf;
}

#define SHOWN(buf, id) shown(buf, sizeof buf, id)

/* A temporary file (the spill, the held findings) failed with `errnum`: the lint stops. */
static int temp_failed(lint_job *j, int errnum)
{
    if (j->temp_errno == 0)
        j->temp_errno = errnum != 0 ? errnum : EIO;
    return 1;
}

/* Prints one finding (a warning), or holds it while spilling, or drops it in the confirmation
 * read before spill_at (printed by the first). Returns nonzero when that failed: the read then
 * stops. */
static int emit(lint_job *j, unsigned line, unsigned column, const char *path, const char *code,
                const char *message)
{
    cli_diag d = { j->name, line, column, path, code, "warning", message };
    FILE *out = j->held != NULL ? j->held : stdout;

    if (j->quiet)
        return 0;
    j->findings++;
    if (cli_diag_print(out, j->cfg->format, &d) < 0) {
        if (out != stdout)
            return temp_failed(j, errno);
        j->write_failed = true;
        return 1;
    }
    return 0;
}

/* A key as a JSON Pointer token ('~' as "~0", '/' as "~1"); false when it does not fit. */
static bool pointer_token(char *buf, size_t cap, const char *key)
{
    size_t n = 0;

    for (; *key != '\0'; key++) {
        bool esc = *key == '~' || *key == '/';
        if (n + 1 + esc >= cap)
            return false;
        if (esc)
            buf[n++] = '~';
        buf[n++] = esc ? (*key == '~' ? '0' : '1') : *key;
    }
    buf[n] = '\0';
    return true;
}

/* The JSON Pointer of `s`: known at the root and one level down; "" deeper (the line and
 * column still say where). An extension name too long for `buf` leaves "/extensions". */
static void spot_path(const lint_at *x, const lint_spot *s, char *buf, size_t cap)
{
    const ctg_stream_header *h = x->list;
    char token[160];
    int n = 0;

    buf[0] = '\0';
    if (h->depth == 1)
        n = snprintf(buf, cap, "/contingencyLists/%zu/contingencies/%zu", h->index,
                     x->at->index);
    else if (h->depth == 0 && h->kind != CTG_LIST_CONTINGENCY)
        n = snprintf(buf, cap, "/contingencies/%zu", x->at->index);
    else if (h->depth > 1)
        return;
    if (n < 0 || (size_t)n >= cap)
        return;
    if (s->kind == SPOT_ID)
        snprintf(buf + n, cap - (size_t)n, "/id");
    else if (s->kind == SPOT_ELEMENT)
        snprintf(buf + n, cap - (size_t)n, "/elements/%zu", s->k);
    else if (s->kind == SPOT_EXTENSION) {
        bool fits = pointer_token(token, sizeof token, x->c->extensions[s->k].name);
        snprintf(buf + n, cap - (size_t)n, "/extensions%s%s", fits ? "/" : "", fits ? token : "");
    }
}

/* A finding at `s` of the contingency. */
static int finding(const lint_at *x, const lint_spot *s, const char *code, const char *fmt, ...)
{
    char message[640], path[320];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    spot_path(x, s, path, sizeof path);
    return emit(x->job, s->line, s->column, path, code, message);
}

/* ---- the checks --------------------------------------------------------------------------- */

static bool is_space(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f';
}

/* An id that is empty or has whitespace around it: `what` names it in the message. */
static int check_text(const lint_at *x, const lint_spot *at, const char *what, const char *id)
{
    size_t len = strlen(id);
    bool lead, trail;
    char s[128];

    if (len == 0)
        return finding(x, at, "empty-id", "%s is empty", what);
    lead = is_space(id[0]);
    trail = is_space(id[len - 1]);
    if (!lead && !trail)
        return 0;
    return finding(x, at, "id-whitespace", "%s \"%s\" has %s whitespace", what,
                   SHOWN(s, id), lead && trail ? "leading and trailing" : lead ? "leading"
                                                                              : "trailing");
}

/* The index of `h` among the id hashes that repeat (the confirmation read), or SIZE_MAX. */
static size_t repeat_index(const lint_job *j, uint64_t h)
{
    size_t lo = 0, hi = j->ndups;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (j->dups[mid] == h)
            return mid;
        if (j->dups[mid] < h)
            lo = mid + 1;
        else
            hi = mid;
    }
    return SIZE_MAX;
}

/* The confirmation read: where the id of hashes `h` and `check`, met at `at`, was first (in
 * `*out`), or NULL at its first sighting or when its hash does not repeat. A second id of
 * the same `h` (another `check`: rare) is told apart in the id set, left empty otherwise. */
static const id_slot *confirm_first(lint_job *j, uint64_t h, uint32_t check,
                                    const lint_spot *at, id_slot *out)
{
    size_t k = repeat_index(j, h);
    first_seen *f;

    if (k == SIZE_MAX)
        return NULL;
    f = &j->seen[k];
    if (f->line == 0) {
        *f = (first_seen){ check, at->line != 0 ? at->line : 1, at->column };
        return NULL;
    }
    if (f->check != check)
        return id_set_add(&j->ids, h, check, at->line, at->column, &j->oom);
    out->line = f->line;
    out->column = f->column;
    return out;
}

static int check_contingency_id(const lint_at *x)
{
    lint_job *j = x->job;
    lint_spot at = { SPOT_ID, 0, x->at->id_line, x->at->id_column };
    const id_slot *first;
    id_slot seen;
    uint64_t h;
    uint32_t check;
    char s[128];

    if (check_text(x, &at, "contingency id", x->c->id))
        return 1;
    hash_id(x->c->id, &h, &check);
    if (j->held != NULL) /* spilling: the end of the read says whether it repeats */
        return cli_spill_add(&j->spill, h) != 0 ? temp_failed(j, j->spill.error) : 0;
    if (j->confirming)
        first = confirm_first(j, h, check, &at, &seen);
    else
        first = id_set_add(&j->ids, h, check, at.line, at.column, &j->oom);
    if (j->oom)
        return 1;
    if (first == NULL)
        return 0;
    return finding(x, &at, "duplicate-id",
                   "duplicate contingency id \"%s\", first at %u:%u", SHOWN(s, x->c->id),
                   (unsigned)first->line, (unsigned)first->column);
}

/* Elements by type then id: the same element compares 0. */
static int el_key_cmp(const ctg_element *a, const ctg_element *b)
{
    if (a->type != b->type)
        return a->type < b->type ? -1 : 1;
    return strcmp(a->id, b->id);
}

/* By element, then input order: the first of equal elements comes first. */
static int el_cmp(const void *pa, const void *pb)
{
    const el_ref *a = pa, *b = pb;
    int d = el_key_cmp(a->el, b->el);

    if (d != 0)
        return d;
    return a->index < b->index ? -1 : a->index > b->index;
}

/* Fills j->first for `c`: quadratic for a few elements, sorted for more. */
static bool find_repeats(lint_job *j, const ctg_contingency *c)
{
    size_t n = c->element_count;

    if (n > j->el_cap) {
        size_t *first;
        el_ref *refs;
        if (n > SIZE_MAX / sizeof *refs)
            return false;
        first = realloc(j->first, n * sizeof *first);
        if (first != NULL)
            j->first = first;
        refs = realloc(j->refs, n * sizeof *refs);
        if (refs != NULL)
            j->refs = refs;
        if (first == NULL || refs == NULL)
            return false;
        j->el_cap = n;
    }
    for (size_t k = 0; k < n; k++)
        j->first[k] = k;
    if (n <= 16) {
        for (size_t k = 1; k < n; k++)
            for (size_t i = 0; i < k && j->first[k] == k; i++)
                if (el_key_cmp(&c->elements[i], &c->elements[k]) == 0)
                    j->first[k] = i;
        return true;
    }
    for (size_t k = 0; k < n; k++)
        j->refs[k] = (el_ref){ &c->elements[k], k };
    qsort(j->refs, n, sizeof *j->refs, el_cmp);
    for (size_t k = 1; k < n; k++)
        if (el_key_cmp(j->refs[k].el, j->refs[k - 1].el) == 0)
            j->first[j->refs[k].index] = j->first[j->refs[k - 1].index];
    return true;
}

/* Whether PowSyBl reads an element's side (spec 2.2): DC_LINE's is written, never read. */
static bool side_read(ctg_element_type t)
{
    return ctg_element_type_is_sided(t) && t != CTG_ELEMENT_DC_LINE;
}

/* Whether a version string is at most 1.0 ("0.x", "1.0"); NULL (absent, or not read yet) is
 * the current version. */
static bool version_up_to_1_0(const char *v)
{
    char *end;
    unsigned long major, minor = 0;

    if (v == NULL)
        return false;
    major = strtoul(v, &end, 10);
    if (*end == '.')
        minor = strtoul(end + 1, NULL, 10);
    return major == 0 || (major == 1 && minor == 0);
}

static int final_version(const ctg_stream_header *h, void *payload)
{
    lint_job *j = payload;
    size_t at = h->depth == 0 ? 0 : h->index + 1;
    unsigned char *grown;

    if (h->depth > 1)
        return 0;
    if (at >= j->finals_n) {
        if (at > SIZE_MAX / 2 - 1 || !(grown = realloc(j->finals, 2 * at + 2)))
            return 1; /* unknown: the version said current, as before it is read */
        memset(grown + j->finals_n, 0, 2 * at + 2 - j->finals_n);
        j->finals = grown;
        j->finals_n = 2 * at + 2;
    }
    j->finals[at] = version_up_to_1_0(h->version);
    return 0;
}

static int ignore_contingency(const ctg_stream_header *h, const ctg_contingency *c, void *p)
{
    (void)h, (void)c, (void)p;
    return 0;
}

/* Whether the version of `list`, not read yet, is at most 1.0 once read: the whole file read
 * once more (only when a boundary line comes before a version) for every list's final
 * version, with which the reader judged the elements. */
static bool final_up_to_1_0(lint_job *j, const ctg_stream_header *list)
{
    ctg_visitor v = CTG_VISITOR_INIT;
    ctg_source src = cli_source(j->file);
    ctg_read_options opts = cli_read_options(j->path);
    ctg_error err;
    size_t at = list->depth == 0 ? 0 : list->index + 1;

    if (!j->finals_read) {
        j->finals_read = true;
        v.contingency = ignore_contingency;
        v.list_end = final_version;
        v.payload = j;
        opts.flags |= CTG_READ_SKIP_EXTENSION_VALUES;
        ctg_read_stream(&src, &v, &opts, &err); /* a failure is the lint read's to report */
    }
    return at < j->finals_n && j->finals[at];
}

/* The 11 element types dynaflow-launcher reads (its ContingencyElement::typeFromString); it
 * drops a contingency with any other. BOUNDARY_LINE is read when the file spells it
 * DANGLING_LINE, as files of version 1.0 and older do: a version that comes later is known
 * only at the list's end, but the element was read by it all the same. */
static bool dynaflow_reads(lint_job *j, ctg_element_type t, const ctg_stream_header *list)
{
    switch (t) {
    case CTG_ELEMENT_GENERATOR:
    case CTG_ELEMENT_STATIC_VAR_COMPENSATOR:
    case CTG_ELEMENT_SHUNT_COMPENSATOR:
    case CTG_ELEMENT_BRANCH:
    case CTG_ELEMENT_HVDC_LINE:
    case CTG_ELEMENT_BUSBAR_SECTION:
    case CTG_ELEMENT_LINE:
    case CTG_ELEMENT_TWO_WINDINGS_TRANSFORMER:
    case CTG_ELEMENT_THREE_WINDINGS_TRANSFORMER:
    case CTG_ELEMENT_LOAD:
        return true;
    case CTG_ELEMENT_DANGLING_LINE:
    case CTG_ELEMENT_BOUNDARY_LINE:
        return list->version != NULL ? version_up_to_1_0(list->version)
                                     : final_up_to_1_0(j, list);
    default:
        return false;
    }
}

/* The side of element k: ignored by PowSyBl on its type, empty, spaced, or (dynaflow) ignored
 * by dynaflow-launcher. */
static int check_side(const lint_at *x, const lint_spot *at)
{
    lint_job *j = x->job;
    const ctg_element *el = &x->c->elements[at->k];
    const char *type = ctg_element_type_name(el->type);
    char s[128];

    if (el->voltage_level_id == NULL)
        return 0;
    if (!side_read(el->type))
        return finding(x, at, "ignored-side",
                       "voltageLevelId \"%s\" is ignored on a %s element: PowSyBl reads a side "
                       "only on BRANCH, LINE, TWO_WINDINGS_TRANSFORMER, TIE_LINE and HVDC_LINE",
                       SHOWN(s, el->voltage_level_id), type);
    if (check_text(x, at, "voltageLevelId", el->voltage_level_id))
        return 1;
    if (!j->cfg->dynaflow || el->voltage_level_id[0] == '\0')
        return 0;
    return finding(x, at, "dynaflow-side",
                   "dynaflow-launcher ignores voltageLevelId \"%s\": it trips the whole %s",
                   SHOWN(s, el->voltage_level_id), type);
}

static int check_element(const lint_at *x, size_t k)
{
    lint_job *j = x->job;
    const ctg_element *el = &x->c->elements[k];
    lint_spot at = { SPOT_ELEMENT, k, x->at->element_lines[k], x->at->element_columns[k] };
    char s[128], t[128];
    size_t first = j->first[k];

    if (check_text(x, &at, "element id", el->id))
        return 1;
    if (first != k
        && finding(x, &at, "duplicate-element",
                   "element \"%s\" (%s) twice in contingency \"%s\", first at %u:%u",
                   SHOWN(s, el->id), ctg_element_type_name(el->type), SHOWN(t, x->c->id),
                   x->at->element_lines[first], x->at->element_columns[first]))
        return 1;
    if (check_side(x, &at))
        return 1;
    if (j->cfg->dynaflow && !dynaflow_reads(j, el->type, x->list))
        return finding(x, &at, "dynaflow-type",
                       "dynaflow-launcher does not read %s elements: it drops contingency "
                       "\"%s\"%s", ctg_element_type_name(el->type), SHOWN(s, x->c->id),
                       el->type == CTG_ELEMENT_BOUNDARY_LINE
                           ? " (it reads DANGLING_LINE, as format 1.0 writes it)" : "");
    return 0;
}

static int check_extensions(const lint_at *x)
{
    const ctg_contingency *c = x->c;
    char s[128], t[128];

    for (size_t i = 0; i < c->extension_count; i++) {
        lint_spot at = { SPOT_EXTENSION, i, x->at->extension_lines[i],
                         x->at->extension_columns[i] };
        if (finding(x, &at, "dynaflow-extension",
                    "dynaflow-launcher ignores extension \"%s\" of contingency \"%s\"",
                    SHOWN(s, c->extensions[i].name), SHOWN(t, c->id)))
            return 1;
    }
    return 0;
}

/* --target dynaflow: dynaflow-launcher reads the "contingencies" of a root `default` list
 * only. Said once per file, at the list's "type" (found by a read of the file once more:
 * a list of another kind is delivered whole, or its first contingency after its type). */
static int check_kind(lint_job *j, const ctg_stream_header *list, unsigned line,
                      unsigned column)
{
    const char *kind = list->depth > 0 ? "list" : ctg_list_kind_name(list->kind);
    const char *type = "/type";
    ctg_source src = cli_source(j->file);
    ctg_read_options opts = cli_read_options(j->path);
    ctg_location at = { 0 };
    char message[128];

    if (!j->cfg->dynaflow || j->kind_flagged
        || (list->depth == 0 && list->kind == CTG_LIST_DEFAULT))
        return 0;
    j->kind_flagged = true;
    if (list->kind == CTG_LIST_CONTINGENCY)
        return emit(j, line, column, "", "dynaflow-kind",
                    "dynaflow-launcher reads only \"default\" lists, not a bare contingency");
    snprintf(message, sizeof message,
             "dynaflow-launcher reads only \"default\" lists, not \"%s\" lists", kind);
    if (j->quiet || ctg_locate(&src, &type, 1, &at, &opts, NULL) != CTG_OK || !at.found)
        at.line = at.column = 0;
    return emit(j, at.line, at.column, type, "dynaflow-kind", message);
}

/* The table is full: its hashes go to the spill, and the findings from this contingency on
 * are held. */
static int start_spill(lint_job *j)
{
    if (cli_spill_init(&j->spill) != 0) {
        j->oom = true;
        return 1;
    }
    for (size_t i = 0; i < j->ids.cap; i++) {
        const id_slot *e = &j->ids.slots[i];
        if (e->line != 0 && cli_spill_add(&j->spill, (uint64_t)e->hi << 32 | e->lo) != 0)
            return temp_failed(j, j->spill.error);
    }
    free(j->ids.slots);
    memset(&j->ids, 0, sizeof j->ids);
    errno = 0;
    if ((j->held = tmpfile()) == NULL)
        return temp_failed(j, errno);
    j->spill_at = j->ordinal;
    j->findings_before = j->findings;
    j->kind_said = j->kind_flagged;
    return 0;
}

static int on_contingency(const ctg_stream_header *list, const ctg_contingency *c,
                          const ctg_stream_place *at, void *payload)
{
    lint_at x = { payload, list, c, at };
    lint_spot brace = { SPOT_CONTINGENCY, 0, at->line, at->column };
    lint_job *j = payload;
    char s[128];

    if (!j->confirming && j->held == NULL && j->ids.count >= j->budget && start_spill(j))
        return 1;
    j->quiet = j->confirming && j->ordinal < j->spill_at;
    j->ordinal++;
    if (check_kind(j, list, at->line, at->column))
        return 1;
    if (c->element_count == 0
        && finding(&x, &brace, "empty-contingency",
                   "contingency \"%s\" has no elements", SHOWN(s, c->id)))
        return 1;
    if (check_contingency_id(&x))
        return 1;
    if (!find_repeats(j, c)) {
        j->oom = true;
        return 1;
    }
    for (size_t k = 0; k < c->element_count; k++)
        if (check_element(&x, k))
            return 1;
    return j->cfg->dynaflow ? check_extensions(&x) : 0;
}

/* Lists of other kinds are delivered whole, without a place: only their kind is checked. */
static int on_list(const ctg_stream_header *h, const ctg_list *list, void *payload)
{
    lint_job *j = payload;

    (void)list;
    j->quiet = false; /* check_kind says it once: not twice when it came before spill_at */
    return check_kind(j, h, 0, 0);
}

/* The root's kind is said when its first item comes; at its end for a list that had none. */
static int on_list_end(const ctg_stream_header *h, void *payload)
{
    lint_job *j = payload;

    j->quiet = false;
    return h->depth == 0 ? check_kind(j, h, 0, 0) : 0;
}

/* The exit status of a file's lint, its error printed. */
static int outcome(const lint_job *j, int rc, const ctg_error *err)
{
    ctg_error e;

    /* stdout's failure: said by cli_flush_stdout at the end, whose status it is (1 for a
     * closed pipe, 2 for a full disk) */
    if (j->write_failed)
        return CLI_OK;
    if (j->oom || j->temp_errno != 0) {
        memset(&e, 0, sizeof e);
        e.code = j->oom ? CTG_ENOMEM : CTG_EIO;
        snprintf(e.source, sizeof e.source, "%s", j->name);
        if (j->oom)
            snprintf(e.message, sizeof e.message, "out of memory after %llu contingencies",
                     (unsigned long long)j->ordinal);
        else
            snprintf(e.message, sizeof e.message,
                     "cannot keep the contingency ids on a temporary file: %s",
                     strerror(j->temp_errno));
        return cli_diag_report(j->cfg->format, e.code, &e);
    }
    if (rc != CTG_OK)
        return cli_diag_report(j->cfg->format, rc, err);
    return j->findings != 0 ? CLI_INVALID : CLI_OK;
}

/* One read of `file` (stdin's copy for "-"), named as `path` is. */
static int lint_read(lint_job *j, const char *file, const char *path, ctg_error *err)
{
    ctg_visitor v = CTG_VISITOR_INIT;
    ctg_source src = cli_source(file);
    ctg_read_options opts = cli_read_options(path);
    int rc;

    v.contingency_at = on_contingency;
    v.list = on_list;
    v.list_end = on_list_end;
    v.progress = cli_progress_update;
    v.payload = j;
    /* Extension values are checked, not kept: only their names are linted. Sides are kept on
     * every type, so that one PowSyBl would drop can be flagged. */
    opts.flags |= CTG_READ_SKIP_EXTENSION_VALUES | CTG_READ_KEEP_SIDES;
    cli_progress_init(&j->progress, j->cfg->progress, j->cfg->bar_names ? j->name : NULL);
    rc = ctg_read_stream(&src, &v, &opts, err);
    cli_progress_done(&j->progress);
    return rc;
}

/* Prints the held findings. */
static void print_held(lint_job *j, FILE *held)
{
    char chunk[65536];
    size_t n;

    if (fflush(held) != 0 || fseek(held, 0, SEEK_SET) != 0) {
        temp_failed(j, errno);
        return;
    }
    while ((n = fread(chunk, 1, sizeof chunk, held)) > 0)
        if (fwrite(chunk, 1, n, stdout) != n) {
            j->write_failed = true;
            return;
        }
    if (ferror(held))
        temp_failed(j, errno);
}

/* The end of a read that spilled (`rc` its outcome, even an error: the findings before it
 * count): the held findings printed when no id hash repeats, else the confirmation read,
 * whose outcome is returned (the same error, if any). */
static int settle(lint_job *j, const char *file, const char *path, int rc, ctg_error *err)
{
    FILE *held = j->held;

    j->held = NULL;
    if (cli_spill_repeated(&j->spill, &j->dups, &j->ndups) != 0)
        temp_failed(j, j->spill.error);
    cli_spill_dispose(&j->spill);
    if (j->ndups > 0 && j->temp_errno == 0) {
        uint64_t *fit = realloc(j->dups, j->ndups * sizeof *fit); /* the slack of its growth */
        if (fit != NULL)
            j->dups = fit;
        if ((j->seen = calloc(j->ndups, sizeof *j->seen)) == NULL) {
            j->oom = true;
            fclose(held);
            return rc;
        }
    }
    if (j->temp_errno == 0 && j->ndups == 0)
        print_held(j, held);
    fclose(held);
    if (j->temp_errno != 0 || j->write_failed || j->ndups == 0)
        return rc;
    j->confirming = true;
    j->ordinal = 0;
    j->findings = j->findings_before;
    j->kind_flagged = j->kind_said;
    return lint_read(j, file, path, err);
}

/* The ids kept in memory: ID_BUDGET, or fewer when the tests ask. */
static size_t id_budget(void)
{
    const char *text = getenv(ID_BUDGET_ENV);
    char *end;
    unsigned long n;

    if (text == NULL || *text == '\0')
        return ID_BUDGET;
    n = strtoul(text, &end, 10);
    return *end == '\0' && n < ID_BUDGET ? (size_t)n : ID_BUDGET;
}

int cli_lint_file(const char *path, const cli_lint_config *cfg)
{
    lint_job j;
    ctg_error err;
    char *spool = NULL;
    const char *file = path;
    int rc;

    /* An input that cannot be read twice is copied first: a file that spills is. */
    if ((rc = pl_spool_input(path, 1, &spool)) != CLI_OK)
        return rc;
    if (spool != NULL)
        file = spool;
    memset(&j, 0, sizeof j);
    j.cfg = cfg;
    j.name = cli_input_name(path);
    j.budget = id_budget();
    j.file = file;
    j.path = path;
    j.spill_at = UINT64_MAX;
    rc = lint_read(&j, file, path, &err);
    if (j.held != NULL && !j.oom && !j.write_failed && j.temp_errno == 0)
        rc = settle(&j, file, path, rc, &err);
    rc = outcome(&j, rc, &err);
    if (j.held != NULL)
        fclose(j.held);
    cli_spill_dispose(&j.spill);
    pl_spool_remove(spool, 1);
    free(j.ids.slots);
    free(j.dups);
    free(j.seen);
    free(j.first);
    free(j.refs);
    free(j.finals);
    return rc;
}

/* ---- the command -------------------------------------------------------------------------- */

enum {
    OPT_FORMAT,
    OPT_TARGET,
    OPT_REFS /* then the cross-check's files, in LINT_REF_* order */,
    OPT_COUNT = OPT_REFS + LINT_REF_COUNT
};
static const char *const lint_valued[] = { "--format",     "--target",
                                           "--contingencies", "--actions",
                                           "--strategies", "--limit-reductions",
                                           "--monitoring", NULL };

/* The cross-check's files, when any is given: then no FILE, no --target, no stdin but for the
 * contingency list (the others are read a second time, for the findings' places). */
static int lint_refs(const cli_command *cmd, const char **values, const cli_args *args,
                     cli_diag_format format)
{
    const char *files[LINT_REF_COUNT];

    if (args->npos != 0)
        return cli_usage_error(cmd, "the cross-check (--contingencies, --actions...) takes no FILE",
                               args->pos[0]);
    if (values[OPT_TARGET] != NULL)
        return cli_usage_error(cmd, "--target does not apply to the cross-check", NULL);
    for (int i = 0; i < LINT_REF_COUNT; i++) {
        files[i] = values[OPT_REFS + i];
        if (i != LINT_REF_CONTINGENCIES && files[i] && strcmp(files[i], "-") == 0)
            return cli_usage_error(cmd, "only the contingency list of the cross-check may be stdin",
                                   lint_valued[OPT_REFS + i]);
    }
    if (!files[LINT_REF_STRATEGIES] && !files[LINT_REF_ACTIONS])
        return cli_usage_error(cmd, "the cross-check needs --strategies or --actions", NULL);
    return cli_lint_refs(files, format);
}

int cli_lint(const cli_command *cmd, int argc, char **argv)
{
    const char *values[OPT_COUNT] = { NULL };
    cli_options opts = { NULL, lint_valued, values };
    cli_lint_config cfg = { CLI_DIAG_TEXT, false, false, false };
    cli_args args;
    int status;

    if (cli_begin(cmd, argc, argv, &opts, &args, &status))
        return status;
    if (cli_diag_format_parse(values[OPT_FORMAT], &cfg.format) != 0)
        return cli_usage_error(cmd, "unknown format (text or json)", values[OPT_FORMAT]);
    if (values[OPT_TARGET] != NULL && strcmp(values[OPT_TARGET], "dynaflow") != 0
        && strcmp(values[OPT_TARGET], "powsybl") != 0)
        return cli_usage_error(cmd, "unknown target (powsybl or dynaflow)", values[OPT_TARGET]);
    for (int i = OPT_REFS; i < OPT_COUNT; i++)
        if (values[i] != NULL)
            return lint_refs(cmd, values, &args, cfg.format);
    if (args.npos == 0)
        return cli_usage_error(cmd, "no file given", NULL);
    cfg.dynaflow = values[OPT_TARGET] != NULL && strcmp(values[OPT_TARGET], "dynaflow") == 0;
    cfg.progress = !args.no_progress;
    cfg.bar_names = args.npos > 1;
    /* Every file is linted; the worst outcome decides the exit status. */
    for (int i = 0; i < args.npos && !ferror(stdout); i++) {
        int one = cli_lint_file(args.pos[i], &cfg);
        if (one > status)
            status = one;
    }
    return cli_flush_stdout(status);
}
