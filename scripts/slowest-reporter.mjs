// A node:test reporter (scripts/e2e.mjs adds it beside the default one): collects every test's
// duration and, when the run ends, prints the ten slowest with their files, slowest first, then the
// ten slowest files, for the suite's time table (issue 46). It prints nothing else.
import { relative } from 'node:path';

const TOP = 10;

/** node:test custom reporter: an async generator over the run's events, yielding text. */
export default async function* slowest(source) {
  const tests = [];
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const d = event.data;
    if (d.nesting !== 0 || !d.details || typeof d.details.duration_ms !== 'number' || !d.file) continue;
    tests.push({ ms: d.details.duration_ms, name: d.name, file: relative(process.cwd(), d.file), failed: event.type === 'test:fail' });
  }
  // A file's own top-level entry (the file as a whole) has the file's path as its name.
  const shown = tests.filter((t) => !t.name.endsWith('.mjs')).sort((a, b) => b.ms - a.ms).slice(0, TOP);
  if (!shown.length) return;
  yield `\n== the ${shown.length} slowest browser tests\n`;
  for (const t of shown) yield `${(t.ms / 1000).toFixed(1).padStart(7)} s  ${t.file}: ${t.name.slice(0, 100)}${t.failed ? '  (failed)' : ''}\n`;
  // Each file's tests added up (a file runs its tests one after another; files run side by side).
  const perFile = new Map();
  for (const t of tests) if (!t.name.endsWith('.mjs')) perFile.set(t.file, (perFile.get(t.file) ?? 0) + t.ms);
  const files = [...perFile].sort((a, b) => b[1] - a[1]).slice(0, TOP);
  yield `== the ${files.length} slowest browser test files (their tests' times added up)\n`;
  for (const [file, ms] of files) yield `${(ms / 1000).toFixed(1).padStart(7)} s  ${file}\n`;
}
