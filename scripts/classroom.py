#!/usr/bin/env python3
"""The explorer as one HTML file, for a room with no network.

Reads the site trunk built into dist/ and writes dist-single/scalescope.html
(and a copy at dist/scalescope.html, which the served site's footer offers as
a download): the stylesheet in a <style> element, the icon as a data URL,
and one module script holding wasm-bindgen's glue, the WebAssembly gzipped
as base64 and the few lines of static/boot.js that start it from those
bytes instead of fetching them, and the page fragments of dist/pages/ (the
model page, the tour's numbers) as <template id="page-NAME"> elements the
explorer reads instead of fetching them. It opens from disk (file://) with no server and no
network. The Content-Security-Policy stays strict: the script and the style
are allowed by their SHA-256 hashes, 'wasm-unsafe-eval' lets the page
compile its own WebAssembly, and nothing else may load from anywhere.

    python3 scripts/classroom.py [dist] [out]
"""

import base64
import gzip
import hashlib
import html
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def attr(page: str, pattern: str, what: str) -> str:
    m = re.search(pattern, page)
    if not m:
        sys.exit(f"classroom: {what} not found in index.html (run make dist first)")
    return m.group(1)


def sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def main() -> None:
    dist = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "dist"
    out = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT / "dist-single" / "scalescope.html"
    index = dist / "index.html"
    if not index.is_file():
        sys.exit(f"classroom: {index} missing (run make dist first)")
    page = index.read_text()
    css = (dist / attr(page, r'rel="stylesheet" href="\./([^"]+)"', "the stylesheet")).read_text()
    icon = (dist / attr(page, r'rel="icon" href="\./([^"]+)"', "the icon")).read_bytes()
    glue = (dist / attr(page, r'data-js="\./([^"]+)"', "the glue module")).read_text()
    wasm = (dist / attr(page, r'data-wasm="\./([^"]+)"', "the WebAssembly")).read_bytes()
    if "export { initSync, __wbg_init as default };" not in glue:
        sys.exit("classroom: wasm-bindgen's glue no longer ends as expected; update scripts/classroom.py")
    if "url(" in css:
        sys.exit("classroom: the stylesheet loads a file (url(...)); inline it here first")

    # static/boot.js, with the module's bytes instead of its URL: the
    # WebAssembly is stored gzipped (a third of its size, so the file mails
    # well) and unpacked by the browser's own DecompressionStream.
    start = (
        "\n{\n"
        "  const packed = Uint8Array.from(atob(SCALESCOPE_WASM_BASE64), (c) => c.charCodeAt(0));\n"
        "  const unpacked = new Blob([packed]).stream().pipeThrough(new DecompressionStream('gzip'));\n"
        "  const bytes = await new Response(unpacked).arrayBuffer();\n"
        "  const exports = await __wbg_init({ module_or_path: bytes });\n"
        '  dispatchEvent(new CustomEvent("TrunkApplicationStarted", { detail: { wasm: exports } }));\n'
        "}\n"
    )
    script = (
        glue
        + "\nconst SCALESCOPE_WASM_BASE64 = \""
        + base64.b64encode(gzip.compress(wasm, compresslevel=9, mtime=0)).decode()
        + "\";"
        + start
    )
    if "</script" in script.lower():
        sys.exit("classroom: the script contains </script; it cannot be inlined as it is")
    csp = (
        "default-src 'none'; "
        f"script-src {sha256(script)} 'wasm-unsafe-eval'; "
        f"style-src {sha256(css)}; "
        "img-src data: blob:; object-src 'none'; base-uri 'none'; form-action 'none'"
    )
    icon_url = "data:image/svg+xml;base64," + base64.b64encode(icon).decode()
    pages = sorted((dist / "pages").glob("*.html"))
    if not pages:
        sys.exit(f"classroom: no page fragments in {dist / 'pages'} (run make dist first)")
    templates = ""
    for p in pages:
        text = p.read_text()
        if "</template" in text.lower() or "<script" in text.lower():
            sys.exit(f"classroom: {p} holds a template or a script; it cannot be inlined as it is")
        templates += f'<template id="page-{p.stem}">{text}</template>\n'
    doc = (
        "<!doctype html>\n"
        '<html lang="en">\n<head>\n'
        '<meta charset="utf-8" />\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1" />\n'
        "<!-- ScaleScope in one file: opens from disk with no server and no network. Nothing\n"
        "     may load from anywhere; the script and the style run by their hashes. -->\n"
        f'<meta http-equiv="Content-Security-Policy" content="{html.escape(csp)}" />\n'
        "<title>ScaleScope</title>\n"
        f'<link rel="icon" href="{icon_url}" />\n'
        f"<style>{css}</style>\n"
        f'<script type="module" data-single-file="1">{script}</script>\n'
        f"{templates}"
        "</head>\n<body></body>\n</html>\n"
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(doc)
    copy = dist / "scalescope.html"
    copy.write_text(doc)
    print(f"classroom: wrote {out} ({len(doc.encode()) / 1024:.1f} KiB) and {copy}")


if __name__ == "__main__":
    main()
