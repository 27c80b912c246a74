// web/explorer/link.js: when the page's link reaches the URL. Changes are written URL_WRITE_MS
// after the last of them, once (a drag of the d slider writes when it pauses), with the last
// state; href() is the newest link at once; flush() (on pagehide) writes a pending link now; the
// visitor's own hash (read()) cancels a write not yet made; the link is written as the document's
// own address with the new hash, also in a frame made from text (about:srcdoc, a notebook's
// output), whose relative addresses resolve against its parent's. The page's timers are
// node:test's mock timers: time moves only when a test ticks it.
import { test, before, beforeEach } from 'node:test';
import assert from 'node:assert/strict';

import { load } from '../../web/lib/attnx.js';
import { defaults, toHash } from '../../web/common/hashstate.js';
import { explorerTable } from '../../web/explorer/state.js';
import { LinkState, URL_WRITE_MS } from '../../web/explorer/link.js';
import { requireBuilds } from './helpers.mjs';

let schema, table, writes;

before(async () => {
  requireBuilds();
  schema = (await load()).schema();
  table = explorerTable(schema);
});

// A location and history standing in for the browser's: every replaceState is recorded.
beforeEach(() => {
  writes = [];
  globalThis.location = {
    origin: 'https://x.test', pathname: '/attnx/', search: '', hash: '',
    get href() { return `${this.origin}${this.pathname}${this.search}${this.hash}`; },
  };
  globalThis.history = {
    replaceState(_s, _t, url) {
      writes.push(url);
      location.hash = url.slice(url.indexOf('#'));
    },
  };
});

function newLink() {
  const status = { setMessages() {} };
  const tools = { reset() {} };
  return new LinkState({ schema, table, status, getTools: () => tools, onRead() {}, onWritten() {} });
}

const hashOf = (st) => toHash(table, st, { page: 'explorer', schema });

test('a burst of changes reaches the URL once, with its last state, when it pauses', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const link = newLink();
  for (const d of [64, 65, 67, 70, 74, 79]) link.write({ ...defaults(table), d });
  const last = hashOf({ ...defaults(table), d: 79 });
  assert.deepEqual(writes, []);
  assert.equal(link.href(), `https://x.test/attnx/${last}`);  // Copy link gives the newest at once
  t.mock.timers.tick(URL_WRITE_MS + 100);
  assert.deepEqual(writes, [`https://x.test/attnx/${last}`]);
});

test('the write waits for URL_WRITE_MS without a change, however long the burst', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const link = newLink();
  const gap = URL_WRITE_MS * 0.6;
  link.write({ ...defaults(table), d: 100 });
  t.mock.timers.tick(gap);
  link.write({ ...defaults(table), d: 200 });
  t.mock.timers.tick(gap);
  link.write({ ...defaults(table), d: 300 });
  t.mock.timers.tick(gap);  // 1.8 URL_WRITE_MS after the first change, 0.6 after the last
  assert.deepEqual(writes, []);
  t.mock.timers.tick(URL_WRITE_MS);
  assert.deepEqual(writes, [`https://x.test/attnx/${hashOf({ ...defaults(table), d: 300 })}`]);
});

test('a single change reaches the URL after URL_WRITE_MS', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const link = newLink();
  const st = { ...defaults(table), d: 300 };
  link.write(st);
  t.mock.timers.tick(URL_WRITE_MS + 100);
  assert.deepEqual(writes, [`https://x.test/attnx/${hashOf(st)}`]);
});

test('flush() writes a pending link now; nothing is written twice', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const link = newLink();
  link.write({ ...defaults(table), d: 100 });
  link.write({ ...defaults(table), d: 200 });
  link.flush();
  assert.equal(writes.length, 1);
  assert.equal(location.hash, hashOf({ ...defaults(table), d: 200 }));
  t.mock.timers.tick(URL_WRITE_MS + 100);
  assert.equal(writes.length, 1);
});

test('a pending write never replaces a link the visitor opened whose hashchange is not handled yet', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const link = newLink();
  link.read();  // the page reads its link at load
  link.write({ ...defaults(table), d: 100 });
  location.hash = '#v=2&L=128';  // navigated; its hashchange comes later
  link.flush();
  assert.deepEqual(writes, []);
  // An element id ("#figures", an anchor) is no link: the page's link replaces it.
  link.write({ ...defaults(table), d: 200 });
  link.read();
  link.write({ ...defaults(table), d: 300 });
  location.hash = '#figures';
  link.flush();
  assert.deepEqual(writes, [`https://x.test/attnx/${hashOf({ ...defaults(table), d: 300 })}`]);
});

test('in a frame made from text (about:srcdoc) the link is the frame\'s own address with the hash', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  globalThis.location = {
    origin: 'null', pathname: 'srcdoc', search: '', hash: '',
    get href() { return `about:srcdoc${this.hash}`; },
  };
  const link = newLink();
  const st = { ...defaults(table), d: 300 };
  link.write(st);
  assert.equal(link.href(), `about:srcdoc${hashOf(st)}`);
  t.mock.timers.tick(URL_WRITE_MS + 100);
  assert.deepEqual(writes, [`about:srcdoc${hashOf(st)}`]);
});

test('a link the visitor opens cancels a write not yet made', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const link = newLink();
  link.write({ ...defaults(table), d: 100 });
  link.write({ ...defaults(table), d: 200 });
  location.hash = '#v=2&L=64';
  link.read();
  t.mock.timers.tick(URL_WRITE_MS + 100);
  assert.deepEqual(writes, []);
  assert.equal(location.hash, '#v=2&L=64');
});

test('an imported head\'s link names its layer, rule and softmax even at their defaults; no head, none of them', () => {
  const st = defaults(table);
  const none = new URLSearchParams(hashOf(st).slice(1));
  for (const k of ['layer', 'head', 'rule', 'softmax']) assert.equal(none.has(k), false, `no head: ${k} left out`);
  const withHead = new URLSearchParams(hashOf({ ...st, head: 0 }).slice(1));
  assert.equal(withHead.get('head'), '0');
  assert.equal(withHead.get('layer'), String(schema.options.layer.default));
  assert.equal(withHead.get('rule'), schema.options.rule.default);
  assert.equal(withHead.get('softmax'), schema.options.softmax.default ? '1' : '0');
});
