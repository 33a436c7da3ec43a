/* The progress bar of long reads: on stderr, only when it is a terminal and the input is
 * large, so that scripts and small files see nothing. */

#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

/* Inputs smaller than this finish before a bar would be worth drawing. */
#define PROGRESS_MIN_BYTES ((size_t)50 * 1000 * 1000)
#define REDRAW_NS 200000000L

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void cli_progress_init(cli_progress *p, bool quiet)
{
    p->enabled = !quiet && isatty(STDERR_FILENO);
    p->drawn = false;
    p->start = now_s();
    p->last = 0;
}

static void draw(const cli_progress *p, size_t consumed, size_t total, double t)
{
    const int width = 30;
    double frac = (double)consumed / (double)total;
    double rate = t > p->start ? (double)consumed / (t - p->start) : 0;
    double eta = rate > 0 ? (double)(total - consumed) / rate : 0;
    int fill = (int)(frac * width);

    fprintf(stderr, "\r[%.*s%*s] %7.1f/%.1f MB %7.1f MB/s ETA %d:%02d ", fill,
            "##############################", width - fill, "", (double)consumed / 1e6,
            (double)total / 1e6, rate / 1e6, (int)eta / 60, (int)eta % 60);
}

int cli_progress_update(size_t consumed, size_t total, void *payload)
{
    cli_progress *p = payload;
    double t;

    if (!p->enabled || total < PROGRESS_MIN_BYTES || consumed > total)
        return 0;
    t = now_s();
    if (p->drawn && t - p->last < REDRAW_NS / 1e9)
        return 0;
    cli_signals_bar(true); /* before drawing: a signal may come in the middle of it */
    draw(p, consumed, total, t);
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
