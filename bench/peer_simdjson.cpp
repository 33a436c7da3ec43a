/* SPDX-License-Identifier: MPL-2.0 */
/* simdjson-ondemand-map: simdjson's On-Demand API walked into ctg structs (peer.h), checking
 * JSON types and rejecting unknown fields as ctg's reader does. The bench's one C++ file,
 * behind the C interface of peer.h. On-Demand is header code compiled into this file: its
 * kernel is the one this file's flags select (CMake builds it with -march=native where the
 * compiler takes it), not one picked at run time as simdjson's DOM parser does. */

#include <cstring>
#include <new>
#include <string_view>

#include <simdjson.h>

#include "peer.h"

namespace od = simdjson::ondemand;

namespace
{

bool keep(bench_peer *p, size_t *to, std::string_view s)
{
    if ((*to = bench_peer_keep(p, s.data(), s.size())) == 0)
        return bench_peer_fail(p, "out of memory");
    return true;
}

/* A string member that PowSyBl reads as absent when it is not a string. */
bool keep_optional(bench_peer *p, size_t *to, od::value v)
{
    if (v.type() != od::json_type::string)
        return true;
    return keep(p, to, v.get_string().value());
}

bool map_element(bench_peer *p, od::object obj)
{
    bench_peer_element *e = bench_peer_element_add(p);

    if (e == nullptr)
        return bench_peer_fail(p, "out of memory");
    for (auto field : obj) {
        std::string_view key = field.unescaped_key().value();
        if (key == "id") {
            if (!keep(p, &e->id, field.value().get_string().value()))
                return false;
        } else if (key == "type") {
            std::string_view t = field.value().get_string().value();
            if (!bench_peer_element_type(p, e, t.data(), t.size()))
                return false;
        } else if (key == "voltageLevelId") {
            if (!keep_optional(p, &e->voltage_level_id, field.value()))
                return false;
        } else {
            return bench_peer_fail(p, "unexpected field %.*s", (int)key.size(), key.data());
        }
    }
    return bench_peer_element_end(p, e);
}

bool map_contingency(bench_peer *p, od::object obj)
{
    for (auto field : obj) {
        std::string_view key = field.unescaped_key().value();
        if (key == "id") {
            if (!keep(p, &p->id, field.value().get_string().value()))
                return false;
        } else if (key == "name") {
            if (!keep_optional(p, &p->name, field.value()))
                return false;
        } else if (key == "elements") {
            for (auto element : field.value().get_array()) {
                if (!map_element(p, element.get_object()))
                    return false;
            }
        } else if (key == "extensions") {
            p->unsupported = 1;
            return bench_peer_fail(p, "the public builders cannot attach extensions");
        } else {
            return bench_peer_fail(p, "unexpected field %.*s", (int)key.size(), key.data());
        }
    }
    return bench_peer_contingency_end(p);
}

bool map_root(bench_peer *p, od::object root)
{
    for (auto field : root) {
        std::string_view key = field.unescaped_key().value();
        if (key == "type") {
            std::string_view t = field.value().get_string().value();
            if (!bench_peer_type(p, t.data(), t.size()))
                return false;
        } else if (key == "name") {
            std::string_view n = field.value().get_string().value();
            if (!bench_peer_list(p, n.data(), n.size()))
                return false;
        } else if (key == "version") {
            /* not kept: On-Demand skips a value not asked for */
        } else if (key == "contingencies") {
            for (auto c : field.value().get_array()) {
                if (!map_contingency(p, c.get_object()))
                    return false;
            }
        } else {
            return bench_peer_fail(p, "unexpected field %.*s", (int)key.size(), key.data());
        }
    }
    return true;
}

bool map_document(bench_peer *p, od::parser &parser, simdjson::padded_string_view input)
{
    od::document doc = parser.iterate(input);

    if (!map_root(p, doc.get_object()))
        return false;
    /* simdjson 3.0's On-Demand document cannot tell whether bytes follow the root */
    if (p->list == nullptr)
        return bench_peer_fail(p, "simdjson: no list name");
    return true;
}

} // namespace

extern "C" int bench_simdjson_map(bench_peer *p, const char *data, size_t len, size_t cap)
{
    try {
        od::parser parser;
        if (cap >= len + simdjson::SIMDJSON_PADDING)
            return map_document(p, parser, simdjson::padded_string_view(data, len, cap));
        simdjson::padded_string copy(data, len);
        return map_document(p, parser, copy);
    } catch (const simdjson::simdjson_error &e) {
        return bench_peer_fail(p, "simdjson: %s", e.what());
    } catch (const std::bad_alloc &) {
        return bench_peer_fail(p, "simdjson: out of memory");
    }
}

extern "C" const char *bench_simdjson_kernel(void)
{
    return simdjson::builtin_implementation()->name().c_str();
}
