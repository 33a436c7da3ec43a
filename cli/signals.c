/* SPDX-License-Identifier: MPL-2.0 */
/* Signals. SIGINT, SIGTERM and SIGHUP end the program as they would, but first remove the
 * temporary file of a write in progress and erase the progress bar's line; the exit status
 * is 128 + the signal, as a shell reports a process killed by it. SIGPIPE is caught and only
 * noted, so that a write to a closed pipe fails as a write and convert can say so.
 *
 * The state below is static on purpose: a signal handler reaches nothing else. It is written
 * by the main thread only, and read by the handlers. */

#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* Copies of the temporary files' paths (the library frees its own at the end of the write):
 * a slot for each of a command's outputs in progress at once and of its inputs' copies. */
#define TEMP_SLOTS CLI_TEMP_SLOTS
static char temp_path[TEMP_SLOTS][4096];
static volatile sig_atomic_t temp_armed[TEMP_SLOTS];
static volatile sig_atomic_t bar_on_line;
static volatile sig_atomic_t pipe_broken;

/* Async-signal-safe calls only: unlink, write, _exit. */
static void on_fatal(int sig)
{
    static const char erase[] = "\r\033[K";

    for (int i = 0; i < TEMP_SLOTS; i++) {
        if (temp_armed[i])
            unlink(temp_path[i]);
    }
    if (bar_on_line && write(STDERR_FILENO, erase, sizeof erase - 1) < 0) {
        /* nothing more can be done about a terminal that fails */
    }
    _exit(128 + sig);
}

static void on_pipe(int sig)
{
    (void)sig;
    pipe_broken = 1;
}

void cli_signals_install(void)
{
    static const int fatal[] = { SIGINT, SIGTERM, SIGHUP };
    struct sigaction sa, old;

    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
        sigaddset(&sa.sa_mask, fatal[i]); /* one cleanup at a time */
    sa.sa_handler = on_fatal;
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++) {
        /* An ignored signal stays ignored: `nohup`, or a background job of a script. */
        if (sigaction(fatal[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
            sigaction(fatal[i], &sa, NULL);
    }
}

void cli_signals_catch_pipe(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_pipe;
    sigaction(SIGPIPE, &sa, NULL);
}

bool cli_signals_pipe_broken(void)
{
    return pipe_broken != 0;
}

void cli_signals_temp_file_at(int slot, const char *path)
{
    size_t n = path ? strlen(path) : 0;

    if (slot < 0 || slot >= TEMP_SLOTS)
        return;
    temp_armed[slot] = 0;
    /* The handler must see the flag down before the copy changes, and up only after. */
    atomic_signal_fence(memory_order_seq_cst);
    if (path == NULL || n >= sizeof temp_path[slot])
        return; /* gone; or too long to copy, and then a signal leaves it behind */
    memcpy(temp_path[slot], path, n + 1);
    atomic_signal_fence(memory_order_seq_cst);
    temp_armed[slot] = 1;
}

void cli_signals_temp_file(const char *path, void *payload)
{
    (void)payload;
    cli_signals_temp_file_at(0, path);
}

void cli_signals_bar(bool on_line)
{
    bar_on_line = on_line;
}
