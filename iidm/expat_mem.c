/* SPDX-License-Identifier: MPL-2.0 */
/* libexpat's memory hooks through ctg's allocator (see iidm/expat_mem.h). */

#include "iidm/expat_mem.h"

#include <stddef.h>

#include "base/alloc.h"

typedef union block_head {
    struct {
        const ctg_allocator *a;
        size_t size;
    } h;
    max_align_t align;
} block_head;

/* Per thread, so that reads on different threads do not see each other's allocator. */
static _Thread_local const ctg_allocator *current_alloc;
static _Thread_local bool alloc_failed;

void ctg_expat_use(const ctg_allocator *a)
{
    current_alloc = a;
}

void ctg_expat_reset_failed(void)
{
    alloc_failed = false;
}

bool ctg_expat_failed(void)
{
    return alloc_failed;
}

static void *xml_malloc(size_t size)
{
    size_t total;
    if (!ctg_size_add(size, sizeof(block_head), &total))
        return NULL;
    block_head *b = ctg_mem_alloc(current_alloc, total);
    if (!b) {
        alloc_failed = true;
        return NULL;
    }
    b->h.a = current_alloc;
    b->h.size = total;
    return b + 1;
}

static void xml_free(void *p)
{
    if (!p)
        return;
    block_head *b = (block_head *)p - 1;
    ctg_mem_release(b->h.a, b, b->h.size);
}

static void *xml_realloc(void *p, size_t size)
{
    if (!p)
        return xml_malloc(size);
    block_head *b = (block_head *)p - 1;
    size_t total;
    if (!ctg_size_add(size, sizeof(block_head), &total))
        return NULL;
    block_head *n = ctg_mem_resize(b->h.a, b, b->h.size, total);
    if (!n) {
        alloc_failed = true;
        return NULL;
    }
    n->h.size = total;
    return n + 1;
}

const XML_Memory_Handling_Suite ctg_expat_memory = { xml_malloc, xml_realloc, xml_free };
