// SPDX-License-Identifier: MPL-2.0
// The one C++ file of ctg: RE2 behind the C interface of network/regex.h.
//
// Nothing may throw across the C boundary. RE2 itself does not throw (errors are reported
// through ok() and error()), and the one object allocated here is created with new
// (std::nothrow) inside memory from ctg's hooks. RE2's own allocations (the parsed program,
// the DFA caches, std::string copies) go through the C++ runtime's operator new: the noted
// exception to the rule that every allocation passes through the allocator hooks. If such an
// allocation fails, operator new throws std::bad_alloc; the catch below turns that into a
// failed compile rather than letting it cross into C.

#include "network/regex.h"

#include <cstdint>
#include <cstring>
#include <new>

#include <re2/re2.h>

extern "C" {
#include "base/alloc.h"
}

struct ctg_regex {
    const ctg_allocator *alloc; // the hooks the wrapper came from (borrowed: they outlive it)
    RE2 *re;                    // in the same block, right after this struct
};

namespace {

void put_error(char *errbuf, size_t errsize, const char *msg, size_t len)
{
    if (errbuf == nullptr || errsize == 0)
        return;
    if (len >= errsize)
        len = errsize - 1;
    std::memcpy(errbuf, msg, len);
    errbuf[len] = '\0';
}

// The RE2 object, built in `room`; its error text copied out when the pattern is invalid.
RE2 *build(void *room, const char *pattern, size_t len, char *errbuf, size_t errsize)
{
    RE2::Options options;
    options.set_log_errors(false);
    options.set_encoding(RE2::Options::EncodingUTF8);
    RE2 *re = new (room) RE2(re2::StringPiece(pattern, len), options);
    if (!re->ok()) {
        const std::string &why = re->error();
        put_error(errbuf, errsize, why.data(), why.size());
        re->~RE2();
        return nullptr;
    }
    return re;
}

} // namespace

extern "C" ctg_regex *ctg_regex_compile(const char *pattern, size_t len, const ctg_allocator *a,
                                        char *errbuf, size_t errsize)
{
    static const char oom[] = "out of memory";
    size_t size = sizeof(ctg_regex) + sizeof(RE2) + alignof(RE2);
    void *block = ctg_mem_alloc(a, size);
    if (block == nullptr) {
        put_error(errbuf, errsize, oom, sizeof oom - 1);
        return nullptr;
    }
    ctg_regex *wrap = new (block) ctg_regex;
    wrap->alloc = a;
    char *room = static_cast<char *>(block) + sizeof(ctg_regex);
    size_t pad = (alignof(RE2) - reinterpret_cast<uintptr_t>(room) % alignof(RE2)) % alignof(RE2);
    try {
        wrap->re = build(room + pad, pattern == nullptr ? "" : pattern, len, errbuf, errsize);
    } catch (...) {
        wrap->re = nullptr;
        put_error(errbuf, errsize, oom, sizeof oom - 1);
    }
    if (wrap->re == nullptr) {
        ctg_mem_release(a, block, size);
        return nullptr;
    }
    return wrap;
}

extern "C" bool ctg_regex_find(const ctg_regex *re, const char *s, size_t len)
{
    // PartialMatch allocates nothing for a pattern without captures on the paths that
    // matter here; should the runtime still throw, no match is the answer that stops nothing.
    try {
        return RE2::PartialMatch(re2::StringPiece(s, len), *re->re);
    } catch (...) {
        return false;
    }
}

extern "C" void ctg_regex_free(ctg_regex *re)
{
    if (re == nullptr)
        return;
    const ctg_allocator *a = re->alloc;
    re->re->~RE2();
    re->~ctg_regex();
    ctg_mem_release(a, re, sizeof(ctg_regex) + sizeof(RE2) + alignof(RE2));
}
