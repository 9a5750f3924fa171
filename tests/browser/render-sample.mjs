// Builds a report page from web/report.html the way `flashmark report --html`
// does, from a report data JSON file instead of the store: for template work
// without the C++ side, and as the reference for the substitution.
//
//   node tests/browser/render-sample.mjs OUT.html [DATA.json]
//
// DATA.json defaults to tests/browser/sample-report-data.json. Each placeholder
// line of the template is replaced whole:
//   <!--FLASHMARK_ECHARTS-->  <script> + echarts.min.js + </script>
//   <!--FLASHMARK_DATA-->     <script type="application/json" id="report-data">
//                             + JSON with < > & as \u003c \u003e \u0026 + </script>
//   <!--FLASHMARK_APP-->      <script> + web/report.js + </script>
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
export const webDir = resolve(root, 'web');

// JSON text that can sit inside <script> without ending it.
export function escapeJsonForScript(json) {
  return json.replace(/[<>&]/g, (c) => '\\u00' + c.charCodeAt(0).toString(16).padStart(2, '0'));
}

export function renderReport(data) {
  const template = readFileSync(resolve(webDir, 'report.html'), 'utf8');
  const echartsJs = readFileSync(resolve(webDir, 'node_modules/echarts/dist/echarts.min.js'), 'utf8');
  const appJs = readFileSync(resolve(webDir, 'report.js'), 'utf8');
  for (const [name, text] of [['echarts.min.js', echartsJs], ['report.js', appJs]]) {
    if (/<\/script|<!--/i.test(text)) throw new Error(`${name} contains </script or <!-- and cannot be inlined as is`);
  }
  const json = typeof data === 'string' ? JSON.stringify(JSON.parse(data)) : JSON.stringify(data);
  const parts = {
    '<!--FLASHMARK_ECHARTS-->': `<script>${echartsJs}</script>`,
    '<!--FLASHMARK_DATA-->': `<script type="application/json" id="report-data">${escapeJsonForScript(json)}</script>`,
    '<!--FLASHMARK_APP-->': `<script>${appJs}</script>`,
  };
  const lines = template.split('\n');
  const found = new Set();
  const out = lines.map((line) => {
    const key = line.trim();
    if (Object.hasOwn(parts, key)) { found.add(key); return parts[key]; }
    return line;
  });
  for (const key of Object.keys(parts)) if (!found.has(key)) throw new Error(`template has no ${key} line`);
  return out.join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [outPath, dataPath = resolve(here, 'sample-report-data.json')] = process.argv.slice(2);
  if (!outPath) {
    console.error('usage: node tests/browser/render-sample.mjs OUT.html [DATA.json]');
    process.exit(2);
  }
  writeFileSync(outPath, renderReport(readFileSync(dataPath, 'utf8')));
  console.log(`wrote ${outPath} from ${dataPath}`);
}
