/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_TESTS_NET_GOLDEN_H
#define CTG_TESTS_NET_GOLDEN_H

/* Comparing an equipment table with a golden of ../shared/testdata/iidm-golden (what
 * PowSyBl's reader built from the same file), for the suites of the table and the importers.
 *
 * Compared: everything the evaluation uses, as ctg_network_write_json writes it: `ok`, the
 * network's id, `counts`, `objects` per type in enumeration order (every object's id, type,
 * name, aliases, properties, subnetwork and placement: voltage levels, substation, boundary
 * lines, converter stations, HVDC line, converter kind, tie line and `paired`, country,
 * nominal voltage, topology kind, each voltage level's connectables and their types in
 * order, its bus-breaker buses or calculated buses, a substation's voltage levels, the
 * root's subnetworks), `buses`, `identifiables`, `aliasToId` and `subnetworks`.
 *
 * Ignored, as the table does not hold them: the golden's provenance (file, format,
 * iidmVersion, namespace, powsyblCommit, entryPoint, the *Order notes, notEnumerable,
 * networkRead, importLog), the network's name, sourceFormat, caseDate, forecastDistance and
 * validationLevel; per object `extensions`, a substation's `tso` and `geographicalTags`, a
 * switch's `kind` and `open`, `pairingKey`, an alias's `aliasType`, an area's `areaType` and
 * `voltageLevels`, an overload management system's `monitoredElementId`, DC objects'
 * `dcNode`, `dcNode1`, `dcNode2` and a DC node's `nominalV`, and the `name` of NETWORK
 * objects (PowSyBl gives a network without one its id). */

#include <stdbool.h>
#include <stddef.h>

#include "ctg/iidm.h"
#include "ctg/network.h"

/* Whether `net` matches the golden at `golden_path` (an `ok` one). When not, `diff` (`size`
 * bytes) gets the first difference in one line, as
 *     objects/VOLTAGE_LEVEL[1]/connectables[2]: expected "X", got "Y"
 * ("got nothing" for a member or item missing from the table, "expected nothing" for one the
 * golden lacks), or why the comparison could not run (unreadable golden, failed write). */
bool ctg_test_net_matches_golden(const ctg_network *net, const char *golden_path, char *diff,
                                 size_t diff_size);

/* The table a golden describes, built with the public builders: every object of `objects`
 * (subnetworks, substations, voltage levels, buses in their voltage levels' order, the other
 * types with tie lines and HVDC lines last, each connectable's order in a voltage level
 * taken from its position in that level's `connectables`), then calculated buses, aliases
 * and properties. Per type, objects are added in the golden's enumeration order, so the
 * table's document order is not the file's across types. NULL, with why in `why` (`size`
 * bytes), when the golden cannot be read or a builder refuses something. The caller frees
 * the network. */
ctg_network *ctg_test_net_from_golden(const char *golden_path, char *why, size_t size);

/* ctg_iidm_read of the NUL-terminated document `text` (ctg_source_buffer), or of the file at
 * `path` (ctg_source_path); `o` may be NULL. Returns its status. */
int ctg_test_read_net(ctg_network **net, const char *text, const ctg_iidm_read_options *o,
                      ctg_error *err);
int ctg_test_read_net_path(ctg_network **net, const char *path, const ctg_iidm_read_options *o,
                           ctg_error *err);

/* A spec of `type` (CTG_NET_SPEC_INIT otherwise) standing in the voltage levels `vl1`..`vl3`
 * (NULL for fewer); the strings are borrowed. */
ctg_net_spec ctg_test_spec(ctg_identifiable_type type, const char *id, const char *vl1,
                           const char *vl2, const char *vl3);

/* A VOLTAGE_LEVEL spec in `substation` (NULL for none); the strings are borrowed. */
ctg_net_spec ctg_test_vl_spec(const char *id, const char *substation, double nominal_v,
                              ctg_topology_kind topology);

/* PowSyBl's eurostag tutorial, example 1 (V1_0/eurostag-tutorial-example1.xml, and
 * ../shared/testdata/resolve/eurostag.xiidm), object by object in the file's document order:
 * CTG_TEST_EUROSTAG_COUNT objects below the root "sim1". */
#define CTG_TEST_EUROSTAG_COUNT 16

/* Object `i` (< CTG_TEST_EUROSTAG_COUNT) of the eurostag example; its strings are static. */
ctg_net_spec ctg_test_eurostag_spec(size_t i);

#endif
