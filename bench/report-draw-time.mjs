// Opens a report in headless Chromium (Debian's, driven by playwright-core
// from web/node_modules) and prints how long it took until every chart was
// drawn (body[data-ready="1"]), median of N loads.
// Usage: node bench/report-draw-time.mjs REPORT.html [LOADS]
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const require = createRequire(new URL('../web/package.json', import.meta.url));
const { chromium } = require('playwright-core');
const [report, loadsText] = process.argv.slice(2);
const loads = Number(loadsText || 5);
const profile = mkdtempSync(join(tmpdir(), 'flashmark-chromium-'));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1400, height: 2000 },
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const times = [];
for (let i = 0; i < loads; i++) {
  const page = await browser.newPage();
  const start = performance.now();
  await page.goto('file://' + report);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 60000 });
  times.push(performance.now() - start);
  await page.close();
}
await browser.close();
rmSync(profile, { recursive: true, force: true });
times.sort((a, b) => a - b);
console.log(`draw times (ms): ${times.map((t) => t.toFixed(0)).join(' ')}; ` +
            `median ${times[Math.floor(times.length / 2)].toFixed(0)} ms`);
