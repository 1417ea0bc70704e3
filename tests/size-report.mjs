// Bundle size report for the built site.
//
// Walks ../dist (or the folder given as the first argument), prints the raw
// and gzipped (zlib level 9) sizes of every file (wasm, JS, CSS and the rest:
// the page, the service worker, the icon) and their total, and exits 1 when
// the gzipped total exceeds `total_gzip_kb` from size-budget.json. The total
// is what a visit downloads before the explorer works, the same sum
// tests/budgets.mjs reports. The page fragments (pages/: the model page and
// the tour's words and numbers) are fetched when those views open, and by
// the service worker in the background for the offline copy: they are
// listed apart, with the sum that includes them.

import { readdir, readFile } from 'node:fs/promises';
import { extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync, constants } from 'node:zlib';

const here = fileURLToPath(new URL('.', import.meta.url));
const dist = resolve(process.argv[2] || join(here, '..', 'dist'));
const budgetFile = join(here, 'size-budget.json');

const SINGLE_FILE = 'scalescope.html';
const KINDS = { '.wasm': 'wasm', '.js': 'js', '.mjs': 'js', '.css': 'css' };

async function walk(dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await walk(full)));
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

const kb = (bytes) => (bytes / 1024).toFixed(1);

async function main() {
  const budget = JSON.parse(await readFile(budgetFile, 'utf8'));
  const limitKb = Number(budget.total_gzip_kb);
  if (!Number.isFinite(limitKb) || limitKb <= 0) {
    throw new Error(`${budgetFile}: total_gzip_kb must be a positive number`);
  }

  let files;
  try {
    files = await walk(dist);
  } catch (err) {
    console.error(`size report: cannot read ${dist}: ${err.message} (run trunk build first)`);
    process.exit(1);
  }

  // The one-file copy for offline use (scripts/classroom.py) is a download
  // of its own, reported apart: a visit to the site never loads it.
  const single = files.find((f) => relative(dist, f) === SINGLE_FILE);
  const fragments = files.filter((f) => relative(dist, f).startsWith(`pages${sep}`));
  files = files.filter((f) => f !== single && !fragments.includes(f));
  const rows = [];
  for (const file of files.sort()) {
    const kind = KINDS[extname(file).toLowerCase()] || 'other';
    const data = await readFile(file);
    const gz = gzipSync(data, { level: constants.Z_BEST_COMPRESSION }).length;
    rows.push({ kind, name: relative(dist, file), raw: data.length, gz });
  }
  if (!rows.some((r) => r.kind === 'wasm')) {
    console.error(`size report: no .wasm file in ${dist}`);
    process.exit(1);
  }

  const sum = (list, key) => list.reduce((a, r) => a + r[key], 0);
  const table = [];
  for (const r of rows) table.push([r.kind, r.name, kb(r.raw), kb(r.gz)]);
  table.push(['', '', '', '']);
  for (const kind of ['wasm', 'js', 'css', 'other']) {
    const of = rows.filter((r) => r.kind === kind);
    table.push([kind, `(${of.length} file${of.length === 1 ? '' : 's'})`, kb(sum(of, 'raw')), kb(sum(of, 'gz'))]);
  }
  const totalRaw = sum(rows, 'raw');
  const totalGz = sum(rows, 'gz');
  table.push(['total', '', kb(totalRaw), kb(totalGz)]);

  const header = ['kind', 'file', 'raw KiB', 'gzip KiB'];
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
  const fmt = (row) =>
    row.map((c, i) => (i >= 2 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ').trimEnd();
  console.log(`Size report for ${relative(process.cwd(), dist) || '.'} (gzip level 9)`);
  console.log(fmt(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of table) console.log(row[0] === '' ? '' : fmt(row));

  let fragmentsGz = 0;
  for (const file of fragments.sort()) {
    const data = await readFile(file);
    const gz = gzipSync(data, { level: constants.Z_BEST_COMPRESSION }).length;
    fragmentsGz += gz;
    console.log(`fragment ${relative(dist, file)} (fetched when its view opens): ${kb(data.length)} KiB raw, ${kb(gz)} KiB gzipped, not in the total`);
  }
  if (fragments.length) {
    console.log(`total with the fragments: ${kb(totalGz + fragmentsGz)} KiB gzipped`);
  }
  if (single) {
    const data = await readFile(single);
    const gz = gzipSync(data, { level: constants.Z_BEST_COMPRESSION }).length;
    console.log(`one-file copy ${SINGLE_FILE} (make classroom): ${kb(data.length)} KiB raw, ${kb(gz)} KiB gzipped, not in the total`);
  }
  const totalKb = totalGz / 1024;
  if (totalKb > limitKb) {
    console.error(`size budget EXCEEDED: ${totalKb.toFixed(1)} KiB gzipped > ${limitKb} KiB (tests/size-budget.json)`);
    process.exit(1);
  }
  console.log(`size budget ok: ${totalKb.toFixed(1)} KiB gzipped <= ${limitKb} KiB (tests/size-budget.json)`);
}

main().catch((err) => {
  console.error(`size report failed: ${err.stack || err}`);
  process.exit(1);
});
