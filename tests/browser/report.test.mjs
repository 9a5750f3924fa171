// The HTML report in a real browser: makes short diskless runs with the
// flashmark binary (null engine), writes reports with `flashmark report
// --html`, opens each in headless Chromium (Debian's /usr/bin/chromium,
// driven by playwright-core from web/node_modules) and checks that
//   - every chart the data lists is drawn: the instance exists, its option
//     has the expected series, with points, and its canvas is not blank;
//   - the page logs no error and requests nothing but itself;
//   - body.dataset.ready is "1";
//   - a hostile label is shown as text and runs nothing (no dialog, no <img>),
//     in the tables and in a chart tooltip.
//
//   FLASHMARK=build/flashmark node --test tests/browser/report.test.mjs
//
// Screenshots and the pages go to $OUT_DIR, else $FLASHMARK_BROWSER_OUT (set
// by CTest to <build>/browser-report), else $TMPDIR/flashmark-browser-report. Skips only
// when Chromium or playwright-core is not installed (scripts/setup.sh
// installs both).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const webDir = join(root, 'web');
const CHROMIUM = '/usr/bin/chromium';
const XSS_LABEL = '</script><img src=x onerror=alert(1)>';

let skipReason = false;
if (!existsSync(CHROMIUM)) {
  skipReason = `${CHROMIUM} is missing (scripts/setup.sh installs Debian's chromium)`;
} else if (!existsSync(join(webDir, 'node_modules', 'playwright-core', 'package.json'))) {
  skipReason = 'web/node_modules/playwright-core is missing (run scripts/setup.sh, or npm ci --prefix web)';
}
if (skipReason) console.log(`# skipping the browser test: ${skipReason}`);

const FLASHMARK = process.env.FLASHMARK || join(root, 'build', 'flashmark');
const work = mkdtempSync(join(tmpdir(), 'flashmark-browser-'));
const outDir = process.env.OUT_DIR || process.env.FLASHMARK_BROWSER_OUT || join(tmpdir(), 'flashmark-browser-report');
const db = join(work, 'runs.db');

let context = null; // a persistent context: Chromium with its own fresh profile

function flashmark(args) {
  const r = spawnSync(FLASHMARK, args, { encoding: 'utf8', timeout: 60_000 });
  const output = `${r.stdout || ''}${r.stderr || ''}`;
  assert.equal(r.status, 0, `flashmark ${args.join(' ')} failed (${r.status}, ${r.error || ''}):\n${output}`);
  return output;
}

// One short diskless run; returns its id in the store.
function makeRun(extra) {
  const output = flashmark(['run', '--engine', 'null', '--rate', '2000', '--time', '3s', '--interval', '100ms',
    '-q', '--db', db, ...extra]);
  const m = output.match(/run (\d+) stored/);
  assert.ok(m, `no "run N stored" in the output of flashmark run:\n${output}`);
  return m[1];
}

function report(ids, file, extra = []) {
  const html = join(outDir, file);
  flashmark(['report', ...ids, '--db', db, '--html', html, ...extra]);
  return html;
}

const groupTools = (d) => new Set((d.groups ? d.groups.items : []).map((it) => it.tool).filter(Boolean)).size;
const EXPECTED_SERIES = {
  timeseries: (d) => d.runs.length,
  // (IOPS alone where no run has latencies: imports without histograms)
  iops_latency: (d) => (d.runs.some((r) => [...(r.series.p95_ms || []), ...(r.series.p99_ms || [])].some((v) => typeof v === 'number'))
    ? 3 * d.runs.length : d.runs.length),
  latency_bands: (d) => 3 * d.runs.filter((r) => (r.series.p50_ms || []).some((v) => typeof v === 'number')).length,
  device_activity: (d) => 2 * d.runs.filter((r) => Array.isArray(r.series.device_busy_percent)).length,
  latency_split: (d) => 4 * d.runs.filter((r) => Array.isArray(r.series.split_p50_ms)).length,
  latency_heatmap: () => 1,
  latency_spectrum: (d) => d.runs.filter((r) => r.latency_spectrum && r.latency_spectrum.points.length).length,
  // (runs without latency histograms, imports, have no distribution)
  latency_distribution: (d) => d.runs.filter((r) => r.latency_cdf && (r.latency_cdf.ms || []).length).length,
  box: () => 2,
  // Groups that mix tools get one line per tool (per tool and percentile).
  latency_vs_param: (d) => (groupTools(d) > 1 ? 2 * groupTools(d) : 2),
  // (the median, its p25–p75 band in two, and every interval's value)
  median_vs_param: (d) => (groupTools(d) > 1 ? groupTools(d) : 4),
  comparison: () => 2,
  // One line per disk with WAF windows; one line for WAF against the parameter.
  write_amplification: (d) => d.runs.reduce((n, r) => n + ((r.telemetry || {}).write_amplification || { disks: [] })
    .disks.filter((disk) => (disk.windows || []).length).length, 0),
  waf_vs_param: () => 1,
  // A timed replay's issue error: p50, p99 and max.
  replay_fidelity: (d) => 3 * d.runs.filter((r) => r.replay && r.replay.fidelity.timed).length,
  cluster_heatmap: () => 1,
  cluster_latency: (d) => d.runs.filter((r) => r.latency_cdf && (r.latency_cdf.ms || []).length).length,
};
// Series that may legitimately hold no point (Tukey outliers).
const MAY_BE_EMPTY = { box: [1] };

// Opens a report and runs the checks every report must pass; returns what
// the page showed for the scenario's own assertions.
async function openReport(htmlPath, name) {
  const page = await context.newPage();
  const problems = [];
  const requests = [];
  const dialogs = [];
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`); });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('request', (req) => requests.push(req.url()));
  page.on('dialog', async (dialog) => { dialogs.push(dialog.message()); await dialog.dismiss(); });

  // Self-contained: nothing referenced, and no data ended its script element.
  const html = readFileSync(htmlPath, 'utf8');
  assert.doesNotMatch(html, /<script[^>]+\bsrc=/i, `${name}: a script is loaded from elsewhere`);
  assert.doesNotMatch(html, /<link[^>]+\bhref=/i, `${name}: a stylesheet is loaded from elsewhere`);
  assert.equal((html.match(/<\/script>/g) || []).length, 3, `${name}: not exactly three script elements`);

  const url = pathToFileURL(htmlPath).href;
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.ready, null, { timeout: 30_000 });
  assert.equal(await page.evaluate(() => document.body.dataset.ready), '1',
    `${name}: the page did not become ready: ${await page.locator('#report').innerText()}`);

  const data = await page.evaluate(() => JSON.parse(document.getElementById('report-data').textContent));
  assert.equal(data.schema, 'flashmark.report');
  assert.ok(Array.isArray(data.charts) && data.charts.length > 0, `${name}: the data lists no chart`);

  const charts = await page.evaluate(() => {
    const out = {};
    for (const [chartName, chart] of Object.entries(window.flashmarkCharts || {})) {
      const option = chart.getOption();
      // Every layer: ECharts draws some series (heatmaps) on a canvas of
      // their own above the axes'.
      const canvases = [...chart.getDom().querySelectorAll('canvas')];
      const canvas = canvases[0];
      let painted = 0;
      const seen = new Set();
      for (const layer of canvases) {
        const pixels = layer.getContext('2d').getImageData(0, 0, layer.width, layer.height).data;
        for (let i = 0; i < pixels.length; i += 4) {
          if (pixels[i + 3] === 0) continue;
          painted++;
          seen.add(((pixels[i] >> 4) << 8) | ((pixels[i + 1] >> 4) << 4) | (pixels[i + 2] >> 4));
        }
      }
      const colours = seen.size;
      const dom = chart.getDom();
      out[chartName] = {
        id: dom.id,
        className: dom.className,
        width: dom.clientWidth,
        height: dom.clientHeight,
        series: option.series.map((s) => ({ type: s.type, name: s.name, points: (s.data || []).length })),
        painted,
        colours,
        canvasPixels: canvas ? canvas.width * canvas.height : 0,
        dataUrlLength: chart.getDataURL({ type: 'png' }).length,
      };
    }
    return out;
  });

  // Legible: no two texts of a chart (axis labels, legend entries, data and
  // mark labels, titles) overlap. Boxes come from the chart's own scene
  // graph (zrender), in canvas pixels, after every transform.
  const overlaps = await page.evaluate(() => {
    const found = {};
    for (const [chartName, chart] of Object.entries(window.flashmarkCharts || {})) {
      const boxes = [];
      for (const el of chart.getZr().storage.getDisplayList(true)) {
        if (el.type !== 'tspan' || el.invisible || el.ignore) continue;
        const text = el.style && el.style.text;
        if (!text || !String(text).trim() || (el.style.opacity === 0)) continue;
        const rect = el.getBoundingRect().clone();
        if (el.transform) rect.applyTransform(el.transform);
        // What a clip path (a scrolling legend's window) leaves visible.
        for (const clip of el.__clipPaths || []) {
          const c = clip.getBoundingRect().clone();
          if (clip.transform) c.applyTransform(clip.transform);
          const x0 = Math.max(rect.x, c.x), y0 = Math.max(rect.y, c.y);
          const x1 = Math.min(rect.x + rect.width, c.x + c.width), y1 = Math.min(rect.y + rect.height, c.y + c.height);
          rect.x = x0; rect.y = y0; rect.width = Math.max(0, x1 - x0); rect.height = Math.max(0, y1 - y0);
        }
        if (rect.width < 1 || rect.height < 1) continue;
        boxes.push({ text: String(text), x: rect.x, y: rect.y, w: rect.width, h: rect.height });
      }
      const clashes = [];
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i], b = boxes[j];
          const dx = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
          const dy = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
          if (dx > 2 && dy > 2) clashes.push(`"${a.text}" and "${b.text}"`);
        }
      }
      found[chartName] = { texts: boxes.length, clashes };
    }
    return found;
  });
  for (const [chartName, { texts, clashes }] of Object.entries(overlaps)) {
    assert.ok(texts >= 5, `${name}: chart ${chartName} shows ${texts} texts only`);
    assert.deepEqual(clashes, [], `${name}: chart ${chartName} has overlapping texts`);
  }

  for (const chartName of data.charts) {
    const c = charts[chartName];
    assert.ok(c, `${name}: chart ${chartName} is listed in the data but was not drawn`);
    assert.equal(c.id, `chart-${chartName}`);
    assert.match(c.className, /\bchart\b/);
    assert.ok(c.width > 300 && c.height > 300, `${name}: chart ${chartName} is ${c.width}x${c.height}`);
    const expected = EXPECTED_SERIES[chartName](data);
    assert.equal(c.series.length, expected, `${name}: chart ${chartName} has ${c.series.length} series, expected ${expected}`);
    c.series.forEach((s, i) => {
      if ((MAY_BE_EMPTY[chartName] || []).includes(i)) return;
      assert.ok(s.points > 0, `${name}: chart ${chartName} series ${i} (${s.type} "${s.name}") has no point`);
    });
    // Not blank: axes, labels and marks cover part of the canvas in several colours.
    assert.ok(c.painted > c.canvasPixels * 0.01, `${name}: chart ${chartName} canvas is (nearly) blank: ${c.painted} of ${c.canvasPixels} pixels`);
    assert.ok(c.colours >= 4, `${name}: chart ${chartName} canvas has ${c.colours} colours only`);
    assert.ok(c.dataUrlLength > 5000, `${name}: chart ${chartName} image is ${c.dataUrlLength} bytes of data URL`);
  }
  for (const chartName of Object.keys(charts)) {
    assert.ok(data.charts.includes(chartName), `${name}: chart ${chartName} drawn but not listed in the data`);
  }

  // Every run is in the tables.
  const shown = await page.locator('#report').innerText();
  // (closed run sections too: a report of more than three runs folds them)
  const everything = await page.locator('#report').textContent();
  for (const run of data.runs) {
    assert.ok(everything.includes(run.reproduce), `${name}: run ${run.id}'s reproduce command is not shown`);
  }

  await page.screenshot({ path: join(outDir, `${name}.png`), fullPage: true });

  assert.deepEqual(problems, [], `${name}: the page logged errors`);
  assert.deepEqual(requests.filter((u) => u !== url), [], `${name}: the page made network requests`);
  assert.deepEqual(dialogs, [], `${name}: a dialog opened`);
  return { page, data, charts, shown, dialogs, problems, requests };
}

before(async () => {
  if (skipReason) return;
  assert.ok(existsSync(FLASHMARK), `the flashmark binary is not at ${FLASHMARK} (set FLASHMARK=path/to/flashmark)`);
  mkdirSync(outDir, { recursive: true });
  const require = createRequire(join(webDir, 'package.json'));
  const { chromium } = require('playwright-core');
  const profile = join(work, 'profile');
  mkdirSync(profile);
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1400, height: 1000 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

after(async () => {
  if (context) await context.close();
  rmSync(join(work, 'profile'), { recursive: true, force: true });
  if (!skipReason) console.log(`# pages and screenshots: ${outDir}`);
});

test('one run: every chart drawn, nothing fetched', { skip: skipReason }, async () => {
  const id = makeRun(['--label', 'single null run']);
  const { page, data, shown } = await openReport(report([id], 'report-single.html'), 'report-single');
  assert.equal(data.runs.length, 1);
  for (const chartName of ['timeseries', 'latency_bands', 'latency_heatmap', 'iops_latency', 'latency_distribution',
    'latency_spectrum']) {
    assert.ok(data.charts.includes(chartName), `a one-run report lists ${chartName}`);
  }
  // The heatmap holds every IO of the series intervals; the spectrum ends
  // at the slowest IO, its thin tail marked.
  const heat = await page.evaluate(() => window.flashmarkCharts.latency_heatmap.getOption().series[0].data
    .reduce((sum, cell) => sum + cell[3], 0));
  assert.ok(heat > 1000, `the heatmap counts ${heat} IOs`);
  const points = data.runs[0].latency_spectrum.points;
  assert.ok(points.length > 5 && points[points.length - 1].few, 'the spectrum marks its last point as few');
  assert.ok(Math.abs(points[points.length - 1].ms - data.runs[0].latency_spectrum.max_ms) < 1e-9);
  // The heatmap's latency ticks fall on round latencies (10 µs, 20 µs, 50 µs ...);
  // the spectrum's percentile axis starts at its first point, not at p0.
  const axes = await page.evaluate(() => {
    const heatAxis = window.flashmarkCharts.latency_heatmap.getModel().getComponent('yAxis').axis;
    const spectrum = window.flashmarkCharts.latency_spectrum;
    return {
      // (ECharts 6 lists the axis' first category off its interval, with no text)
      heat: heatAxis.getViewLabels().filter((l) => !(l.tick && l.tick.offInterval)).map((l) => l.formattedLabel),
      spectrumMin: spectrum.getModel().getComponent('xAxis').axis.scale.getExtent()[0],
    };
  });
  assert.ok(axes.heat.length >= 3, `heatmap labels: ${axes.heat}`);
  // Its columns named by their ends, as the time series places its points.
  const columns = await page.evaluate(() => window.flashmarkCharts.latency_heatmap.getOption().xAxis[0].data);
  const heatmap = data.runs[0].latency_heatmap;
  assert.deepEqual(columns.map(Number), heatmap.end.map((v) => Number(Number(v).toPrecision(3))));
  // (steps 1, 2, 5 of each decade, or 1 and 3 where those crowd, as on a
  // run whose latencies span more decades: never the two mixed)
  for (const label of axes.heat) assert.match(label, /^[1235]0* (ns|µs|ms|s)$/, `heatmap labels: ${axes.heat}`);
  const steps = new Set(axes.heat.map((label) => label[0]));
  assert.ok(!(steps.has('3') && (steps.has('2') || steps.has('5'))), `heatmap labels: ${axes.heat}`);
  // (the scale's extent in data values: p50 is x = 2)
  assert.ok(Math.abs(axes.spectrumMin - Math.min(...points.map((p) => p.x))) < 1e-9,
    `the percentile axis starts at ${axes.spectrumMin}, the first point is at ${points[0].x}`);
  assert.ok(shown.includes('single null run'));
  // A short run: one verdict in the runs table and the details, and MSER
  // not judged, as analyze says.
  assert.equal(data.runs[0].headline.verdict, 'too_short');
  assert.ok(!shown.includes('not reached'), 'the details say what the runs table says');
  assert.ok(shown.split('too short to judge').length > 2, 'the runs table and the details agree');
  assert.ok(shown.includes('not judged: MSER-5 needs'), 'MSER not judged on a short run');
  // The time-series chart carries the median line and zooms on its time axis.
  const option = await page.evaluate(() => {
    const o = window.flashmarkCharts.timeseries.getOption();
    return { markLine: o.series[0].markLine.data.map((d) => (Array.isArray(d) ? d[0] : d).name || ''), zoom: o.dataZoom.map((z) => z.type) };
  });
  assert.ok(option.markLine.some((n) => n.startsWith('median ')), `median markLine: ${option.markLine}`);
  assert.deepEqual([...option.zoom].sort(), ['inside', 'slider']);
  await page.close();
});

// The page's number format (report.js fmtNum), to find a figure as shown.
function pageNumber(v) {
  const a = Math.abs(v);
  if (a === 0) return '0';
  if (a >= 1000 || Number.isInteger(v)) return Math.round(v).toLocaleString('en-US');
  if (a >= 100) return v.toFixed(1);
  if (a >= 1) return v.toFixed(2);
  return String(Number(v.toPrecision(3)));
}

test('a replay: its fidelity over time beside the other charts, the figures as show --json has them', {
  skip: skipReason,
}, async () => {
  // The fio fixture (100 IOs over 1 s) replayed 4 times slower: 4 intervals.
  const imported = flashmark(['import', 'fio-iolog', join(root, 'tests/fixtures/trace/fio-3.33-randwrite-100iops.iolog'),
    '--db', db]);
  const traceId = (imported.match(/trace (\d+):/) || [])[1];
  assert.ok(traceId, `no "trace N:" in the output of flashmark import:\n${imported}`);
  const target = join(work, 'replay-target');
  writeFileSync(target, Buffer.alloc(8 << 20));
  const replayed = flashmark(['replay', traceId, target, '--timing', 'scaled:0.25', '-q', '--db', db,
    '--label', 'replayed fio log']);
  const id = (replayed.match(/ run (\d+) stored/) || [])[1];
  assert.ok(id, `no "run N stored" in the output of flashmark replay:\n${replayed}`);
  const shownJson = JSON.parse(flashmark(['show', id, '--json', '--db', db]));
  const fidelity = shownJson.replay.fidelity;
  assert.equal(fidelity.timed, true);
  const intervals = fidelity.series.ios.length;
  assert.ok(intervals >= 4 && intervals <= 5, `the 4 s replay has ${intervals} fidelity intervals`);

  const { page, data, charts, shown } = await openReport(report([id], 'report-replay.html'), 'report-replay');
  // Beside the throughput and latency charts, and drawn right after them.
  for (const chartName of ['timeseries', 'latency_bands', 'replay_fidelity']) {
    assert.ok(data.charts.includes(chartName), `a replay's report lists ${chartName}`);
  }
  const order = await page.evaluate(() => [...document.querySelectorAll('.chart')].map((c) => c.id));
  assert.equal(order.indexOf('chart-replay_fidelity'), order.indexOf('chart-latency_bands') + 1, `charts: ${order}`);
  // One point per interval of the series, the values show --json's (µs).
  const drawn = charts.replay_fidelity.series;
  assert.deepEqual(drawn.map((s) => s.name), ['issue error p50', 'issue error p99', 'issue error max']);
  for (const s of drawn) assert.equal(s.points, intervals, `${s.name}: ${s.points} points`);
  const option = await page.evaluate(() => {
    const o = window.flashmarkCharts.replay_fidelity.getOption();
    return { p99: o.series[1].data, late: o.series[1].markLine.data.map((d) => d.yAxis) };
  });
  option.p99.forEach(([, v], k) => {
    if (fidelity.series.ios[k] > 0) assert.equal(v, fidelity.series.error_p99_ns[k] / 1e3, `interval ${k}`);
    else assert.equal(v, '-', `interval ${k} has no IO`);
  });
  assert.deepEqual(option.late, [fidelity.late_threshold_ns / 1e3]);
  // No time axis label sits on another: the replay's end just past a tick
  // (its partial last interval, 4.1 s after 4) gets none of its own; any
  // two labels are at least half a step apart.
  const timeLabels = await page.evaluate(() => window.flashmarkCharts.replay_fidelity.getModel()
    .getComponent('xAxis').axis.getViewLabels().map((l) => l.formattedLabel).filter((t) => t !== ''));
  const at = timeLabels.map(Number);
  assert.ok(at.length >= 4 && at.every((v) => Number.isFinite(v)), `time axis labels: ${timeLabels}`);
  const step = at[1] - at[0];
  for (let k = 1; k < at.length; k++) {
    assert.ok(at[k] - at[k - 1] >= step / 2 - 1e-9, `time axis labels: ${timeLabels}`);
  }
  // The figures, as show --json has them.
  const figures = await page.evaluate((run) => {
    const rows = {};
    for (const tr of document.querySelectorAll(`[data-replay-figures="${run}"] tr`)) {
      rows[tr.querySelector('th').textContent] = tr.querySelector('td').textContent;
    }
    const gaps = [...document.querySelectorAll(`[data-replay-interarrival="${run}"] tbody tr`)]
      .map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent));
    return { rows, gaps };
  }, id);
  const us = (ns) => `${pageNumber(ns / 1e3)} µs`;
  const error = fidelity.issue_error_ns;
  assert.equal(figures.rows['IOs replayed'], pageNumber(fidelity.ios));
  assert.equal(figures.rows['issue error p50'], us(error.p50));
  assert.equal(figures.rows['issue error p99'], us(error.p99));
  assert.equal(figures.rows['issue error max'], us(error.max));
  assert.equal(figures.rows['issue error mean'], us(error.mean));
  assert.equal(figures.rows['late threshold'], `${us(fidelity.late_threshold_ns)} at p99`);
  assert.equal(figures.rows['timing kept'], fidelity.kept_timing ? 'yes' : 'no');
  assert.equal(figures.rows.reordered, pageNumber(fidelity.reordered));
  assert.equal(figures.rows['queue depth achieved'],
    `mean ${pageNumber(fidelity.achieved_depth_mean)}, max ${pageNumber(fidelity.achieved_depth_max)}`);
  assert.match(figures.rows['queue depth recorded'], /^unknown/, 'an fio iolog has no completion times');
  const traceGaps = shownJson.replay.trace_interarrival_ns;
  // The trace's, the trace's at scaled:0.25 (what the replay aimed at), the replay's.
  assert.deepEqual(figures.gaps, ['p50', 'p99'].map((q) => [q, pageNumber(traceGaps[q] / 1e3),
    pageNumber(traceGaps[q] / 0.25 / 1e3), pageNumber(fidelity.interarrival_ns[q] / 1e3)]));
  // 4 s per 100 IOs: 40 ms apart in the trace's scaled time, and the
  // replay kept close to it.
  assert.ok(Math.abs(fidelity.interarrival_ns.p50 - 4 * traceGaps.p50) < 0.1 * 4 * traceGaps.p50,
    `replay p50 ${fidelity.interarrival_ns.p50} ns, trace ${traceGaps.p50} ns x 4`);
  // The headline's words exactly when the timing was not kept.
  const late = 'replay could not keep the recorded timing';
  assert.equal(shown.includes(late), !fidelity.kept_timing);
  await page.close();
});

// sysbench's output for a run of `seconds` one-second intervals, the read
// throughput of second s (1-based, as sysbench prints it) given by mibs(s).
function sysbenchLog(seconds, mibs) {
  const fixture = readFileSync(join(root, 'tests/fixtures/import/sysbench-rndrd-8threads.txt'), 'utf8');
  const lines = [];
  for (let s = 1; s <= seconds; s++) {
    lines.push(`[ ${s}s ] reads: ${mibs(s).toFixed(2)} MiB/s writes: 0.00 MiB/s fsyncs: 0.00/s latency (ms,95%): 0.006`);
  }
  return fixture.replace(/(\[ \d+s \][^\n]*\n)+/, lines.join('\n') + '\n')
    .replace(/total time:\s+[0-9.]+s/, `total time:                          ${seconds}.0016s`);
}

// Where a chart draws its texts: [{text, x, y, w, h}] in canvas pixels.
const chartTexts = (chartName) => {
  const chart = window.flashmarkCharts[chartName];
  const texts = [];
  for (const el of chart.getZr().storage.getDisplayList(true)) {
    if (el.type !== 'tspan' || el.invisible || el.ignore || !el.style || !String(el.style.text || '').trim()) continue;
    const r = el.getBoundingRect().clone();
    if (el.transform) r.applyTransform(el.transform);
    texts.push({ text: String(el.style.text), x: r.x, y: r.y, w: r.width, h: r.height });
  }
  return texts;
};

test('time series: points at interval end, median over its regime, changes above the plot, fixed warm-up', {
  skip: skipReason,
}, async () => {
  // 120 s of sysbench: about 400 MiB/s, then 300 from 60 s; reported with
  // a fixed 6 s warm-up.
  const log = join(work, 'sysbench-drop.txt');
  writeFileSync(log, sysbenchLog(120, (s) => (s <= 60 ? 400 : 300) * (1 + 0.02 * Math.sin(s * 1.7))));
  const imported = flashmark(['import', 'sysbench', log, '--db', db, '--again']);
  const id = (imported.match(/run (\d+) "/) || [])[1];
  assert.ok(id, `no run id in the import's output:\n${imported}`);
  const { page, data, shown } = await openReport(report([id], 'report-regimes.html', ['--warmup', '6s']), 'report-regimes');
  const run = data.runs[0];
  // As sysbench and flashmark's console print it: the interval 0..1 s is "[ 1s ]".
  assert.equal(run.series.t[0], 1);
  assert.equal(run.series.t[run.series.t.length - 1], 120);
  assert.equal(run.steady_state.warmup_mode, 'fixed');
  assert.ok(run.changes.length >= 1, `a change is found: ${JSON.stringify(run.changes)}`);
  const drawn = await page.evaluate((texts) => {
    const chart = window.flashmarkCharts.timeseries;
    const s = chart.getOption().series[0];
    const rect = chart.getModel().getComponent('grid').coordinateSystem.getRect();
    return {
      lines: s.markLine.data, areas: s.markArea.data.map((a) => [a[0].name, a[0].xAxis, a[1].xAxis]),
      grid: { x: rect.x, y: rect.y, w: rect.width, h: rect.height }, texts: eval(texts)('timeseries'),
    };
  }, chartTexts.toString());
  // The headline median spans the headline's window only: the final regime.
  const median = drawn.lines.find((d) => Array.isArray(d) && String(d[0].name).startsWith('median '));
  assert.ok(median, `a median segment: ${JSON.stringify(drawn.lines)}`);
  assert.ok(run.headline.start_seconds >= 55, `the headline window starts with the final regime: ${run.headline.start_seconds}`);
  assert.deepEqual([median[0].coord[0], median[1].coord[0]], [run.headline.start_seconds, run.headline.end_seconds]);
  // The fixed warm-up is shaded as a warm-up from 0; the first regime after it as an earlier regime.
  const kind = (name) => (name.startsWith('warm-up ') ? 'warm-up' : name.startsWith('earlier regime ') ? 'earlier regime' : name);
  assert.deepEqual(drawn.areas.map(([name, from, to]) => [kind(name), from, to]),
    [['warm-up', 0, 6], ['earlier regime', 6, run.headline.regime_start_seconds]]);
  assert.ok(drawn.areas[0][0].startsWith('warm-up '), `the first shaded span is the warm-up: ${drawn.areas[0][0]}`);
  assert.ok(drawn.texts.some((t) => t.text === 'warm-up'), 'the warm-up is labelled "warm-up"');
  // Each change's label stands above the plot, never on its points.
  const marks = drawn.texts.filter((t) => /^change \d+$/.test(t.text));
  assert.equal(marks.length, run.changes.length, `change labels: ${JSON.stringify(drawn.texts.map((t) => t.text))}`);
  for (const m of marks) assert.ok(m.y + m.h <= drawn.grid.y + 1, `"${m.text}" overlaps the plot: ${JSON.stringify(m)} ${JSON.stringify(drawn.grid)}`);
  assert.ok(shown.includes('change 1'), 'the run details number the changes as the chart does');
  await page.close();
});

test('a write run beside a read run: the chart names each run\'s own metric', { skip: skipReason }, async () => {
  const ids = [makeRun(['--mode', 'rndwr', '--label', 'writes']), makeRun(['--mode', 'rndrd', '--label', 'reads'])];
  const { page } = await openReport(report(ids, 'report-write-read.html'), 'report-write-read');
  const heading = await page.locator('#section-timeseries h2').innerText();
  assert.equal(heading, 'Throughput per interval', 'not the first run\'s "Write throughput"');
  const medians = await page.evaluate(() => window.flashmarkCharts.timeseries.getOption().series
    .map((s) => s.markLine.data.map((d) => (Array.isArray(d) ? d[0] : d).name || '').find((n) => n.includes('median'))));
  assert.match(medians[0], /^write throughput median /);
  assert.match(medians[1], /^read throughput median /);
  await page.close();
});

test('a traced run on a loop device: where the time went, stacked', {
  skip: skipReason || (process.getuid && process.getuid() !== 0 && 'needs root (a loop device, tracefs)'),
}, async () => {
  const image = join(work, 'traced.img');
  spawnSync('truncate', ['-s', '256M', image]);
  const loop = spawnSync('losetup', ['-f', '--show', image], { encoding: 'utf8' }).stdout.trim();
  assert.match(loop, /^\/dev\/loop\d+$/);
  let output;
  try {
    // Every IO traced: each interval's stack is its p50, not a sample's.
    output = flashmark(['run', loop, '--direct', '--engine', 'io_uring', '--iodepth', '4', '--time', '3s',
      '--interval', '500ms', '--trace-sample', '1', '--label', 'traced', '-q', '--db', db]);
  } finally {
    spawnSync('losetup', ['-d', loop]);
  }
  if (!output.includes('split  latency p50')) {
    assert.match(output, /note: --trace-latency: /, 'untraced only with a note');
    return;  // this machine lets nobody trace (a container without tracefs)
  }
  const id = output.match(/run (\d+) stored/)[1];
  const { page, data } = await openReport(report([id], 'report-traced.html'), 'report-traced');
  assert.ok(data.charts.includes('latency_split'), `charts: ${data.charts}`);
  const heading = await page.locator('#section-latency_split h2').innerText();
  assert.equal(heading, 'Where the time went');
  const chart = await page.evaluate(() => window.flashmarkCharts.latency_split.getOption().series
    .map((s) => ({ name: s.name, stack: s.stack, values: s.data.map((p) => p[1]).filter((v) => typeof v === 'number') })));
  const SPLIT_ORDER = ['flashmark', 'queue', 'device', 'completion'];
  assert.deepEqual(chart.map((s) => s.name), SPLIT_ORDER);
  assert.ok(chart.every((s) => s.stack === chart[0].stack), 'one stack');
  // Each band is the part of each interval's p50, as the data says; the
  // device's is never zero on a loop device; the stack's top is the p50
  // (within 5 %: the IOs at the p50 lie in a band 3.2 % wide).
  const split = data.runs[0].series.split_p50_ms;
  SPLIT_ORDER.forEach((part, k) => {
    assert.deepEqual(chart[k].values, split.map((parts) => parts[k]).filter((v) => typeof v === 'number'), part);
  });
  assert.ok(chart[2].values.length > 0 && chart[2].values.every((v) => v > 0), `device: ${chart[2].values}`);
  const p50 = data.runs[0].series.p50_ms;
  const tops = split.map((parts, i) => [parts.reduce((sum, v) => sum + v, 0), p50[i]])
    .filter(([top, measured]) => typeof measured === 'number' && top > 0);
  assert.ok(tops.length > 0, 'some interval has its p50 in parts');
  for (const [top, measured] of tops) {
    assert.ok(Math.abs(top / measured - 1) <= 0.05, `stack top ${top} ms against the p50 ${measured} ms`);
  }
  await page.close();
});

test('thread sweep grouped by threads: box, response time and median charts', { skip: skipReason }, async () => {
  const ids = [1, 2, 4].map((n) => makeRun(['--threads', String(n), '--tag', `threads=${n}`]));
  const { page, data } = await openReport(report(ids, 'report-threads.html', ['--by', 'threads']), 'report-threads');
  assert.equal(data.runs.length, 3);
  assert.equal(data.groups.by, 'threads');
  assert.deepEqual(data.groups.items.map((it) => it.name), ['1', '2', '4']);
  for (const chartName of ['box', 'latency_vs_param', 'median_vs_param']) {
    assert.ok(data.charts.includes(chartName), `a numeric sweep lists ${chartName}`);
  }
  const box = await page.evaluate(() => window.flashmarkCharts.box.getOption().xAxis[0].data);
  assert.deepEqual(box, ['1', '2', '4']);
  await page.close();
});

// A fill sweep on drives whose SMART counts media writes. No such drive
// here: the readings a run's SMART thread records are written into run
// documents, which are then imported. WAF over time, and against size.
test('a fill sweep with media writes: write amplification over time and against size', { skip: skipReason }, async () => {
  const G = 2 ** 30;
  const counter = 'OCP C0h Physical Media Units Written';
  const ids = [[50, 1.5], [250, 3.2]].map(([gib, waf]) => {
    const file = join(work, `waf-${gib}.json`);
    flashmark(['run', '--engine', 'null', '--rate', '2000', '--time', '3s', '--interval', '100ms', '-q',
      '--json', file, '--db', join(work, 'waf-scratch.db')]);
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    const target = doc.environment.targets[0];
    Object.assign(target, { device_name: 'nvme0n1', path: '/dev/nvme0n1' });
    target.health = { source: 'smartctl', media_bytes_written: 7 * G, media_counter: counter, media_step_bytes: 1 };
    doc.intervals.forEach((interval, k) => {
      if (k % 10) return;
      interval.telemetry = Object.assign(interval.telemetry || {}, {
        write_counters: [{ device: 'nvme0n1', host_bytes: 1000 * G + k * G, media_bytes: 7 * G + Math.round(k * G * waf),
          media_step_bytes: 1, counter }],
      });
    });
    writeFileSync(file, JSON.stringify(doc));
    const output = flashmark(['import', 'flashmark', file, '--tag', `size=${gib}G`, '--db', db]);
    const m = output.match(/: run (\d+) /);
    assert.ok(m, `no run id in the output of flashmark import:\n${output}`);
    return m[1];
  });
  const { page, data } = await openReport(report(ids, 'report-waf.html', ['--by', 'size']), 'report-waf');
  for (const chartName of ['write_amplification', 'waf_vs_param']) {
    assert.ok(data.charts.includes(chartName), `a fill sweep with media writes lists ${chartName}`);
  }
  assert.deepEqual(data.groups.items.map((it) => it.write_amplification), [1.5, 3.2]);
  const against = await page.evaluate(() => window.flashmarkCharts.waf_vs_param.getOption().series[0].data);
  assert.deepEqual(against.map((p) => p[1]), [1.5, 3.2]);
  const overTime = await page.evaluate(() => window.flashmarkCharts.write_amplification.getOption().series
    .map((s) => s.data.filter((p) => typeof p[1] === 'number').map((p) => p[1])));
  assert.equal(overTime.length, 2);
  assert.ok(overTime[1].length > 0 && overTime[1].every((v) => Math.abs(v - 3.2) < 1e-9), `WAF windows: ${overTime[1]}`);
  await page.close();
});

// A run across 3 MPI ranks (skipped without mpirun): `report AGGREGATE`
// is the group's page, its ranks in a table and a rank x time heatmap.
const noMpirun = spawnSync('sh', ['-c', 'command -v mpirun'], { encoding: 'utf8' }).status !== 0;
test('a run across MPI ranks: the group page', { skip: skipReason || (noMpirun && 'mpirun is not installed') }, async () => {
  const env = { ...process.env, OMPI_ALLOW_RUN_AS_ROOT: '1', OMPI_ALLOW_RUN_AS_ROOT_CONFIRM: '1' };
  const r = spawnSync('mpirun', ['--oversubscribe', '-np', '3', FLASHMARK, 'run', '--engine', 'null', '--rate', '2000',
    '--time', '2s', '--interval', '100ms', '-q', '--mpi', '--db', db], { encoding: 'utf8', timeout: 120_000, env });
  assert.equal(r.status, 0, `mpirun failed: ${r.stdout}${r.stderr}`);
  const m = `${r.stdout}${r.stderr}`.match(/aggregate run (\d+)/);
  assert.ok(m, `no "aggregate run N" in:\n${r.stdout}${r.stderr}`);
  const { page, data, shown } = await openReport(report([m[1]], 'report-cluster.html'), 'report-cluster');
  assert.equal(data.runs.length, 4, 'the aggregate and its three ranks');
  assert.equal(data.cluster.items.length, 3);
  assert.ok(data.charts.includes('cluster_heatmap') && data.charts.includes('cluster_latency'));
  assert.equal(data.comparison, null, 'ranks are not compared with their aggregate');
  const cells = await page.evaluate(() => window.flashmarkCharts.cluster_heatmap.getOption().series[0].data.length);
  assert.equal(cells, 3 * data.cluster.heatmap.start.length);
  const widths = await page.evaluate(() => window.flashmarkCharts.cluster_latency.getOption().series
    .map((s) => [s.name, s.lineStyle.width]));
  const bold = widths.filter(([, w]) => w > 3).map(([n]) => n);
  assert.deepEqual(bold, ['all ranks'], `only the aggregate is drawn bold: ${JSON.stringify(widths)}`);
  assert.ok(shown.includes('Cluster: 3 ranks') && shown.includes('rank 2 on '), shown.slice(0, 2000));
  await page.close();
});

test('two devices with prices and a hostile label: comparison, no script runs', { skip: skipReason }, async () => {
  const a = makeRun(['--label', 'card A', '--tag', 'device=A', '--price', 'USD 600', '--tag', 'capacity=400G']);
  const b = makeRun(['--label', XSS_LABEL, '--tag', 'device=B', '--price', '900', '--tag', 'capacity=800G']);
  const { page, data, shown } = await openReport(report([a, b], 'report-devices.html', ['--by', 'device']),
    'report-devices');
  assert.ok(data.charts.includes('comparison'), `charts: ${data.charts}`);
  assert.ok(data.comparison.items.some((it) => it.price_per_gb !== null), 'the comparison carries prices');
  assert.ok(data.runs.some((r) => r.label === XSS_LABEL), 'the hostile label reached the data intact');

  // Shown as text, in the tables.
  assert.ok(shown.includes(XSS_LABEL), 'the hostile label is shown as text');
  assert.ok(shown.includes('price per GB'), 'the cost table is shown');
  // 400G is 400 * 10^9 bytes, as a vendor means it; the currency kept.
  assert.ok(shown.includes('USD 1.50'), `the cost per GB in its currency: ${shown.slice(0, 3000)}`);
  // And in a tooltip (the one place ECharts writes HTML).
  const tooltip = await page.evaluate((label) => {
    const chart = window.flashmarkCharts.timeseries;
    const index = chart.getOption().series.findIndex((s) => s.name.includes(label));
    chart.dispatchAction({ type: 'showTip', seriesIndex: index, dataIndex: 3 });
    const dom = chart.getDom();
    const tips = [...dom.querySelectorAll('div')].filter((d) => d.textContent.includes(label) &&
      !d.querySelector('canvas'));
    return { index, found: tips.length, imgs: dom.querySelectorAll('img').length };
  }, XSS_LABEL);
  assert.ok(tooltip.index >= 0, 'the hostile label names a series');
  assert.ok(tooltip.found > 0, 'the tooltip shows the hostile label as text');
  assert.equal(tooltip.imgs, 0, 'the tooltip holds no <img>');
  await page.waitForTimeout(200);

  const imgs = await page.evaluate(() => document.querySelectorAll('img').length);
  assert.equal(imgs, 0, 'the page holds no <img>');
  assert.equal(await page.locator('img[src="x"]').count(), 0);
  const scripts = await page.evaluate(() => document.querySelectorAll('script').length);
  assert.equal(scripts, 3, 'exactly the three inline scripts: ECharts, the data, report.js');
  await page.screenshot({ path: join(outDir, 'report-devices.png'), fullPage: true });
  await page.close();
});

test('a campaign of cells with long names and sizes: every label shown whole', { skip: skipReason }, async () => {
  // Six cells, each named by its parameters (long), stored by a sweep.
  const campaign = join(work, 'wide.toml');
  writeFileSync(campaign, '[campaign]\nname = "wide"\n[workload]\nengine = "null"\nrate = "2000"\n' +
    'time = "2s"\ninterval = "100ms"\n[matrix]\nsize = ["512M", "1G", "2G"]\n' +
    'distribution = ["uniform", "normal:10"]\n');
  flashmark(['sweep', campaign, '--db', db, '-q']);
  const campaigns = JSON.parse(flashmark(['list', '--campaigns', '--db', db, '--json']));
  const id = String(campaigns[campaigns.length - 1].id);
  const html = join(outDir, 'report-campaign.html');
  flashmark(['report', '--campaign', id, '--db', db, '--html', html]);
  const { page, data } = await openReport(html, 'report-campaign');
  assert.equal(data.groups.items.length, 6);
  // Every box's name is drawn, whole (wrapped, not cut, none skipped).
  const labels = await page.evaluate(() => {
    const texts = [];
    for (const el of window.flashmarkCharts.box.getZr().storage.getDisplayList(true)) {
      if (el.type === 'tspan' && el.style && el.style.text) texts.push(String(el.style.text));
    }
    return texts.join(' ');
  });
  for (const item of data.groups.items) {
    for (const word of item.name.split(' ')) {
      assert.ok(labels.includes(word), `the box label "${item.name}" lacks "${word}": ${labels}`);
    }
  }
  assert.ok(!labels.includes('...') && !labels.includes('…'), `a label was cut: ${labels}`);
  // The runs table, with its long tags, fits the page: no sideways scrolling.
  const runsTable = await page.evaluate(() => {
    const wrap = document.querySelector('#report .table-wrap');
    return { scroll: wrap.scrollWidth, client: wrap.clientWidth };
  });
  assert.ok(runsTable.scroll <= runsTable.client + 1, `the runs table scrolls: ${JSON.stringify(runsTable)}`);

  // Grouped by size: binary units on a log2 axis.
  const ids = data.runs.filter((r) => r.tags.distribution === 'uniform').map((r) => String(r.id));
  const sized = await openReport(report(ids, 'report-size.html', ['--by', 'size']), 'report-size');
  assert.equal(sized.data.groups.value_kind, 'bytes');
  assert.equal(sized.data.groups.x_axis, 'log2');
  const ticks = await sized.page.evaluate(() => {
    const chart = window.flashmarkCharts.median_vs_param;
    const axis = chart.getModel().getComponent('xAxis').axis;
    return axis.getViewLabels().map((l) => l.formattedLabel);
  });
  assert.deepEqual(ticks, ['512 MiB', '1 GiB', '2 GiB'], 'the cells\' sizes, in binary units, and no further');
  await sized.page.close();
  await page.close();
});

test('a 16-cell fill sweep: median vs size at the cells with every interval, runs named by size, one at a time', {
  skip: skipReason,
}, async () => {
  const campaign = join(work, 'fill.toml');
  writeFileSync(campaign, '[campaign]\nname = "fill"\n[workload]\nengine = "null"\nrate = "2000"\n' +
    'time = "1s"\ninterval = "100ms"\n[matrix]\nsize = "64M..1024M step 64M"\n');
  flashmark(['sweep', campaign, '--db', db, '-q']);
  const campaigns = JSON.parse(flashmark(['list', '--campaigns', '--db', db, '--json']));
  const id = String(campaigns[campaigns.length - 1].id);
  const html = join(outDir, 'report-fill.html');
  flashmark(['report', '--campaign', id, '--db', db, '--html', html, '--by', 'size']);
  const { page, data } = await openReport(html, 'report-fill');
  assert.equal(data.runs.length, 16);
  const values = data.groups.items.map((it) => it.value);
  assert.equal(values.length, 16);
  const shown = await page.evaluate(() => {
    const series = window.flashmarkCharts.timeseries.getOption();
    const chart = window.flashmarkCharts.median_vs_param;
    const axis = chart.getModel().getComponent('xAxis').axis;
    return {
      names: series.series.map((s) => s.name),
      others: Object.fromEntries(['iops_latency', 'latency_bands'].map((n) => {
        const o = window.flashmarkCharts[n].getOption();
        const selected = o.legend[0].selected || {};
        return [n, o.series.map((s) => s.name).filter((name) => selected[name] !== false)];
      })),
      legend: { mode: series.legend[0].selectedMode, selected: series.legend[0].selected || {} },
      ticks: axis.getViewLabels().map((l) => ({ text: l.formattedLabel, value: Number(l.tick ? l.tick.value : l.tickValue) })),
      extent: axis.scale.getExtent(),
      series: chart.getOption().series.map((s) => ({ name: s.name, type: s.type, points: s.data.length,
        labels: !!(s.label && s.label.show) })),
    };
  });
  // Runs named by what differs between them, not "fill #7".
  assert.deepEqual(shown.names, data.runs.map((r) => `size=${r.tags.size}`));
  // Sixteen runs on one time axis: one at a time, picked in the legend;
  // on the latency charts the first run's lines only, to begin with.
  assert.equal(shown.legend.mode, 'single');
  assert.equal(Object.values(shown.legend.selected).filter(Boolean).length, 1);
  for (const [chartName, lines] of Object.entries(shown.others)) {
    assert.deepEqual(lines, lines.length ? lines.filter((n) => n.startsWith('size=64M ')) : [],
      `${chartName} starts with the first run's lines only: ${lines}`);
    assert.ok(lines.length >= 2, `${chartName} shows ${lines}`);
  }
  // Ticks at the cells' sizes (in binary units), the axis no further than the clouds of the first and last cell.
  const tickValues = shown.ticks.map((t) => t.value);
  assert.ok(tickValues.length >= 8, `ticks: ${JSON.stringify(shown.ticks)}`);
  for (const v of tickValues) assert.ok(values.some((c) => Math.abs(c - v) < 1), `tick ${v} is no cell's size`);
  assert.ok(shown.ticks.every((t) => / (MiB|GiB)$/.test(t.text)), `ticks: ${JSON.stringify(shown.ticks)}`);
  const step = values[1] - values[0];
  const [lo, hi] = shown.extent;  // in data values, on a log axis too
  assert.ok(lo > values[0] - step / 2 && hi < values[15] + step / 2, `axis ${lo}..${hi}, cells ${values[0]}..${values[15]}`);
  // The medians labelled, over every interval of every cell.
  const median = shown.series.find((s) => s.name === 'median');
  assert.ok(median && median.labels, `series: ${JSON.stringify(shown.series)}`);
  const cloud = shown.series.find((s) => s.name === 'per interval');
  const intervals = data.groups.items.reduce((sum, it) => sum + it.box.count, 0);
  assert.ok(cloud && cloud.type === 'scatter' && cloud.points === intervals,
    `per-interval points: ${cloud && cloud.points}, intervals in the groups: ${intervals}`);
  await page.close();
});

test('flashmark beside sysbench at each thread count: never pooled, one line per tool', { skip: skipReason }, async () => {
  const ids = [1, 8].map((n) => makeRun(['--threads', String(n)]));
  const imported = flashmark(['import', 'sysbench', join(root, 'tests/fixtures/import/sysbench-rndrd-8threads.txt'),
    '--db', db, '--again']);
  const m = imported.match(/run (\d+) "/);
  assert.ok(m, `no run id in the import's output:\n${imported}`);
  const { page, data } = await openReport(report([...ids, m[1]], 'report-tools.html', ['--by', 'threads']),
    'report-tools');
  assert.deepEqual(data.groups.items.map((it) => it.name), ['1 (flashmark)', '8 (flashmark)', '8 (sysbench)']);
  const lines = await page.evaluate(() => window.flashmarkCharts.median_vs_param.getOption().series
    .map((s) => [s.name, s.data.length]));
  assert.deepEqual(lines, [['flashmark', 2], ['sysbench', 1]]);
  await page.close();
});

// The live view: `flashmark run --serve` while the run goes on. The page
// shows new intervals arriving, draws the heatmap and spectrum with no
// console error and fetches nothing but its own server; /metrics parses
// with the Prometheus project's OpenMetrics parser (Debian's
// python3-prometheus-client); a wrong token gets 401.
const PROMETHEUS_PARSER = spawnSync('python3', ['-c', 'import prometheus_client.openmetrics.parser'],
  { encoding: 'utf8' }).status === 0;

test('live view: intervals arrive while the run goes on, /metrics parses', { skip: skipReason }, async () => {
  const { spawn } = await import('node:child_process');
  const live = spawn(FLASHMARK, ['run', '--engine', 'null', '--mode', 'randrw', '--rate', '4000', '--time', '20s',
    '--interval', '500ms', '-q', '--db', db, '--tag', 'device=live', '--serve', '127.0.0.1:0',
    '--serve-token', 's3cret'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  live.stdout.on('data', (chunk) => { output += chunk; });
  live.stderr.on('data', (chunk) => { output += chunk; });
  const exited = new Promise((resolve) => live.on('exit', (code, signal) => resolve({ code, signal })));
  try {
    const deadline = Date.now() + 15_000;
    while (!/live view: (http\S+)/.test(output) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const url = (output.match(/live view: (http\S+)/) || [])[1];
    assert.ok(url, `no live view URL in the output:\n${output}`);
    const base = url.replace(/\?.*$/, '');
    assert.equal((await fetch(`${base}data.json?token=wrong`)).status, 401, 'a wrong token is refused');
    assert.equal((await fetch(`${base}metrics`)).status, 401, 'no token is refused');

    const page = await context.newPage();
    const problems = [];
    const foreign = [];
    page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`); });
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('request', (req) => { if (!req.url().startsWith(base)) foreign.push(req.url()); });
    await page.goto(url);
    await page.waitForFunction(() => document.body.dataset.ready === '1', null, { timeout: 30_000 });
    // Wait for a drawn run, then for more intervals than that.
    await page.waitForFunction(() => Number(document.body.dataset.intervals || 0) >= 2, null, { timeout: 15_000 });
    const first = Number(await page.evaluate(() => document.body.dataset.intervals));
    await page.waitForFunction((n) => Number(document.body.dataset.intervals) >= n + 3, first, { timeout: 15_000 });
    const later = Number(await page.evaluate(() => document.body.dataset.intervals));
    assert.ok(later >= first + 3, `intervals shown: ${first}, then ${later}`);
    const shown = await page.evaluate(() => ({
      status: (document.getElementById('live-status') || {}).textContent || '',
      charts: Object.keys(window.flashmarkCharts || {}),
      heat: window.flashmarkCharts.latency_heatmap.getOption().series[0].data.length,
      spectrum: window.flashmarkCharts.latency_spectrum.getOption().series[0].data.length,
    }));
    assert.match(shown.status, /run \d+ running: .* s left/, `status line: ${shown.status}`);
    // The runs table's status cell holds its word on one line.
    const statusLines = await page.evaluate(() => {
      const table = document.querySelector('#report table');
      const column = [...table.querySelectorAll('thead th')].findIndex((th) => th.textContent === 'status');
      const cell = table.querySelector('tbody tr').children[column];
      const range = document.createRange();
      range.selectNodeContents(cell);
      return { text: cell.textContent, lines: new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size };
    });
    assert.equal(statusLines.lines, 1, `the status cell "${statusLines.text}" wraps`);
    for (const chart of ['timeseries', 'latency_bands', 'latency_heatmap', 'latency_spectrum']) {
      assert.ok(shown.charts.includes(chart), `the live page draws ${chart}: ${shown.charts}`);
    }
    assert.ok(shown.heat > 0 && shown.spectrum > 0, `heatmap cells ${shown.heat}, spectrum points ${shown.spectrum}`);
    mkdirSync(outDir, { recursive: true });
    await page.screenshot({ path: join(outDir, 'live.png'), fullPage: true });
    assert.deepEqual(problems, [], 'the live page logs no error');
    assert.deepEqual(foreign, [], 'the live page fetches only from its server');
    await page.close();

    const metrics = await fetch(`${base}metrics`, { headers: { Authorization: 'Bearer s3cret' } });
    assert.equal(metrics.status, 200);
    assert.match(metrics.headers.get('content-type'), /^application\/openmetrics-text; version=1\.0\.0/);
    const text = await metrics.text();
    assert.match(text, /flashmark_iops\{run="\d+",tag_device="live"\} [0-9.e+]+\n/);
    if (!PROMETHEUS_PARSER) {
      console.log('# /metrics not parsed: python3-prometheus-client is missing (scripts/setup.sh installs it)');
    } else {
      const parsed = spawnSync('python3', ['-c', `
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
families = {f.name: f for f in text_string_to_metric_families(sys.stdin.read())}
for name in ('flashmark_iops', 'flashmark_latency_seconds', 'flashmark_ios', 'flashmark_running'):
    assert name in families, name
print(families['flashmark_ios'].samples[0].value, families['flashmark_running'].samples[0].value)
`], { input: text, encoding: 'utf8' });
      assert.equal(parsed.status, 0, `the OpenMetrics parser refused /metrics:\n${parsed.stderr}\n${text}`);
      const [ios, running] = parsed.stdout.trim().split(' ').map(Number);
      assert.ok(ios > 0 && running === 1, `parsed: ${parsed.stdout}`);
    }
  } finally {
    live.kill('SIGINT');
    await exited;
  }
});

process.on('exit', () => { rmSync(work, { recursive: true, force: true }); });

test('history: a regression marked on the chart, the levels drawn, a hostile label kept text', { skip: skipReason }, async () => {
  const historyDb = join(work, 'history.db');
  const runAt = (rate, label) => flashmark(['run', '--engine', 'null', '--rate', rate, '--time', '1s', '--interval',
    '100ms', '-q', '--db', historyDb, '--tag', 'device=card', '--label', label]);
  for (let i = 0; i < 5; i++) runAt('2000', `before ${i}`);
  for (let i = 0; i < 3; i++) runAt('1500', i === 2 ? XSS_LABEL : `after ${i}`);
  const html = join(outDir, 'history.html');
  flashmark(['history', '--db', historyDb, '--by', 'device=card', '--metric', 'iops', '--html', html]);

  const page = await context.newPage();
  const problems = [];
  const requests = [];
  const dialogs = [];
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(msg.text()); });
  page.on('pageerror', (err) => problems.push(err.message));
  page.on('request', (req) => requests.push(req.url()));
  page.on('dialog', async (dialog) => { dialogs.push(dialog.message()); await dialog.dismiss(); });
  await page.goto(pathToFileURL(html).href);
  const shown = await page.evaluate(() => {
    const svg = document.querySelector('svg');
    const texts = [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim()).map((t) => {
      const r = t.getBoundingClientRect();
      return { text: t.textContent, x: r.x, y: r.y, w: r.width, h: r.height };
    });
    const clashes = [];
    for (let i = 0; i < texts.length; i++) {
      for (let j = i + 1; j < texts.length; j++) {
        const a = texts[i];
        const b = texts[j];
        if (a.x + 1 < b.x + b.w && b.x + 1 < a.x + a.w && a.y + 1 < b.y + b.h && b.y + 1 < a.y + a.h) {
          clashes.push(`${a.text} / ${b.text}`);
        }
      }
    }
    return {
      points: svg.querySelectorAll('circle').length,
      texts: texts.map((t) => t.text),
      clashes,
      body: document.body.innerText,
      imgs: document.querySelectorAll('img').length,
    };
  });
  assert.deepEqual(problems, []);
  assert.deepEqual(requests, [pathToFileURL(html).href], 'the page fetches nothing but itself');
  assert.deepEqual(dialogs, []);
  assert.equal(shown.points, 8, 'one point per run');
  assert.ok(shown.texts.includes('1 run 6: -25.0 %'), `the change marked where it starts: ${shown.texts}`);
  assert.ok(shown.texts.some((t) => t.startsWith('level 2 (median 1500')), `the levels named: ${shown.texts}`);
  assert.deepEqual(shown.clashes, [], 'no two texts of the chart overlap');
  assert.ok(shown.body.includes(XSS_LABEL), 'the hostile label is shown as text');
  assert.equal(shown.imgs, 0);
  assert.match(shown.body, /newest run 8 .*a new level from run 6: -25\.0 %/);
  await page.screenshot({ path: join(outDir, 'history.png'), fullPage: true });
  await page.close();
});
