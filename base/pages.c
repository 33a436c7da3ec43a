/* SPDX-License-Identifier: MPL-2.0 */
#define _DEFAULT_SOURCE /* madvise */

#include "base/pages.h"

#include <stdint.h>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
bool ctg_pages_populate(void *lo, void *hi)
{
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t mask, from, to;

    if ((size_t)((char *)hi - (char *)lo) < CTG_PAGES_POPULATE_MIN)
        return true;
    if (page <= 0 || ((unsigned long)page & ((unsigned long)page - 1)) != 0)
        return false;
    /* Only pages wholly inside the range: a page shared with a neighbour of another owner
     * faults in as it always did. */
    mask = (uintptr_t)page - 1;
    from = ((uintptr_t)lo + mask) & ~mask;
    to = (uintptr_t)hi & ~mask;
    if (to <= from)
        return true;
    /* EINVAL from a kernel without the advice, or anything else: the pages fault in one by
     * one as before, and the caller stops asking. */
    return madvise((void *)from, to - from, MADV_POPULATE_WRITE) == 0;
}
#endif

#if defined(__linux__) && defined(MADV_HUGEPAGE)
/* x86-64's and arm64's (4 KiB granule) huge page; elsewhere the advice still applies to the
 * range, which is then only less aligned than it could be. */
#define HUGE_PAGE ((uintptr_t)2 * 1024 * 1024)

void ctg_pages_huge_whole(void *lo, void *hi)
{
    uintptr_t from = ((uintptr_t)lo + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    uintptr_t to = (uintptr_t)hi & ~(HUGE_PAGE - 1);

    if (to > from)
        (void)madvise((void *)from, to - from, MADV_HUGEPAGE);
}

void ctg_pages_huge(void *lo, void *hi)
{
    if ((size_t)((char *)hi - (char *)lo) >= CTG_PAGES_HUGE_MIN)
        ctg_pages_huge_whole(lo, hi);
}

size_t ctg_pages_huge_size(void)
{
#if UINTPTR_MAX > 0xffffffffu
    return (size_t)HUGE_PAGE;
#else
    return 0;
#endif
}
#else
size_t ctg_pages_huge_size(void)
{
    return 0;
}

void ctg_pages_huge_whole(void *lo, void *hi)
{
    (void)lo;
    (void)hi;
}

void ctg_pages_huge(void *lo, void *hi)
{
    (void)lo;
    (void)hi;
}
#endif

#if !defined(__linux__) || !defined(MADV_POPULATE_WRITE)
bool ctg_pages_populate(void *lo, void *hi)
{
    (void)lo;
    (void)hi;
    return false;
}
#endif
