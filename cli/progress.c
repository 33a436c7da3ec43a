/* SPDX-License-Identifier: MPL-2.0 */
/* The progress bar of long reads: on stderr, only when it is a terminal and the read lasts,
 * so that scripts and small files see nothing. One line, fitted to the terminal's width and
 * erased to its end at each redraw; cli_progress_line() formats it and does nothing else, so
 * that the tests can check its exact text. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

/* The first frame waits until the rate it shows is measured over a useful stretch, and reads
 * shorter than that never show a bar. Then at most five frames a second. */
#define FIRST_FRAME_S 0.5
#define REDRAW_S 0.2
#define DEFAULT_WIDTH 80
#define LINE_MAX_BYTES 512

#define BAR_MIN 10  /* columns between the brackets */
#define BAR_MAX 50
#define NAME_MIN 12 /* a longer name is cut to this, keeping its tail, before it is dropped */

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void cli_progress_init(cli_progress *p, bool wanted, const char *name)
{
    p->enabled = wanted && isatty(STDERR_FILENO);
    p->drawn = false;
    p->name = name;
    p->start = now_s();
    p->last = 0;
}

/* COLUMNS when set (the user's choice, as for ls), else the terminal's width, else 80. */
static int terminal_width(void)
{
    const char *env = getenv("COLUMNS");
    struct winsize ws;
    long n;

    if (env != NULL && (n = strtol(env, NULL, 10)) > 0)
        return n < LINE_MAX_BYTES ? (int)n : LINE_MAX_BYTES;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col < LINE_MAX_BYTES ? ws.ws_col : LINE_MAX_BYTES;
    return DEFAULT_WIDTH;
}

int cli_progress_update(size_t consumed, size_t total, void *payload)
{
    cli_progress *p = payload;
    char line[LINE_MAX_BYTES];
    double t;

    if (!p->enabled)
        return 0;
    t = now_s();
    if (t - p->start < FIRST_FRAME_S || (p->drawn && t - p->last < REDRAW_S))
        return 0;
    cli_signals_bar(true); /* before drawing: a signal may come in the middle of it */
    cli_progress_line(line, sizeof line, terminal_width(), p->name, consumed, total,
                      t - p->start);
    /* Back to the line's start, the new text, then erase what a longer frame left after it. */
    fprintf(stderr, "\r%s\033[K", line);
    p->drawn = true;
    p->last = t;
    return 0;
}

void cli_progress_done(cli_progress *p)
{
    if (p->drawn)
        fputs("\r\033[K", stderr); /* erase the bar: the result lines follow */
    p->drawn = false;
    cli_signals_bar(false);
}

/* ---- one line of text ----------------------------------------------------------------- */

/* The pieces of a line, in the order they are shown. */
enum { P_NAME = 1, P_BAR = 2, P_PCT = 4, P_AMOUNT = 8, P_RATE = 16, P_TIME = 32 };

/* What is kept as the width shrinks, richest first: the bar goes first, then the rate, the
 * amount, the time, and the name last, because with several files it says which one. */
static const unsigned known_levels[] = {
    P_NAME | P_BAR | P_PCT | P_AMOUNT | P_RATE | P_TIME,
    P_NAME | P_PCT | P_AMOUNT | P_RATE | P_TIME,
    P_NAME | P_PCT | P_AMOUNT | P_TIME,
    P_NAME | P_PCT | P_TIME,
    P_NAME | P_PCT,
    P_PCT,
};
static const unsigned unknown_levels[] = {
    P_NAME | P_AMOUNT | P_RATE | P_TIME,
    P_NAME | P_AMOUNT | P_RATE,
    P_NAME | P_AMOUNT,
    P_AMOUNT,
};

typedef struct pieces {
    const char *name;
    size_t name_len;
    double frac; /* of the total, 0 to 1 */
    char pct[8], amount[48], rate[24], time[24];
} pieces;

/* A byte count in the unit `ref` calls for: kB below a megabyte, MB below a gigabyte, GB. */
static double scaled(double v, double ref, const char **unit)
{
    double div = ref < 1e6 ? 1e3 : ref < 1e9 ? 1e6 : 1e9;

    *unit = ref < 1e6 ? "kB" : ref < 1e9 ? "MB" : "GB";
    return v / div;
}

/* m:ss, or h:mm:ss from an hour on; capped at 99:59:59. */
static void duration(char *dst, size_t cap, const char *label, double s)
{
    unsigned t = s <= 0 ? 0 : s >= 359999 ? 359999 : (unsigned)s;
    char clock[16];

    if (t < 3600)
        snprintf(clock, sizeof clock, "%u:%02u", t / 60 % 60, t % 60);
    else
        snprintf(clock, sizeof clock, "%u:%02u:%02u", t / 3600 % 100, t / 60 % 60, t % 60);
    snprintf(dst, cap, "%s%s", label, clock);
}

/* `v` with one decimal, always with a point: printf's %f would follow the locale's decimal
 * comma, and the line must read the same everywhere. */
static const char *tenths(char *buf, size_t cap, double v)
{
    unsigned t = v <= 0 ? 0 : v >= 99999 ? 999990 : (unsigned)(v * 10 + 0.5);

    snprintf(buf, cap, "%u.%u", t / 10, t % 10);
    return buf;
}

/* Formats every piece; returns the pieces the numbers allow (no rate before time has passed,
 * and then no ETA either). */
static unsigned make_pieces(pieces *pc, size_t consumed, size_t total, double elapsed)
{
    double rate = elapsed > 0 ? (double)consumed / elapsed : 0;
    const char *unit;
    char a[12], b[12]; /* below 1000 once scaled: "999.9" */
    double v;
    unsigned avail = ~0u;

    if (total) {
        pc->frac = consumed >= total ? 1.0 : (double)consumed / (double)total;
        snprintf(pc->pct, sizeof pc->pct, "%d%%", (int)(pc->frac * 100));
        v = scaled((double)consumed, (double)total, &unit);
        snprintf(pc->amount, sizeof pc->amount, "%s/%s %s", tenths(a, sizeof a, v),
                 tenths(b, sizeof b, scaled((double)total, (double)total, &unit)), unit);
        if (rate > 0)
            duration(pc->time, sizeof pc->time, "ETA ",
                     (double)(total - (consumed >= total ? total : consumed)) / rate);
        else
            avail &= ~(unsigned)P_TIME;
    } else {
        v = scaled((double)consumed, (double)consumed, &unit);
        snprintf(pc->amount, sizeof pc->amount, "%s %s read", tenths(a, sizeof a, v), unit);
        duration(pc->time, sizeof pc->time, "elapsed ", elapsed);
    }
    if (rate > 0) {
        v = scaled(rate, rate, &unit);
        snprintf(pc->rate, sizeof pc->rate, "%s %s/s", tenths(a, sizeof a, v), unit);
    } else {
        avail &= ~(unsigned)P_RATE;
    }
    if (pc->name == NULL || pc->name_len == 0)
        avail &= ~(unsigned)P_NAME;
    return avail;
}

/* The columns a level needs, with the name and the bar at their smallest. */
static size_t min_width(const pieces *pc, unsigned level)
{
    size_t w = 0, n = 0;

    if (level & P_NAME)
        w += pc->name_len < NAME_MIN ? pc->name_len : NAME_MIN, n++;
    if (level & P_BAR)
        w += BAR_MIN + 2, n++;
    if (level & P_PCT)
        w += strlen(pc->pct), n++;
    if (level & P_AMOUNT)
        w += strlen(pc->amount), n++;
    if (level & P_RATE)
        w += strlen(pc->rate), n++;
    if (level & P_TIME)
        w += strlen(pc->time), n++;
    return n ? w + n - 1 : 0; /* one space between pieces */
}

/* The text being built: at most `limit` bytes, then a NUL. */
typedef struct line {
    char *buf;
    size_t len, limit;
} line;

/* Appends `n` bytes of `s`, cut at the limit. Control bytes of a file name would move the
 * cursor: they show as '?'. */
static void put_raw(line *l, const char *s, size_t n)
{
    for (size_t i = 0; i < n && l->len < l->limit; i++) {
        unsigned char c = (unsigned char)s[i];
        l->buf[l->len++] = c < 0x20 || c == 0x7f ? '?' : (char)c;
    }
}

/* Appends a piece, after a space unless it is the first. */
static void put(line *l, const char *s, size_t n)
{
    if (l->len > 0)
        put_raw(l, " ", 1);
    put_raw(l, s, n);
}

/* The name in `w` columns: whole, or "..." and its tail, cut at a UTF-8 character's start. */
static void put_name(line *l, const char *name, size_t len, size_t w)
{
    size_t from;

    if (len <= w) {
        put(l, name, len);
        return;
    }
    from = len - (w - 3);
    while (from < len && ((unsigned char)name[from] & 0xc0) == 0x80)
        from++;
    put(l, "...", 3);
    put_raw(l, name + from, len - from);
}

/* "[####      ]" with `w` columns between the brackets. */
static void put_bar(line *l, double frac, size_t w)
{
    char bar[BAR_MAX + 2];
    size_t fill = (size_t)(frac * (double)w);

    bar[0] = '[';
    memset(bar + 1, '#', fill);
    memset(bar + 1 + fill, ' ', w - fill);
    bar[w + 1] = ']';
    put(l, bar, w + 2);
}

static void put_level(line *l, const pieces *pc, unsigned level, size_t name_w, size_t bar_w)
{
    if (level & P_NAME)
        put_name(l, pc->name, pc->name_len, name_w);
    if (level & P_BAR)
        put_bar(l, pc->frac, bar_w);
    if (level & P_PCT)
        put(l, pc->pct, strlen(pc->pct));
    if (level & P_AMOUNT)
        put(l, pc->amount, strlen(pc->amount));
    if (level & P_RATE)
        put(l, pc->rate, strlen(pc->rate));
    if (level & P_TIME)
        put(l, pc->time, strlen(pc->time));
}

size_t cli_progress_line(char *buf, size_t cap, int width, const char *name, size_t consumed,
                         size_t total, double elapsed)
{
    pieces pc = { name, name ? strlen(name) : 0, 0, "", "", "", "" };
    const unsigned *levels = total ? known_levels : unknown_levels;
    size_t count = total ? sizeof known_levels / sizeof known_levels[0]
                         : sizeof unknown_levels / sizeof unknown_levels[0];
    /* The last column stays free: some terminals wrap as soon as it is written. */
    size_t budget = width > 1 ? (size_t)width - 1 : 0, need = 0, slack, name_w = 0, bar_w = 0;
    unsigned avail = make_pieces(&pc, consumed, total, elapsed), level = 0;
    line l = { buf, 0, 0 };

    if (cap == 0)
        return 0;
    l.limit = budget < cap - 1 ? budget : cap - 1;
    for (size_t i = 0; i < count; i++) {
        level = levels[i] & avail;
        if ((need = min_width(&pc, level)) <= budget)
            break;
    }
    if (need > budget)
        level = 0; /* a piece is shown whole or not at all: then nothing */
    slack = need < budget ? budget - need : 0;
    if (level & P_NAME) {
        name_w = pc.name_len < NAME_MIN ? pc.name_len : NAME_MIN;
        size_t more = pc.name_len - name_w < slack ? pc.name_len - name_w : slack;
        name_w += more;
        slack -= more;
    }
    if (level & P_BAR)
        bar_w = BAR_MIN + (slack < BAR_MAX - BAR_MIN ? slack : BAR_MAX - BAR_MIN);
    put_level(&l, &pc, level, name_w, bar_w);
    buf[l.len] = '\0';
    return l.len;
}
