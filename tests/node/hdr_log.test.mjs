// flashmark's HdrHistogram interval log read by HdrHistogram's own
// JavaScript implementation (hdr-histogram-js, web/node_modules): every
// interval's IO count equals flashmark's, and the percentiles agree with
// the ones flashmark computes from its own histograms within the two
// layouts' resolution (0.1 % for HdrHistogram at 3 digits, 0.1 % ours).
//
//   FLASHMARK=build/flashmark node --test tests/node/hdr_log.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const webDir = join(root, 'web');
const FLASHMARK = process.env.FLASHMARK || join(root, 'build', 'flashmark');
const skip = existsSync(join(webDir, 'node_modules', 'hdr-histogram-js', 'package.json'))
  ? false : 'web/node_modules/hdr-histogram-js is missing (run scripts/setup.sh, or npm ci --prefix web)';
if (skip) console.log(`# skipping: ${skip}`);

function flashmark(args) {
  const r = spawnSync(FLASHMARK, args, { encoding: 'utf8', timeout: 60_000, maxBuffer: 64 << 20 });
  assert.equal(r.status, 0, `flashmark ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

test('HdrHistogram reads every interval of the log', { skip }, () => {
  const hdr = createRequire(join(webDir, 'package.json'))('hdr-histogram-js');
  const work = mkdtempSync(join(tmpdir(), 'flashmark-hdr-'));
  try {
    const db = join(work, 'runs.db');
    flashmark(['run', '--engine', 'null', '--mode', 'randrw', '--rate', '20000', '--time', '2s',
      '--interval', '250ms', '-q', '--db', db]);
    const doc = JSON.parse(flashmark(['export', '1', '--format', 'json', '--db', db]));
    const log = flashmark(['export', '1', '--format', 'hdr', '--db', db]);
    const reader = new hdr.HistogramLogReader(log);
    const read = [];
    for (let h = reader.nextIntervalHistogram(); h !== null; h = reader.nextIntervalHistogram()) read.push(h);
    const expected = [];
    // (An interval's histogram and its IO counter are read a moment apart
    // while IOs go on: the histogram's own count is the one to match.)
    for (const interval of doc.intervals) {
      for (const tag of ['read', 'write']) {
        const ios = interval.latency[tag].c.reduce((a, b) => a + b, 0);
        if (ios > 0) expected.push({ tag, ios, start: interval.start });
      }
    }
    assert.equal(read.length, expected.length, 'one histogram per interval and direction');
    const total = hdr.build({ numberOfSignificantValueDigits: 3 });
    read.forEach((h, k) => {
      assert.equal(h.tag, expected[k].tag);
      assert.equal(h.totalCount, expected[k].ios, `interval ${k}: the histogram's IO count`);
      const startMs = Math.round(doc.start_unix_ns / 1e6 + expected[k].start * 1000);
      assert.ok(Math.abs(h.startTimeStampMsec - startMs) <= 1, `interval ${k}: starts at ${h.startTimeStampMsec}`);
      total.add(h);
    });
    const ours = doc.summary.latency;
    for (const [p, key] of [[50, 'p50_ns'], [99, 'p99_ns'], [99.9, 'p99.9_ns']]) {
      const theirs = total.getValueAtPercentile(p);
      assert.ok(Math.abs(theirs - ours[key]) <= 0.003 * ours[key] + 1,
        `p${p}: HdrHistogram ${theirs} ns, flashmark ${ours[key]} ns`);
    }
    assert.equal(total.totalCount, doc.summary.read.ios + doc.summary.write.ios);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
