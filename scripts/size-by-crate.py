#!/usr/bin/env python3
"""Sums `twiggy top -n 100000 --format csv` by crate: reads the CSV on stdin
and prints each crate's share of the wasm's code and data, largest first,
then the two workspace crates by module.

An item is counted under the first crate its name spells (a value's drop
glue under the value's type): the type's crate
for a trait method (`<scalescope_core::... as serde::Deserialize>` is the
core's), the trait's crate when the type is generic (`<T as tachys::...>`).
Generic code is counted under the crate that defines it, not the crate that
instantiates it (a `Vec<Point>` grows `alloc`, not the app). The name
section is left out: the shipped wasm has none.
"""
import collections
import csv
import re
import sys

# Standard library crates, counted together.
STD = {"core", "alloc", "std", "compiler_builtins", "dlmalloc", "panic_abort", "__rustc"}
PATH = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(?:\[[0-9a-f]+\])?::")


def crate_of(name):
    """The crate an item belongs to, or a kind for items without a path."""
    if name.startswith("data segment"):
        return "(data: strings, tables, constants)"
    if name.startswith(("export ", "import ", "type[", "table[", "elem[", "global[", "custom section", '"')):
        return "(wasm tables, types, exports, imports)"
    if "externref shim" in name or name.startswith(("__wbindgen", "__wbg", "__externref")):
        return "wasm_bindgen"
    if name.startswith("into"):  # wasm-streams' exported classes (intounderlyingsource_pull, ...)
        return "wasm_streams"
    if "{{vtable.shim}}" in name:
        return "(closure shims, any crate)"
    # Dropping a value is code for its type: count it under the type's crate.
    drop = re.match(r"core(?:\[[0-9a-f]+\])?::ptr::drop_in_place<(.*)>", name)
    if drop:
        name = drop.group(1)
    for m in PATH.finditer(name):
        crate = m.group(1)
        # `<T as Trait>`: T is a generic parameter, not a crate.
        if len(crate) <= 2 and crate[0].isupper():
            continue
        if crate in ("impl", "dyn", "mut", "const"):
            continue
        return "std (core, alloc)" if crate in STD else crate
    # Bare names: libm and compiler intrinsics (pow, memcpy, __multi3, ...).
    return "std (core, alloc)"


WORKSPACE = re.compile(r"(scalescope_(?:app|core)::[a-z_0-9]+)")


def short(name):
    """A name without hashes, cut to 70 characters."""
    name = re.sub(r"::h[0-9a-f]{16}$", "", re.sub(r"\[[0-9a-f]+\]", "", name))
    return name if len(name) <= 70 else name[:67] + "..."


def main():
    rows = csv.DictReader(sys.stdin)
    by_crate = collections.Counter()
    by_module = collections.Counter()
    biggest = {}
    for row in rows:
        name = row["Name"]
        if name.endswith("subsection"):
            continue
        size = int(row["ShallowSize"])
        crate = crate_of(name)
        by_crate[crate] += size
        if size > biggest.get(crate, (0, ""))[0]:
            biggest[crate] = (size, name)
        module = WORKSPACE.search(name)
        if crate.startswith("scalescope_") and module:
            by_module[module.group(1)] += size
    total = sum(by_crate.values())
    print(f"{'crate':<40} {'bytes':>9} {'share':>7}  largest item")
    for crate, size in by_crate.most_common():
        print(f"{crate:<40} {size:>9} {size / total:>7.1%}  {short(biggest[crate][1])}")
    print(f"{'total (without the name section)':<40} {total:>9}")
    print()
    print(f"{'workspace module':<40} {'bytes':>9} {'share':>7}")
    for module, size in by_module.most_common():
        print(f"{module:<40} {size:>9} {size / total:>7.1%}")


if __name__ == "__main__":
    main()
