// The SNIA PTS report pages (`flashmark report --pts ID --html`) in a real
// browser: runs scaled PTS tests on loop devices the test makes (root
// only: elsewhere it skips with a message), opens each test's page in
// headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core
// from web/node_modules) and checks that
//   - the page logs no error, runs no script and requests nothing but
//     itself;
//   - the header block is there and says the run was scaled;
//   - every chart (an SVG figure) is laid out at a real size and draws
//     lines or points.
// Every test's page: IOPS, throughput, latency, WSAT, HIR, XSR, ECW and
// DIRTH, each scaled to seconds.
//
//   FLASHMARK=build/flashmark node --test tests/browser/pts_report.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const webDir = join(root, 'web');
const CHROMIUM = '/usr/bin/chromium';

let skipReason = false;
if (process.getuid && process.getuid() !== 0) {
  skipReason = 'needs root (a loop device for the PTS tests); CI runs it as root';
} else if (!existsSync(CHROMIUM)) {
  skipReason = `${CHROMIUM} is missing (scripts/setup.sh installs Debian's chromium)`;
} else if (!existsSync(join(webDir, 'node_modules', 'playwright-core', 'package.json'))) {
  skipReason = 'web/node_modules/playwright-core is missing (run scripts/setup.sh, or npm ci --prefix web)';
}
if (skipReason) console.log(`# skipping the PTS report browser test: ${skipReason}`);

const FLASHMARK = process.env.FLASHMARK || join(root, 'build', 'flashmark');
const work = mkdtempSync(join(tmpdir(), 'flashmark-pts-browser-'));
const outDir = join(process.env.OUT_DIR || process.env.FLASHMARK_BROWSER_OUT ||
  join(tmpdir(), 'flashmark-browser-report'), 'pts');
const db = join(work, 'pts.db');
const loops = [];
let context = null;
let campaigns = 0;

function tool(argv, timeout = 600_000) {
  const r = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8', timeout });
  const output = `${r.stdout || ''}${r.stderr || ''}`;
  assert.equal(r.status, 0, `${argv.join(' ')} failed (${r.status}, ${r.error || ''}):\n${output.slice(-4000)}`);
  return r.stdout || '';
}

// Runs one scaled PTS test on a loop device of its own (a purge of one
// that random writes fragmented takes minutes here: the discard punches
// holes in a file on a file system mounted with `discard`); returns the
// campaign ids of its segments.
function pts(name, extra) {
  const image = join(work, `${name}.img`);
  tool(['truncate', '-s', '4G', image]);
  const loop = tool(['losetup', '-f', '--show', image]).trim();
  assert.match(loop, /^\/dev\/loop\d+$/);
  loops.push(loop);
  const output = tool([FLASHMARK, 'pts', name, loop, '--allow-destroy', loop, '--db', db, '-q', ...extra]);
  const ids = [...output.matchAll(/^campaign (\d+) ".*": \d+ cells/gm)].map((m) => Number(m[1]));
  assert.ok(ids.length > 0, `no campaign in the output of pts ${name}:\n${output.slice(0, 2000)}`);
  campaigns += ids.length;
  return ids;
}

async function openPage(id, name, figures) {
  const html = join(outDir, `pts-${name}-${id}.html`);
  tool([FLASHMARK, 'report', '--pts', String(id), '--db', db, '--html', html]);
  const text = readFileSync(html, 'utf8');
  assert.doesNotMatch(text, /<script/i, `${name}: the page has a script`);
  const page = await context.newPage();
  const problems = [];
  const requests = [];
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`); });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('request', (req) => requests.push(req.url()));
  const url = pathToFileURL(html).href;
  await page.goto(url);
  const shown = await page.evaluate(() => ({
    header: document.querySelector('table.header-block') !== null,
    text: document.body.innerText,
    charts: [...document.querySelectorAll('figure.chart')].map((f) => {
      const svg = f.querySelector('svg');
      const box = svg ? svg.getBoundingClientRect() : { width: 0, height: 0 };
      return {
        id: f.id, width: box.width, height: box.height,
        marks: f.querySelectorAll('polyline, circle, path').length,
      };
    }),
  }));
  await page.screenshot({ path: join(outDir, `pts-${name}-${id}.png`), fullPage: true });
  await page.close();
  assert.deepEqual(problems, [], `${name}: the page logged errors`);
  assert.deepEqual(requests, [url], `${name}: the page requested more than itself`);
  assert.ok(shown.header, `${name}: no header block`);
  assert.match(shown.text, /not a compliant run/, `${name}: the page does not say it was scaled`);
  assert.match(shown.text, /Solid State Storage Performance Test Specification v2\.0\.2/);
  assert.equal(shown.charts.length, figures, `${name}: ${shown.charts.length} charts, expected ${figures}`);
  for (const chart of shown.charts) {
    assert.ok(chart.width > 300 && chart.height > 150, `${name}: chart ${chart.id} is ${chart.width}x${chart.height}`);
    assert.ok(chart.marks > 0, `${name}: chart ${chart.id} draws nothing`);
  }
  return shown;
}

before(() => {
  if (skipReason) return;
  assert.ok(existsSync(FLASHMARK), `the flashmark binary is not at ${FLASHMARK} (set FLASHMARK=path/to/flashmark)`);
  mkdirSync(outDir, { recursive: true });
});

before(async () => {
  if (skipReason) return;
  const require = createRequire(join(webDir, 'package.json'));
  const { chromium } = require('playwright-core');
  const profile = join(work, 'profile');
  mkdirSync(profile);
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1300, height: 1000 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

after(async () => {
  if (context) await context.close();
  for (const loop of loops) spawnSync('losetup', ['-d', loop]);
  rmSync(work, { recursive: true, force: true });
  if (!skipReason) console.log(`# PTS pages and screenshots: ${outDir} (${campaigns} campaigns)`);
});

const quick = ['--scale', '0.002', '--max-rounds', '5'];

test('latency: convergence, measurement and response times', { skip: skipReason }, async () => {
  const [id] = pts('latency', quick);
  const shown = await openPage(id, 'latency', 2);
  assert.match(shown.text, /99\.999 %/);
  assert.match(shown.text, /read-pct \\ bs/);
});

test('throughput: one page per block size segment', { skip: skipReason }, async () => {
  const ids = pts('throughput', quick);
  assert.equal(ids.length, 2, 'enterprise: 128 KiB and 1024 KiB');
  for (const id of ids) {
    const shown = await openPage(id, 'throughput', 2);
    assert.match(shown.text, /MiB\/s over the window's rounds/);
  }
});

const quickest = ['--scale', '0.0005', '--max-rounds', '5'];

test('iops: the block size x mix surface', { skip: skipReason }, async () => {
  const [id] = pts('iops', quickest);
  const shown = await openPage(id, 'iops', 2);
  assert.match(shown.text, /IOPS surface: block size x R\/W mix/);
  assert.match(shown.text, /read-pct \\ bs/);
});

test('dirth: the demand sweep, its intensity, CPU use and histograms', { skip: skipReason }, async () => {
  const [dirth] = pts('dirth', quickest);
  const dirthPage = await openPage(dirth, 'dirth', 5);
  assert.match(dirthPage.text, /Demand intensity/);
  assert.match(dirthPage.text, /threads \\ iodepth/);
  assert.match(dirthPage.text, /CPU use \(user \+ system\)/);
  assert.match(dirthPage.text, /maximum IOPS\s+TC\d+\/QD\d+/);
  assert.match(dirthPage.text, /minimum IOPS\s+TC\d+\/QD\d+/);
});

test('ecw: the outstanding IOs sweep', { skip: skipReason }, async () => {
  const [ecw] = pts('ecw', quickest);
  const shown = await openPage(ecw, 'ecw', 2);
  assert.match(shown.text, /iodepth=32/);
});

test('hir: bursts and wait states over time', { skip: skipReason }, async () => {
  const [hir] = pts('hir', ['--scale', '0.0005']);
  const shown = await openPage(hir, 'hir', 1);
  assert.match(shown.text, /IOPS over time/);
});

test('wsat and xsr: series over the test', { skip: skipReason }, async () => {
  const [wsat] = pts('wsat', ['--scale', '0.01']);
  const wsatPage = await openPage(wsat, 'wsat', 2);
  assert.match(wsatPage.text, /IOPS against the data written/);
  const [xsr] = pts('xsr', ['--scale', '0.0001']);
  const xsrPage = await openPage(xsr, 'xsr', 1);
  assert.match(xsrPage.text, /xsr=2 random/);
});
