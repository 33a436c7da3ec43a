#!/usr/bin/env python3
# Writes the extension-heavy fuzz seeds, tests/fuzz/seeds/ext-*: deep values (at the depth
# limit and one over), many keys, duplicate keys and names, escapes and U+0000 in keys and
# strings, integers at the int64 edges and past them, doubles in every notation, empty
# containers, null, many extensions per contingency, the "typed" extension fuzz_alloc's handler
# claims, and extensions in nested lists, a bare contingency and PowSyBl's layout. Only needed
# to regenerate them; the files are committed. Usage: tests/fuzz/gen_ext_seeds.py tests/fuzz/seeds
import gzip
import json
import os
import sys

out = sys.argv[1]


def doc(exts_list, name="ext"):
    """A `default` list whose i-th contingency has the "extensions" value exts_list[i]."""
    cs = []
    for i, exts in enumerate(exts_list):
        cs.append('{"id":"c%d","elements":[{"id":"L%d","type":"LINE"}],"extensions":%s}'
                  % (i, i, exts))
    return ('{"type":"default","version":"1.1","name":"%s","contingencies":[%s]}'
            % (name, ",".join(cs)))


def put(name, text):
    data = text.encode("utf-8") if isinstance(text, str) else text
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)


def deep(levels):
    """`levels` nested arrays and objects, the innermost an array of every scalar kind."""
    s = '[1,-0.0,"s",true,false,null]'
    for i in range(levels - 1):
        s = ('{"k%d":%s}' % (i, s)) if i % 2 else ('[%s]' % s)
    return s


# depth: root object 1, contingencies 2, contingency 3, extensions 4; the value starts at 5:
# 60 levels of value make the default limit of 64 exactly, 61 one over.
put("ext-depth-64.json", doc(['{"deep":%s}' % deep(60)]))
put("ext-depth-65-over.json", doc(['{"deep":%s}' % deep(61)]))

# many keys in one object, and keys reused at different levels (allowed)
keys = ",".join('"k%03d":%d' % (i, i) for i in range(300))
put("ext-many-keys.json", doc(['{"many":{%s},"same":{"a":{"a":{"a":1}},"b":{"a":2}}}' % keys]))

# duplicates: a key in one value (refused), two extensions of one name (refused), a key that
# differs only after an escape, a duplicate deep down
put("ext-duplicate-key.json", doc(['{"e":{"a":1,"b":2,"a":3}}']))
put("ext-duplicate-name.json", doc(['{"e":1,"f":2,"e":3}']))
put("ext-duplicate-escaped.json", doc(['{"e":{"\\u0061":1,"a":2}}']))
put("ext-duplicate-deep.json", doc(['{"e":[[{"x":{"y":1,"z":2,"y":3}}]]}']))
put("ext-near-duplicates.json",
    doc(['{"e":{"a":1,"a\\u0000":2,"A":3,"a ":4,"\\u00e9":5,"e\\u0301":6}}']))

# escapes and U+0000 in keys and strings, raw UTF-8, surrogate pairs
put("ext-escapes.json", doc([
    '{"esc\\"ape\\\\s\\/\\b\\f\\n\\r\\t":"q \\" b \\\\ s \\/ b \\b f \\f n \\n r \\r t \\t",'
    '"nul":{"\\u0000":"\\u0000","a\\u0000b":"x\\u0000y\\u0000"},'
    '"ctl":"\\u0001\\u001f\\u007f","uni":"\\u00e9\\u20AC\\ud83d\\ude00 \u00e9\u20ac\U0001F600",'
    '"\u6771\u4eac":"\\uFFFF\\uFEFF","slash\\/":"a\\/b"}']))
put("ext-nul-name.json", doc(['{"a\\u0000b":1}']))
put("ext-lone-surrogate.json", doc(['{"e":"\\ud800"}']))

# integers at the int64 edges: inside, and one past each edge (refused)
put("ext-int64-edges.json", doc(['{"max":9223372036854775807,"min":-9223372036854775808,'
    '"zero":0,"neg0":-0,"one":1,"m1":-1,"i32":2147483648,"n32":-2147483649,'
    '"in":[9223372036854775806,-9223372036854775807]}']))
put("ext-int64-over.json", doc(['{"over":9223372036854775808}']))
put("ext-int64-under.json", doc(['{"under":-9223372036854775809}']))
put("ext-uint64-max.json", doc(['{"u":18446744073709551615}']))
put("ext-int-huge.json", doc(['{"h":123456789012345678901234567890}']))

# doubles in every notation
put("ext-doubles.json", doc(['{"d":[0.0,-0.0,0.5,-1.5,1e0,1E0,1e+2,1E-2,1.5e308,'
    '1.7976931348623157e308,-1.7976931348623157E+308,4.9e-324,5e-324,2.2250738585072014e-308,'
    '2.225073858507201e-308,1.0E7,9999999.0,1.0E-3,0.001,1e21,1e-7,100.0,12345.678e-3,'
    '0.1,0.2,0.30000000000000004,3.141592653589793,1e-400,123456789012345678.5,'
    '0.000000000000000000000000000001,1.00000000000000000000001]}']))
put("ext-double-overflow.json", doc(['{"d":1e309}']))
put("ext-double-neg-overflow.json", doc(['{"d":-1.8e308}']))
put("ext-bad-numbers.json", doc(['{"d":[01]}']))

# empty containers, null, empty strings, empty extension sets
put("ext-empty.json", doc(['{"o":{},"a":[],"s":"","n":null,"oo":{"":{}},"aa":[[[]]],'
    '"mix":[{},[],"",null,{"":[]}]}', '{}', '{"":null}']))
put("ext-null-extensions.json", doc(['null']))
put("ext-array-extensions.json", doc(['[]']))
put("ext-only-nulls.json", doc(['{"a":null,"b":null,"c":[null,null]}']))

# many extensions per contingency, of every type, and many contingencies with them
many = []
for i in range(120):
    v = ['null', 'true', 'false', str(i), '-%d.5' % i, '"s%d"' % i, '{}', '[]',
         '{"k":[%d,{"x":null}]}' % i, '[[%d],{}]' % i][i % 10]
    many.append('"x%03d":%s' % (i, v))
put("ext-many-per-contingency.json", doc(['{%s}' % ",".join(many)]))
put("ext-many-contingencies.json", doc(['{"e%d":{"i":%d,"v":[%d.25,"t"]}}' % (i, i, i)
                                        for i in range(150)]))

# a typed extension (fuzz_alloc's handler claims "typed") among kept ones
put("ext-typed.json", doc(['{"typed":{"a":[1,2.5,"x",null]},"kept":{"a":1}}',
                           '{"typed":null}', '{"typed":"\\u0000s"}', '{"typed":[[[[[]]]]]}']))

# a long string with escapes, within the fuzz targets' string limit of 4096 bytes
put("ext-long-string.json", doc(['{"s":"%s","k":{"%s":1}}' % ("ab\\n\\u00e9" * 400, "k" * 1000)]))

# extensions in a list of lists, in a bare contingency document, and in PowSyBl's layout
put("ext-list-of-lists.json",
    '{"type":"list","version":"1.1","name":"outer","contingencyLists":['
    '{"type":"default","name":"a","contingencies":[{"id":"c","elements":[],'
    '"extensions":{"e":{"x":[1,{"y":-2.5E-3}]}}}]},'
    '{"type":"list","name":"inner","contingencyLists":[{"type":"default","name":"b",'
    '"contingencies":[{"id":"d","elements":[{"id":"G","type":"GENERATOR"}],'
    '"extensions":{"f":[true,false,null],"typed":{"t":1}}}]}]}]}')
put("ext-bare-contingency.json",
    '{"id":"bare","elements":[{"id":"L","type":"LINE","voltageLevelId":"V"}],'
    '"extensions":{"dummy-contingency-extension":{},"e":{"a":[1e-5,"\\u0000"]}}}')
put("ext-pretty.json", json.dumps(json.loads(doc(['{"a":{"b":[1,2.5,{"c":null}]},"d":"e"}'])),
                                   indent=2, separators=(",", " : ")) + "\n")
put("ext-whitespace.json", doc([' \t\r\n{ \n"a" \t: \r[ 1 , { "b" : null } ] ,\n"c":{ } } \n']))
put("ext-before-elements.json",
    '{"type":"default","name":"order","contingencies":[{"extensions":{"e":[1]},"id":"c",'
    '"elements":[]}]}')
with open(os.path.join(out, "ext-many-keys.json"), "rb") as f:
    put("ext-many-keys.json.gz", gzip.compress(f.read(), mtime=0))
