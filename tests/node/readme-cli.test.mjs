// The README's command-line example is what the CLI prints: the command after "$ " in its sh
// block is run from the repository's root and its output compared line by line with the block.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { ROOT, cliAvailable } from './helpers.mjs';

// The README's sh blocks that start with "$ build/native/attnx": [{ command, output: [lines] }].
function examples(markdown) {
  const blocks = [...markdown.matchAll(/```sh\n\$ (build\/native\/attnx[^\n]*)\n([^]*?)```/g)];
  return blocks.map((m) => ({ command: m[1], output: m[2].trimEnd().split('\n') }));
}

test("the README's command-line example prints what the README shows", (t) => {
  if (!cliAvailable()) return t.skip('build/native/attnx is not built');
  const found = examples(readFileSync(`${ROOT}README.md`, 'utf8'));
  assert.equal(found.length, 1, 'the README has its example');
  for (const { command, output } of found) {
    const printed = execFileSync('sh', ['-c', command], { cwd: ROOT, encoding: 'utf8' }).trimEnd().split('\n');
    assert.deepEqual(printed, output, command);
  }
});
