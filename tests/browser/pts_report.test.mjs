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
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
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
const loops = [];
const children = [];
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
// holes in a file on a file system mounted with `discard`); resolves to
// the campaign ids of its segments. The tests' campaigns run at once, each
// on its own device and database (they mostly wait on their scaled time):
// the slowest alone decides how long the test takes.
function pts(name, extra) {
  const image = join(work, `${name}.img`);
  tool(['truncate', '-s', '4G', image]);
  const loop = tool(['losetup', '-f', '--show', image]).trim();
  assert.match(loop, /^\/dev\/loop\d+$/);
  loops.push(loop);
  const db = join(work, `${name}.db`);
  const argv = ['pts', name, loop, '--allow-destroy', loop, '--db', db, '-q', ...extra];
  return new Promise((resolve) => {
    const child = spawn(FLASHMARK, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let output = '';
    child.stdout.on('data', (chunk) => { output += chunk; });
    child.stderr.on('data', (chunk) => { output += chunk; });
    child.on('close', (status) => resolve({ name, db, status, output, argv }));
  });
}

// The campaigns of a started PTS test, once it ended well.
async function campaignsOf(started) {
  const { name, db, status, output, argv } = await started;
  assert.equal(status, 0, `flashmark ${argv.join(' ')} failed (${status}):\n${output.slice(-4000)}`);
  const ids = [...output.matchAll(/^campaign (\d+) ".*": \d+ cells/gm)].map((m) => Number(m[1]));
  assert.ok(ids.length > 0, `no campaign in the output of pts ${name}:\n${output.slice(0, 2000)}`);
  campaigns += ids.length;
  return { ids, db };
}

async function openPage({ db }, id, name, figures) {
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
      // Legible: no two texts of a figure overlap (by more than 1 px).
      const texts = [...f.querySelectorAll('text')].map((t) => ({ text: t.textContent, r: t.getBoundingClientRect() }))
        .filter((t) => t.text.trim() && t.r.width > 0);
      const clashes = [];
      for (let i = 0; i < texts.length; i++) {
        for (let j = i + 1; j < texts.length; j++) {
          const a = texts[i].r, b = texts[j].r;
          const dx = Math.min(a.right, b.right) - Math.max(a.left, b.left);
          const dy = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
          if (dx > 1 && dy > 1) clashes.push(`"${texts[i].text}" and "${texts[j].text}"`);
        }
      }
      return {
        id: f.id, width: box.width, height: box.height,
        marks: f.querySelectorAll('polyline, circle, path').length,
        clashes,
        ticks: [...f.querySelectorAll('text[text-anchor="middle"]')].map((t) => t.textContent),
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
    assert.deepEqual(chart.clashes, [], `${name}: chart ${chart.id} has overlapping texts`);
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
  // (a test that failed early leaves campaigns running: stopped, then waited for)
  await Promise.all(children.filter((c) => c.exitCode === null && c.signalCode === null).map(
    (c) => new Promise((resolve) => { c.on('close', resolve); c.kill('SIGINT'); })));
  for (const loop of loops) spawnSync('losetup', ['-d', loop]);
  // Freeing the blocks of images that random writes fragmented takes the
  // file system up to 16 s each here: a process of its own does it after
  // the test, which waits for none of it.
  spawn('rm', ['-rf', work], { detached: true, stdio: 'ignore' }).unref();
  if (!skipReason) console.log(`# PTS pages and screenshots: ${outDir} (${campaigns} campaigns)`);
});

const quick = ['--scale', '0.002', '--max-rounds', '5'];
const quickest = ['--scale', '0.0005', '--max-rounds', '5'];
// Every test's campaign, started together before the first test.
const started = {};
before(() => {
  if (skipReason) return;
  const plan = {
    latency: quick, throughput: quick, iops: quickest, dirth: quickest, ecw: quickest,
    hir: ['--scale', '0.0005'], wsat: ['--scale', '0.01'], xsr: ['--scale', '0.0001'],
  };
  for (const [name, extra] of Object.entries(plan)) started[name] = pts(name, extra);
});

test('latency: convergence, measurement and response times', { skip: skipReason }, async () => {
  const run = await campaignsOf(started.latency);
  const shown = await openPage(run, run.ids[0], 'latency', 2);
  assert.match(shown.text, /99\.999 %/);
  assert.match(shown.text, /read-pct \\ bs/);
});

test('throughput: one page per block size segment', { skip: skipReason }, async () => {
  const run = await campaignsOf(started.throughput);
  assert.equal(run.ids.length, 2, 'enterprise: 128 KiB and 1024 KiB');
  for (const id of run.ids) {
    const shown = await openPage(run, id, 'throughput', 2);
    assert.match(shown.text, /MiB\/s over the window's rounds/);
  }
});

test('iops: the block size x mix surface', { skip: skipReason }, async () => {
  const run = await campaignsOf(started.iops);
  const shown = await openPage(run, run.ids[0], 'iops', 2);
  assert.match(shown.text, /IOPS surface: block size x R\/W mix/);
  assert.match(shown.text, /read-pct \\ bs/);
  // The plot's x axis names the block sizes, as the table's columns do.
  const plot = shown.charts.find((c) => c.id.includes('measurement-plot'));
  assert.ok(plot, `charts: ${shown.charts.map((c) => c.id)}`);
  for (const bs of ['1024k', '128k', '64k', '32k', '16k', '8k', '4k', '512']) {
    assert.ok(plot.ticks.includes(bs), `the x axis lacks ${bs}: ${plot.ticks}`);
  }
});

test('dirth: the demand sweep, its intensity, CPU use and histograms', { skip: skipReason }, async () => {
  const run = await campaignsOf(started.dirth);
  const dirthPage = await openPage(run, run.ids[0], 'dirth', 5);
  assert.match(dirthPage.text, /Demand intensity/);
  assert.match(dirthPage.text, /threads \\ iodepth/);
  assert.match(dirthPage.text, /CPU use \(user \+ system\)/);
  assert.match(dirthPage.text, /maximum IOPS\s+TC\d+\/QD\d+/);
  assert.match(dirthPage.text, /minimum IOPS\s+TC\d+\/QD\d+/);
});

test('ecw: the outstanding IOs sweep', { skip: skipReason }, async () => {
  const run = await campaignsOf(started.ecw);
  const shown = await openPage(run, run.ids[0], 'ecw', 2);
  assert.match(shown.text, /iodepth=32/);
});

test('hir: bursts and wait states over time', { skip: skipReason }, async () => {
  const run = await campaignsOf(started.hir);
  const shown = await openPage(run, run.ids[0], 'hir', 1);
  assert.match(shown.text, /IOPS over time/);
});

test('wsat and xsr: series over the test', { skip: skipReason }, async () => {
  const wsat = await campaignsOf(started.wsat);
  const wsatPage = await openPage(wsat, wsat.ids[0], 'wsat', 2);
  assert.match(wsatPage.text, /IOPS against the data written/);
  const xsr = await campaignsOf(started.xsr);
  const xsrPage = await openPage(xsr, xsr.ids[0], 'xsr', 1);
  assert.match(xsrPage.text, /xsr=2 random/);
});
