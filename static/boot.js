// Starts the explorer: loads the wasm-bindgen module and its WebAssembly.
// A file rather than an inline script, so the Content-Security-Policy can
// forbid inline scripts. The file names come from the script tag's data
// attributes, written by the build (they carry content hashes).
const tag = document.querySelector("script[data-wasm]");
const base = document.baseURI;
const { default: init } = await import(new URL(tag.dataset.js, base).href);
const wasm = await init({ module_or_path: new URL(tag.dataset.wasm, base).href });
// The same event trunk's own loader sends (the budget script reads the
// module's memory from it).
dispatchEvent(new CustomEvent("TrunkApplicationStarted", { detail: { wasm } }));
