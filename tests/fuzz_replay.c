/* SPDX-License-Identifier: MPL-2.0 */
/* Replays files through a fuzz target's LLVMFuzzerTestOneInput, without libFuzzer: the corpus
 * and every crash ever found (tests/fuzz/regress/) run in the ordinary, sanitizer and valgrind
 * builds as a ctest test.
 *
 * usage: fuzz_replay_TARGET PATH...   (a PATH is a file or a folder of files, not recursive;
 * hidden files and README* in a folder are skipped)
 * Each input is copied into a block of exactly its size, so that ASan and valgrind see a read
 * past its end. A failed check aborts, after the name of the input was printed. Exit status:
 * 0 when every input ran, 1 when a path cannot be read or no input was found at all. */

#include <dirent.h>
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *fp = fopen(path, "rb");
    struct stat st;
    uint8_t *data;
    size_t size;

    if (fp == NULL || fstat(fileno(fp), &st) != 0 || st.st_size < 0) {
        fprintf(stderr, "fuzz_replay: cannot read %s\n", path);
        if (fp != NULL)
            fclose(fp);
        return -1;
    }
    size = (size_t)st.st_size;
    data = malloc(size ? size : 1);
    if (data == NULL || fread(data, 1, size, fp) != size) {
        fprintf(stderr, "fuzz_replay: cannot read %s\n", path);
        free(data);
        fclose(fp);
        return -1;
    }
    fclose(fp);
    printf("%s (%zu bytes)\n", path, size);
    fflush(stdout);
    /* libFuzzer passes a NULL-free pointer even for an empty input; so do we. */
    LLVMFuzzerTestOneInput(data, size);
    free(data);
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The regular files of `dir`, sorted, hidden ones left out; *n gets their number. */
static char **list_dir(const char *dir, size_t *n)
{
    DIR *d = opendir(dir);
    struct dirent *ent;
    char **names = NULL;
    size_t cap = 0;

    *n = 0;
    if (d == NULL)
        return NULL;
    while ((ent = readdir(d)) != NULL) {
        /* Hidden files and a folder's README are not inputs. */
        if (ent->d_name[0] == '.' || strncmp(ent->d_name, "README", 6) == 0)
            continue;
        if (*n == cap) {
            char **p = realloc(names, (cap = cap * 2 + 64) * sizeof *p);
            if (p == NULL)
                break;
            names = p;
        }
        size_t len = strlen(dir) + strlen(ent->d_name) + 2;
        if ((names[*n] = malloc(len)) == NULL)
            break;
        snprintf(names[*n], len, "%s/%s", dir, ent->d_name);
        (*n)++;
    }
    closedir(d);
    if (*n > 0)
        qsort(names, *n, sizeof *names, by_name);
    return names;
}

/* Runs every regular file of `dir`; returns how many, or -1. */
static long run_dir(const char *dir)
{
    size_t n;
    char **names = list_dir(dir, &n);
    long ran = 0;
    struct stat st;

    for (size_t i = 0; i < n; i++) {
        if (ran >= 0 && stat(names[i], &st) == 0 && S_ISREG(st.st_mode))
            ran = run_file(names[i]) == 0 ? ran + 1 : -1;
        free(names[i]);
    }
    free(names);
    return ran;
}

int main(int argc, char **argv)
{
    long total = 0;
    struct stat st;

    /* The environment's locale: CI replays under LC_ALL=de_DE.UTF-8 too. */
    setlocale(LC_ALL, "");
    if (argc < 2) {
        fprintf(stderr, "usage: %s PATH...\n", argv[0]);
        return 1;
    }
    for (int i = 1; i < argc; i++) {
        long ran;

        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "fuzz_replay: no such file or folder: %s\n", argv[i]);
            return 1;
        }
        ran = S_ISDIR(st.st_mode) ? run_dir(argv[i]) : (run_file(argv[i]) == 0 ? 1 : -1);
        if (ran < 0)
            return 1;
        total += ran;
    }
    printf("fuzz_replay: %ld inputs ran\n", total);
    /* A replay of nothing proves nothing: a missing corpus is an error. */
    return total > 0 ? 0 : 1;
}
