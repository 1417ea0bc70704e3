#!/usr/bin/env python3
"""Checks the house rules a newcomer relies on: no function in core/src or
app/src over 120 lines, and no file over 600 lines unless the file says why
in a line starting `//! Long file:`.

A function runs from its `fn` line to the closing brace at the same
indentation; test functions count like any other.
"""
import pathlib
import re
import sys

MAX_FN = 120
MAX_FILE = 600
FN = re.compile(r"^(\s*)(pub(\([^)]*\))?\s+)?(const\s+)?(unsafe\s+)?(extern\s+\"C\"\s+)?fn\s+(\w+)")


def functions(lines):
    """Yields (name, first line, length) of every function with a body."""
    for i, line in enumerate(lines):
        m = FN.match(line)
        if not m:
            continue
        indent = m.group(1)
        # A declaration without a body (a trait method) ends with `;`.
        j = i
        while j < len(lines) and "{" not in lines[j] and not lines[j].rstrip().endswith(";"):
            j += 1
        if j >= len(lines) or "{" not in lines[j]:
            continue
        if lines[j].rstrip().endswith("}") and lines[j].count("{") == lines[j].count("}"):
            yield m.group(7), i + 1, j - i + 1
            continue
        close = re.compile("^" + re.escape(indent) + r"\}")
        for k in range(j + 1, len(lines)):
            if close.match(lines[k]):
                yield m.group(7), i + 1, k - i + 1
                break


def main():
    root = pathlib.Path(__file__).resolve().parent.parent
    problems = []
    for path in sorted(list((root / "core/src").rglob("*.rs")) + list((root / "app/src").rglob("*.rs"))):
        rel = path.relative_to(root)
        lines = path.read_text().splitlines()
        if len(lines) > MAX_FILE and not any(l.startswith("//! Long file:") for l in lines):
            problems.append(f"{rel}: {len(lines)} lines (over {MAX_FILE}, and no `//! Long file:` reason)")
        for name, at, length in functions(lines):
            if length > MAX_FN:
                problems.append(f"{rel}:{at}: fn {name} is {length} lines (over {MAX_FN})")
    for p in problems:
        print(p)
    if problems:
        print(f"house: {len(problems)} problem(s)")
        return 1
    print(f"house: every function within {MAX_FN} lines, every file within {MAX_FILE} or with its reason")
    return 0


if __name__ == "__main__":
    sys.exit(main())
