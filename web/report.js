// flashmark HTML report: reads the JSON in #report-data (schema
// "flashmark.report", version 1, produced by `flashmark report`) and draws
// the charts listed in its "charts" array with Apache ECharts (the global
// `echarts`, inlined before this script) plus plain DOM tables.
//
// Contract with the page and the tests:
//   - every user-supplied string (labels, tags, paths, models, command lines)
//     enters the DOM through textContent / text nodes only, and tooltips (the
//     one place ECharts writes HTML) escape everything they show;
//   - each chart lives in <div id="chart-NAME" class="chart">, its instance is
//     window.flashmarkCharts[NAME];
//   - document.body.dataset.ready is "1" once every chart has rendered
//     ("error" when the data could not be shown; the reason is on the page).
// Plain modern JavaScript, no build step: this file is embedded as is.
(function () {
  'use strict';

  const SCHEMA = 'flashmark.report';
  const SCHEMA_VERSION = 1;
  const CHART_ORDER = ['timeseries', 'cluster_heatmap', 'cluster_latency', 'latency_bands', 'replay_fidelity', 'latency_split', 'device_activity',
    'write_amplification',
    'latency_heatmap', 'iops_latency',
    'latency_distribution', 'latency_spectrum', 'box', 'latency_vs_param', 'median_vs_param', 'waf_vs_param', 'comparison'];
  // Colour-blind-safe, distinct on screen and in greyscale print.
  const PALETTE = ['#2f5fb3', '#e07b28', '#2a9d6f', '#c23b5a', '#7b5ea7',
    '#8c6d3f', '#d16ba5', '#5f6b7a', '#a89a1c', '#2aa0b8'];
  const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif';
  const AXIS_NAME_STYLE = { color: '#5d6678', fontSize: 12, fontWeight: 500 };
  // More runs than this on one time axis are shown one at a time.
  const MAX_OVERLAID = 6;

  // ---------------------------------------------------------------- helpers

  const isNum = (v) => typeof v === 'number' && Number.isFinite(v);
  const arr = (v) => (Array.isArray(v) ? v : []);
  const str = (v) => (v === null || v === undefined ? '' : String(v));

  // Escapes text for the HTML that ECharts tooltips render.
  function esc(v) {
    return str(v).replace(/[&<>"'`]/g, (c) => ({
      '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;',
    })[c]);
  }

  // General number: enough digits to read, no false precision.
  function fmtNum(v) {
    if (!isNum(v)) return '–';
    const a = Math.abs(v);
    if (a === 0) return '0';
    if (a >= 1000 || Number.isInteger(v)) return Math.round(v).toLocaleString('en-US');
    if (a >= 100) return v.toFixed(1);
    if (a >= 1) return v.toFixed(2);
    return String(Number(v.toPrecision(3)));
  }
  function fmtIops(v) {
    if (!isNum(v)) return '–';
    const a = Math.abs(v);
    if (a >= 1e6) return (v / 1e6).toFixed(2) + 'M';
    if (a >= 1e4) return (v / 1e3).toFixed(1) + 'k';
    if (a >= 1e3) return (v / 1e3).toFixed(2) + 'k';
    return fmtNum(v);
  }
  function fmtMs(v) {
    if (!isNum(v)) return '–';
    const a = Math.abs(v);
    if (a >= 100) return v.toFixed(0);
    if (a >= 10) return v.toFixed(1);
    if (a >= 1) return v.toFixed(2);
    if (a === 0) return '0';
    return String(Number(v.toPrecision(2)));
  }
  function fmtSec(v) {
    if (!isNum(v)) return '–';
    if (Math.abs(v) >= 100) return String(Math.round(v));
    return String(Number(v.toPrecision(3)));
  }
  // Axis ticks: as short as possible (8, 0.5, 12.5k).
  function fmtTick(v) {
    if (!isNum(v)) return '';
    const a = Math.abs(v);
    if (a >= 1e6) return `${Number((v / 1e6).toPrecision(3))}M`;
    if (a >= 1e3) return `${Number((v / 1e3).toPrecision(3))}k`;
    return String(Number(v.toPrecision(4)));
  }
  // Sizes in binary units: 512 MiB, 1.5 GiB (a size axis' ticks).
  function fmtBytes(v) {
    if (!isNum(v)) return '';
    const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
    let k = 0;
    let x = v;
    while (Math.abs(x) >= 1024 && k < units.length - 1) { x /= 1024; k += 1; }
    return `${Number(x.toPrecision(3))} ${units[k]}`;
  }
  const fmtPct = (v) => (isNum(v) ? v.toFixed(1) + ' %' : '–');
  const withUnit = (text, unit) => (unit ? text + ' ' + unit : text);
  const axisTitle = (name, unit) => (unit ? `${name} (${unit})` : name);

  // Creates an element; children may be nodes or strings (added as text).
  function el(tag, props, children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(props || {})) {
      if (v === undefined || v === null) continue;
      if (k === 'class') node.className = v;
      else if (k === 'text') node.textContent = str(v);
      else if (k === 'style') Object.assign(node.style, v);
      else node.setAttribute(k, str(v));
    }
    for (const c of [].concat(children === undefined ? [] : children)) {
      if (c === null || c === undefined || c === false) continue;
      node.append(c instanceof Node ? c : document.createTextNode(str(c)));
    }
    return node;
  }

  // A table: columns [{title, num}], rows of cells (string | Node | {text, class}).
  function table(columns, rows, className) {
    const thead = el('thead', {}, el('tr', {}, columns.map((c) =>
      el('th', { class: c.num ? 'num' : null, title: c.hint }, c.title))));
    const tbody = el('tbody', {}, rows.map((row) => el('tr', {}, row.map((cell, i) => {
      const cls = columns[i] && columns[i].num ? 'num' : '';
      if (cell instanceof Node) return el('td', { class: cls || null }, cell);
      if (cell && typeof cell === 'object') {
        return el('td', { class: [cls, cell.class].filter(Boolean).join(' ') || null, title: cell.title }, cell.text);
      }
      return el('td', { class: cls || null }, str(cell));
    }))));
    return el('div', { class: 'table-wrap' }, el('table', { class: className || null }, [thead, tbody]));
  }

  // Key/value table for [[key, value], ...] pairs.
  function kvTable(pairs) {
    const rows = arr(pairs).filter((p) => Array.isArray(p) && p.length >= 2)
      .map((p) => el('tr', {}, [el('th', {}, str(p[0])), el('td', {}, str(p[1]))]));
    return el('div', { class: 'table-wrap' }, el('table', { class: 'kv' }, el('tbody', {}, rows)));
  }

  function tagNodes(tags) {
    const entries = Object.entries(tags && typeof tags === 'object' ? tags : {});
    return entries.map(([k, v]) => el('span', { class: 'tag' }, `${k}=${str(v)}`));
  }

  // ------------------------------------------------------------- the model

  function loadData() {
    const node = document.getElementById('report-data');
    if (!node) throw new Error('the report has no data (#report-data is missing)');
    const data = JSON.parse(node.textContent);
    if (!data || data.schema !== SCHEMA) {
      throw new Error(`the data is not a ${SCHEMA} document (schema: ${str(data && data.schema)})`);
    }
    if (data.schema_version !== SCHEMA_VERSION) {
      throw new Error(`this page reads ${SCHEMA} version ${SCHEMA_VERSION}; the data is version ${str(data.schema_version)}`);
    }
    return data;
  }

  // The configuration table's workload settings that tell runs apart when
  // their tags do not, [row name, name in a run's name].
  const DIFFERING_SETTINGS = [['mode', 'mode'], ['threads', 'threads'], ['iodepth', 'iodepth'], ['block size', 'bs'],
    ['file set', 'files'], ['offset range', 'range'], ['engine', 'engine'], ['direct IO', 'direct'],
    ['distribution', 'distribution']];

  // The settings in which some of `runs` differ, as [key, value of each run]:
  // their tags (a sweep's cells are tagged with their parameters), else the
  // workload settings of their configuration tables.
  function differences(runs) {
    const tagKeys = [...new Set(runs.flatMap((r) => Object.keys(r.tags || {})))]
      .filter((k) => !SWEEP_TAGS.includes(k));
    const tagged = tagKeys.map((k) => [k, runs.map((r) => str((r.tags || {})[k]))]);
    const config = (r, key) => {
      const pair = arr(r.config).find((p) => Array.isArray(p) && str(p[0]) === key);
      return pair ? str(pair[1]) : '';
    };
    const set = DIFFERING_SETTINGS.map(([row, k]) => [k, runs.map((r) => config(r, row))]);
    const differ = ([, values]) => new Set(values).size > 1;
    const found = tagged.filter(differ);
    return found.length ? found : set.filter(differ);
  }

  // The tags a sweep gives each cell's run to find it again (which
  // campaign, which cell): never what a cell is about.
  const SWEEP_TAGS = ['campaign', 'cell'];

  // A run's name before it is told apart from the others: its label, where
  // a sweep's own label ("fill-sweep #7": the campaign's name and the
  // cell) counts as the campaign's name, shared by its cells.
  function sharedName(r) {
    const label = str(r.label);
    const m = label.match(/^(.*) #(\d+)$/);
    if (m && str((r.tags || {}).cell) === m[2]) return m[1];
    return label || str(r.name) || `run ${str(r.id)}`;
  }

  // Legend / table names, unique per run: the label when there is one;
  // runs that share it (a sweep's cells) are named by what differs between
  // them ("size=290M threads=8"; the shared name in front where other runs
  // do not share it), and only when nothing does by "#id".
  function runNames(runs) {
    const base = runs.map(sharedName);
    const named = runs.map((r, i) => str(r.label) || str(r.name) || base[i]);
    for (const b of new Set(base)) {
      const members = runs.map((r, i) => i).filter((i) => base[i] === b);
      if (members.length < 2) continue;
      const keys = differences(members.map((i) => runs[i]));
      members.forEach((i, m) => {
        const what = keys.map(([k, values]) => (values[m] ? `${k}=${values[m]}` : '')).filter(Boolean).join(' ');
        named[i] = !what ? b : members.length === runs.length ? what : `${b} ${what}`;
      });
    }
    const seen = new Map();
    named.forEach((n) => seen.set(n, (seen.get(n) || 0) + 1));
    return named.map((n, i) => (seen.get(n) > 1 ? `${n} #${str(runs[i].id)}` : n));
  }

  // The runs' headline metric; where they differ (a write run beside a read
  // run) the kind they share ("throughput"), and `mixed` so that each run's
  // own metric is named beside its median.
  function headline(data) {
    const summaries = arr(data.runs).map((r) => r.summary || {});
    const s = summaries[0] || {};
    const metric = str(s.metric) || 'throughput';
    const mixed = summaries.some((o) => str(o.metric) && str(o.metric) !== metric);
    if (!mixed) return { metric, unit: str(s.unit), mixed };
    const shared = summaries.every((o) => str(o.metric).endsWith('throughput')) ? 'throughput' : 'headline';
    const units = new Set(summaries.map((o) => str(o.unit)));
    return { metric: shared, unit: units.size === 1 ? str(s.unit) : '', mixed };
  }

  // ------------------------------------------------------- chart options

  function baseOption(extra) {
    return Object.assign({
      animation: false,
      color: PALETTE,
      textStyle: { fontFamily: FONT },
      // The toolbox has the top row to itself; the legend the row below it,
      // so neither ever covers the other (nor the data).
      grid: { left: 78, right: 36, top: 72, bottom: 62 },
      legend: { type: 'scroll', top: 30, left: 70, right: 36, textStyle: { fontSize: 12 } },
      tooltip: {
        confine: true,
        renderMode: 'html',
        backgroundColor: 'rgba(255,255,255,0.97)',
        borderColor: '#c4cad5',
        textStyle: { color: '#1d2330', fontSize: 12 },
      },
      toolbox: {
        right: 10, top: 4, itemSize: 14,
        feature: { saveAsImage: { title: 'save as PNG', pixelRatio: 2, name: 'flashmark-chart' } },
      },
    }, extra);
  }

  function timeZoom(option) {
    option.dataZoom = [
      { type: 'inside', xAxisIndex: 0, filterMode: 'none' },
      { type: 'slider', xAxisIndex: 0, filterMode: 'none', height: 18, bottom: 8,
        labelFormatter: (v) => fmtSec(v) + ' s' },
    ];
    option.grid.bottom = 84;
    option.toolbox.feature.dataZoom = { yAxisIndex: 'none', title: { zoom: 'zoom', back: 'undo zoom' } };
    option.toolbox.feature.restore = { title: 'reset' };
    return option;
  }

  // The time axis from 0 to the end of the runs. An end just past a tick
  // (a replay's last partial interval: 4.101 s after the tick at 4) gets
  // no label of its own, which would sit on that tick's: the ticks' step
  // is ECharts' (a round span / 5).
  function timeAxis(maxT) {
    const end = isNum(maxT) && maxT > 0 ? maxT : null;
    let hideEnd = false;
    if (end) {
      const raw = end / 5;
      const decade = Math.pow(10, Math.floor(Math.log10(raw)));
      const f = raw / decade;
      const step = decade * (f < 1.5 ? 1 : f < 2.5 ? 2 : f < 4 ? 3 : f < 7 ? 5 : 10);
      const past = end - Math.floor(end / step + 1e-9) * step;
      hideEnd = past > 1e-9 * end && past < step / 2;
    }
    const formatter = (v) => (hideEnd && Math.abs(v - end) <= 1e-9 * end ? '' : fmtTick(v));
    return {
      type: 'value', name: 'time since start (s)', nameLocation: 'middle', nameGap: 28,
      nameTextStyle: AXIS_NAME_STYLE, min: 0, max: end,
      axisLabel: { formatter }, splitLine: { show: false },
    };
  }

  function valueAxis(name, extra) {
    return Object.assign({
      type: 'value', name, nameLocation: 'middle', nameGap: 56, nameTextStyle: AXIS_NAME_STYLE,
      axisLabel: { formatter: fmtTick },
      splitLine: { lineStyle: { color: '#eceff3' } },
    }, extra);
  }

  function maxTime(runs) {
    let m = 0;
    for (const r of runs) for (const t of arr(r.series && r.series.t)) if (isNum(t) && t > m) m = t;
    return m;
  }

  // Tooltip line: a coloured marker, a name and a value (all escaped).
  const tipLine = (marker, name, value) =>
    `${marker || ''}${esc(name)}&nbsp;&nbsp;<b>${esc(value)}</b>`;
  const tipHead = (text) => `<div style="color:#5d6678;margin-bottom:2px">${esc(text)}</div>`;

  // The headline's window [from, to] in run seconds: where its median line
  // is drawn (the last point's time when the data has no window).
  function headlineSpan(run, points) {
    const h = run.headline || {};
    const last = points.length ? points[points.length - 1][0] : 0;
    const from = isNum(h.start_seconds) ? h.start_seconds : 0;
    const to = isNum(h.end_seconds) && h.end_seconds > from ? h.end_seconds : Math.max(from, last);
    return [from, to];
  }

  // What the headline leaves out before its window, as [kind, from, to]
  // spans, kind 'warm-up' or 'earlier regime'. A fixed warm-up (--warmup
  // 6s) is all warm-up, from 0, and a final regime that starts after it
  // leaves an earlier regime between; an automatic one is the start of the
  // final regime, whatever came before that being another regime.
  function leftOut(run) {
    const ss = run.steady_state || {};
    const h = run.headline || {};
    const end = isNum(ss.warmup_end) ? ss.warmup_end : 0;
    const regime = isNum(h.regime_start_seconds) ? h.regime_start_seconds : 0;
    const spans = [];
    if (str(ss.warmup_mode) === 'fixed') {
      if (end > 0) spans.push(['warm-up', 0, end]);
      if (regime > end) spans.push(['earlier regime', end, regime]);
      return spans;
    }
    const start = Math.min(regime, end);
    if (start > 0) spans.push(['earlier regime', 0, start]);
    if (end > start) spans.push(['warm-up', start, end]);
    return spans;
  }

  // The on-chart mark of the k-th change of a run: short, so that it fits
  // above the plot beside its neighbours.
  const changeMark = (k) => `change ${k + 1}`;

  function timeseriesChart(ctx) {
    const { runs, names, colors } = ctx;
    const warmupsDrawn = new Set();
    const longestWarmup = Math.max(0, ...runs.map((r) => (r.steady_state && isNum(r.steady_state.warmup_end)
      ? r.steady_state.warmup_end : 0)));
    const series = runs.map((run, i) => {
      const s = run.series || {};
      const t = arr(s.t), v = arr(s.value);
      const points = [];
      for (let k = 0; k < t.length && k < v.length; k++) if (isNum(t[k]) && isNum(v[k])) points.push([t[k], v[k]]);
      const sum = run.summary || {};
      const unit = str(sum.unit);
      const lines = [];
      if (isNum(sum.median)) {
        // Over the headline's window only (the final regime after its
        // warm-up), never across what it leaves out. One run: labelled on
        // the chart; several: in the legend (labels of close medians would
        // overlap).
        const own = ctx.headline.mixed && str(sum.metric) ? `${str(sum.metric)} ` : '';
        const [from, to] = headlineSpan(run, points);
        lines.push([{ coord: [from, sum.median], name: `${own}median ${fmtNum(sum.median)}${unit ? ' ' + unit : ''}`,
          label: { show: runs.length === 1, position: 'insideEndTop' }, lineStyle: { type: 'solid', width: 2 } },
        { coord: [to, sum.median] }]);
      }
      // Changes: a short numbered label above the plot (never on the
      // points), the full text in the tooltip and the run's changes table.
      arr(run.changes).filter((c) => c && isNum(c.t)).forEach((c, k) => {
        lines.push({ xAxis: c.t, name: str(c.text) || 'change',
          label: { position: 'end', distance: 4, formatter: () => changeMark(k) },
          lineStyle: { type: 'dashed', width: 1, color: '#5d6678' } });
      });
      const regimes = arr(run.regimes).filter((r) => r && isNum(r.start) && isNum(r.end) && isNum(r.median));
      if (regimes.length > 1) {
        for (const r of regimes) {
          lines.push([
            { coord: [r.start, r.median], name: `regime ${fmtSec(r.start)}–${fmtSec(r.end)} s: median ${fmtNum(r.median)}${unit ? ' ' + unit : ''}`,
              lineStyle: { type: 'dotted', width: 2.5 }, label: { show: false } },
            { coord: [r.end, r.median] },
          ]);
        }
      }
      const ss = run.steady_state || {};
      const areas = [];
      if (isNum(ss.warmup_end) && ss.warmup_end > 0 && !warmupsDrawn.has(ss.warmup_end)) {
        warmupsDrawn.add(ss.warmup_end);
        // One label only (on the longest warm-up) when runs differ.
        const label = { show: ss.warmup_end === longestWarmup };
        for (const [kind, from, to] of leftOut(run)) {
          const what = kind === 'warm-up' ? 'warm-up' : 'earlier regime';
          // One run: the warm-up tinted apart from an earlier regime beside it.
          const tint = runs.length === 1 && kind === 'warm-up' ? { itemStyle: { color: 'rgba(224,123,40,0.13)' } } : {};
          areas.push([Object.assign({ xAxis: from, name: `${what} ${names[i]}: ${fmtSec(from)}–${fmtSec(to)} s, not in the headline`,
            label }, tint), { xAxis: to }]);
        }
      }
      return {
        type: 'scatter', name: names[i], data: points,
        symbolSize: points.length > 3000 ? 2.5 : points.length > 600 ? 3.5 : 5,
        large: points.length > 5000, largeThreshold: 5000,
        itemStyle: { color: colors[i], opacity: 0.75 },
        emphasis: { scale: 1.8 },
        markLine: {
          symbol: ['none', 'none'], silent: false, precision: 6,
          lineStyle: { color: colors[i] },
          label: { color: colors[i], fontSize: 11, formatter: (p) => str(p.name) },
          emphasis: { label: { show: true } },
          data: lines,
        },
        markArea: areas.length ? {
          silent: false,
          itemStyle: { color: runs.length === 1 ? 'rgba(93,102,120,0.10)' : colors[i], opacity: runs.length === 1 ? 1 : 0.07 },
          label: { show: true, position: 'insideTop', color: '#5d6678', fontSize: 11,
            formatter: (p) => (str(p.name).startsWith('earlier') ? 'earlier regime' : 'warm-up') },
          data: areas,
        } : undefined,
      };
    });
    const { metric, unit } = ctx.headline;
    const option = timeZoom(baseOption({
      xAxis: timeAxis(maxTime(runs)),
      yAxis: valueAxis(axisTitle(metric, unit), { min: 0 }),
      tooltip: Object.assign(baseOption().tooltip, {
        trigger: 'item',
        formatter: (p) => {
          if (p.componentType === 'markLine' || p.componentType === 'markArea') {
            return tipHead(p.seriesName) + esc(p.name);
          }
          const v = p.value || [];
          return tipHead(`${p.seriesName} · t = ${fmtSec(v[0])} s`) +
            tipLine(p.marker, metric, withUnit(fmtNum(v[1]), unit));
        },
      }),
      series,
    }));
    if (runs.length > MAX_OVERLAID) {
      // Many runs (a 16-cell sweep): one at a time, picked in the legend;
      // its medians are the group charts'.
      option.legend.selectedMode = 'single';
      option.legend.selected = Object.fromEntries(names.map((n, i) => [n, i === 0]));
    }
    if (runs.length > 1) {
      const summaries = new Map(runs.map((run, i) => [names[i], run.summary || {}]));
      option.legend.formatter = (name) => {
        const sum = summaries.get(name) || {};
        if (!isNum(sum.median)) return name;
        const own = ctx.headline.mixed && str(sum.metric) ? `${str(sum.metric)} ` : '';
        return `${name} · ${own}median ${withUnit(fmtNum(sum.median), str(sum.unit) || unit)}`;
      };
    }
    return { option, seriesCount: series.length };
  }

  function iopsLatencyChart(ctx) {
    const { runs, names, colors } = ctx;
    const single = runs.length === 1;
    const series = [];
    const meta = [];
    let latMin = Infinity, latMax = 0;
    runs.forEach((run, i) => {
      const s = run.series || {};
      const t = arr(s.t);
      const pick = (values) => t.map((tt, k) => [tt, isNum(values[k]) ? values[k] : '-']);
      for (const key of ['p95_ms', 'p99_ms']) {
        for (const v of arr(s[key])) if (isNum(v) && v > 0) { latMin = Math.min(latMin, v); latMax = Math.max(latMax, v); }
      }
      const prefix = single ? '' : names[i] + ' ';
      const defs = [
        { key: 'iops', label: 'IOPS', axis: 0, dash: 'solid', width: 1.6, color: single ? PALETTE[0] : colors[i] },
        { key: 'p95_ms', label: 'p95 latency', axis: 1, dash: 'dashed', width: 1.3, color: single ? PALETTE[1] : colors[i] },
        { key: 'p99_ms', label: 'p99 latency', axis: 1, dash: 'dotted', width: 1.6, color: single ? PALETTE[3] : colors[i] },
      ];
      for (const d of defs) {
        const data = pick(arr(s[d.key]));
        series.push({
          type: 'line', name: prefix + d.label, yAxisIndex: d.axis, data,
          showSymbol: false, symbolSize: 4, sampling: data.length > 2000 ? 'lttb' : undefined,
          lineStyle: { type: d.dash, width: d.width, color: d.color }, itemStyle: { color: d.color },
          emphasis: { focus: 'series' },
        });
        meta.push({ run: names[i], what: d.label, ms: d.axis === 1 });
      }
    });
    const useLog = latMax > 0 && latMin < Infinity && latMax / latMin > 100;
    // No latency at all (imports without histograms): IOPS alone, no empty axis.
    const noLatency = latMax === 0;
    if (noLatency) {
      for (let k = series.length - 1; k >= 0; k--) {
        if (meta[k].ms) { series.splice(k, 1); meta.splice(k, 1); }
      }
    }
    const option = timeZoom(baseOption({
      xAxis: timeAxis(maxTime(runs)),
      yAxis: [
        valueAxis('IOPS', { min: 0, axisLabel: { formatter: fmtTick } }),
      ].concat(noLatency ? [] : [
        valueAxis(useLog ? 'latency (ms, log scale)' : 'latency (ms)', {
          type: useLog ? 'log' : 'value', min: useLog ? undefined : 0, position: 'right', nameGap: 46,
          nameRotate: 270, splitLine: { show: false }, axisLabel: { formatter: fmtTick },
        }),
      ]),
      tooltip: Object.assign(baseOption().tooltip, {
        trigger: 'axis',
        axisPointer: { type: 'line' },
        formatter: (ps) => {
          const list = [].concat(ps);
          if (!list.length) return '';
          const t = (list[0].value || [])[0];
          const rows = list.map((p) => {
            const m = meta[p.seriesIndex] || {};
            const v = (p.value || [])[1];
            return tipLine(p.marker, p.seriesName, m.ms ? withUnit(fmtMs(v), 'ms') : fmtIops(v));
          });
          return tipHead(`t = ${fmtSec(t)} s`) + rows.join('<br>');
        },
      }),
      series,
    }));
    option.grid.right = 78;
    if (!single) {
      // Nine lines and more are unreadable: p95 starts hidden (its legend
      // entry shows it); with many runs, every run but the first too.
      option.legend.selected = Object.fromEntries(series.map((s, k) => [s.name,
        meta[k].what !== 'p95 latency' && (runs.length <= MAX_OVERLAID || meta[k].run === names[0])]));
    }
    return { option, seriesCount: series.length };
  }

  function latencyDistributionChart(ctx) {
    const { runs, names, colors } = ctx;
    const series = runs.map((run, i) => {
      const cdf = run.latency_cdf || {};
      const ms = arr(cdf.ms), fr = arr(cdf.fraction);
      const data = [];
      for (let k = 0; k < ms.length && k < fr.length; k++) if (isNum(ms[k]) && ms[k] > 0 && isNum(fr[k])) data.push([ms[k], fr[k]]);
      return {
        type: 'line', name: names[i], data, showSymbol: false, symbolSize: 4,
        lineStyle: { width: 2, color: colors[i] }, itemStyle: { color: colors[i] },
        emphasis: { focus: 'series' },
      };
    }).filter((s) => s.data.length > 0);  // a run without histograms (an import) has none: the notes say so
    const option = baseOption({
      xAxis: {
        type: 'log', name: 'latency (ms, log scale)', nameLocation: 'middle', nameGap: 28,
        nameTextStyle: AXIS_NAME_STYLE, axisLabel: { formatter: fmtTick },
        splitLine: { show: true, lineStyle: { color: '#f0f2f5' } }, minorTick: { show: true },
      },
      yAxis: valueAxis('IOs completed within (%)', {
        min: 0, max: 1, interval: 0.1, axisLabel: { formatter: (v) => Math.round(v * 100) + ' %' },
      }),
      tooltip: Object.assign(baseOption().tooltip, {
        trigger: 'item',
        formatter: (p) => {
          const v = p.value || [];
          return tipHead(p.seriesName) +
            tipLine(p.marker, `${fmtPct(v[1] * 100)} of IOs within`, withUnit(fmtMs(v[0]), 'ms'));
        },
      }),
      series: series.map((s) => Object.assign(s, { showSymbol: true, symbolSize: 3 })),
    });
    return { option, seriesCount: series.length };
  }

  // x axis for group charts: numeric values when every item has one.
  // Category labels: every one shown, wrapped at spaces within its share of
  // the width (a long cell name takes two or three lines, never cut).
  function categoryLabels(count) {
    return { interval: 0, width: Math.max(70, Math.floor(1060 / Math.max(1, count)) - 12),
      overflow: 'break', lineHeight: 14, hideOverlap: false };
  }

  // The x axis of a numeric group chart: from the first cell's value to
  // the last's (never past them), ticked and labelled at the cells' values
  // themselves (every other one, and so on, where they would not fit).
  // Sizes in binary units; powers of two over a wide span on a log2 axis.
  // Returns the axis, x of an item, and jitter(x, k): x moved a little
  // (deterministically, by k) so that an item's cloud of points spreads.
  function paramAxis(groups) {
    const items = arr(groups.items);
    const numeric = !!groups.numeric && items.length > 0 && items.every((it) => isNum(it.value));
    const name = str(groups.by) || 'group';
    const xOf = (it, i) => (numeric ? it.value : i);
    const formatter = str(groups.value_kind) === 'bytes' ? fmtBytes : fmtTick;
    const values = [...new Set(items.map((it) => it.value))].sort((a, b) => a - b);
    const log2 = numeric && str(groups.x_axis) === 'log2';
    const lo = Math.min(...values), hi = Math.max(...values);
    // About 70 px a label on a plot about 1200 px wide.
    const every = Math.max(1, Math.ceil(values.length / 16));
    const shown = values.filter((v, k) => k % every === 0);
    // Spread: a fifth of the smallest gap between cells (a log gap on log2).
    const gaps = values.slice(1).map((v, k) => (log2 ? Math.log2(v / values[k]) : v - values[k]));
    const gap = gaps.length ? Math.min(...gaps) : (log2 ? 1 : Math.abs(lo) || 1);
    const move = (x, by) => (log2 ? x * 2 ** (gap * by) : x + gap * by);
    const jitter = (x, k) => {
      const u = ((k * 0.6180339887) % 1) - 0.5;  // evenly spread in [-0.5, 0.5)
      return numeric ? move(x, 0.2 * u) : x + 0.3 * u;
    };
    // The axis ends where the first and last cells' clouds of points do.
    const axis = !numeric
      ? { type: 'category', data: items.map((it) => str(it.name)) }
      : Object.assign(log2 ? { type: 'log', logBase: 2 } : { type: 'value' }, {
        min: move(lo, -0.11), max: move(hi, 0.11),
        axisLabel: { formatter, customValues: shown, hideOverlap: true },
        axisTick: { customValues: shown },
      });
    Object.assign(axis, { name, nameLocation: 'middle', nameGap: 28, nameTextStyle: AXIS_NAME_STYLE,
      splitLine: { show: false } });
    return { axis, xOf, numeric, jitter };
  }

  // The per-interval values each group's median is taken from: those of
  // its runs inside each run's headline window, as [x, value] points
  // spread a little around the group's x.
  function groupPoints(ctx, items, xOf, jitter) {
    const byId = new Map(ctx.runs.map((r) => [str(r.id), r]));
    const points = [];
    items.forEach((it, i) => {
      let k = 0;
      for (const id of arr(it.runs)) {
        const run = byId.get(str(id));
        if (!run) continue;
        const s = run.series || {};
        const h = run.headline || {};
        const t = arr(s.t), v = arr(s.value);
        const from = isNum(h.start_seconds) ? h.start_seconds : -Infinity;
        const to = isNum(h.end_seconds) ? h.end_seconds : Infinity;
        for (let j = 0; j < t.length; j++) {
          // t is an interval's end: inside the window when start < t <= end.
          if (isNum(v[j]) && t[j] > from && t[j] <= to + 1e-9) points.push([jitter(xOf(it, i), k++), v[j]]);
        }
      }
    });
    return points;
  }

  function boxChart(ctx) {
    const groups = ctx.data.groups;
    const items = arr(groups.items);
    const metric = ctx.headline.metric;
    const unit = str(groups.unit) || ctx.headline.unit;
    const boxData = items.map((it) => {
      const b = it.box || {};
      return [b.lower_whisker, b.q1, b.median, b.q3, b.upper_whisker].map((v) => (isNum(v) ? v : 0));
    });
    const outliers = [];
    items.forEach((it, i) => {
      for (const o of arr(it.box && it.box.outliers)) if (isNum(o)) outliers.push([i, o]);
    });
    const option = baseOption({
      xAxis: {
        type: 'category', data: items.map((it) => str(it.name)),
        name: str(groups.by) || 'group', nameLocation: 'middle', nameGap: 44,
        nameTextStyle: AXIS_NAME_STYLE, boundaryGap: true, splitLine: { show: false },
        axisLabel: categoryLabels(items.length),
      },
      grid: Object.assign(baseOption().grid, { bottom: 84 }),
      yAxis: valueAxis(axisTitle(metric, unit), { min: 0 }),
      tooltip: Object.assign(baseOption().tooltip, {
        trigger: 'item',
        formatter: (p) => {
          const it = items[p.seriesIndex === 0 ? p.dataIndex : (outliers[p.dataIndex] || [])[0]] || {};
          const b = it.box || {};
          if (p.seriesIndex !== 0) {
            return tipHead(`${str(groups.by)} ${str(it.name)}`) +
              tipLine(p.marker, 'outlier', withUnit(fmtNum((p.value || [])[1]), unit));
          }
          const rows = [
            ['upper whisker', b.upper_whisker], ['p75 (Q3)', b.q3], ['median', b.median],
            ['p25 (Q1)', b.q1], ['lower whisker', b.lower_whisker],
          ].map(([k, v]) => tipLine('', k, withUnit(fmtNum(v), unit)));
          rows.push(tipLine('', 'intervals', fmtNum(b.count)));
          rows.push(tipLine('', 'outliers', String(arr(b.outliers).length)));
          return tipHead(`${str(groups.by)} ${str(it.name)}`) + rows.join('<br>');
        },
      }),
      series: [
        { type: 'boxplot', name: `per-interval ${metric}`, data: boxData, boxWidth: ['20%', '55%'],
          itemStyle: { color: 'rgba(47,95,179,0.16)', borderColor: PALETTE[0], borderWidth: 1.5 } },
        { type: 'scatter', name: 'outliers (beyond 1.5 IQR)', data: outliers, symbolSize: 5,
          itemStyle: { color: PALETTE[3], opacity: 0.7 } },
      ],
    });
    return { option, seriesCount: 2 };
  }

  // The tools of the groups when they mix tools (flashmark beside fio or
  // sysbench at each parameter value): one line per tool then.
  function groupTools(items) {
    const tools = [];
    for (const it of items) if (typeof it.tool === 'string' && !tools.includes(it.tool)) tools.push(it.tool);
    return tools.length > 1 ? tools : [];
  }

  function toolItemTip(groups, unit, fmt) {
    return (p) => {
      const it = (p.data && p.data.item) || {};
      return tipHead(`${str(groups.by)} ${str(it.name)}`) + tipLine(p.marker, p.seriesName, withUnit(fmt((p.value || [])[1]), unit));
    };
  }

  function latencyVsParamChart(ctx) {
    const groups = ctx.data.groups;
    const items = arr(groups.items);
    const { axis, xOf } = paramAxis(groups);
    const tools = groupTools(items);
    if (tools.length) {
      const series = [];
      tools.forEach((tool, k) => {
        const mine = items.filter((it) => it.tool === tool);
        for (const [key, dash] of [['p95_ms', 'solid'], ['p99_ms', 'dashed']]) {
          series.push({
            type: 'line', name: `${tool} ${key.slice(0, 3)}`, symbol: 'circle', symbolSize: 7,
            lineStyle: { width: 2, color: PALETTE[k % PALETTE.length], type: dash },
            itemStyle: { color: PALETTE[k % PALETTE.length] },
            data: mine.map((it) => ({ value: [it.value, isNum(it[key]) ? it[key] : '-'], item: it })),
          });
        }
      });
      const option = baseOption({
        xAxis: axis,
        yAxis: valueAxis('response time (ms)', { min: 0, axisLabel: { formatter: fmtTick } }),
        tooltip: Object.assign(baseOption().tooltip, { trigger: 'item', formatter: toolItemTip(groups, 'ms', fmtMs) }),
        series,
      });
      return { option, seriesCount: series.length };
    }
    const mk = (key, label, color, dash) => ({
      type: 'line', name: label, data: items.map((it, i) => [xOf(it, i), isNum(it[key]) ? it[key] : '-']),
      symbol: 'circle', symbolSize: 7, lineStyle: { width: 2, color, type: dash }, itemStyle: { color },
      label: { show: items.length <= 12, position: 'top', fontSize: 11, color, formatter: (p) => fmtMs((p.value || [])[1]) },
    });
    const option = baseOption({
      xAxis: axis,
      yAxis: valueAxis('response time (ms)', { min: 0, axisLabel: { formatter: fmtTick } }),
      tooltip: Object.assign(baseOption().tooltip, {
        trigger: 'axis',
        formatter: (ps) => {
          const list = [].concat(ps);
          const it = items[list.length ? list[0].dataIndex : -1] || {};
          return tipHead(`${str(groups.by)} ${str(it.name)}`) +
            list.map((p) => tipLine(p.marker, p.seriesName, withUnit(fmtMs((p.value || [])[1]), 'ms'))).join('<br>');
        },
      }),
      series: [mk('p95_ms', 'p95 latency', PALETTE[1], 'solid'), mk('p99_ms', 'p99 latency', PALETTE[3], 'dashed')],
    });
    return { option, seriesCount: 2 };
  }

  function medianVsParamChart(ctx) {
    const groups = ctx.data.groups;
    const items = arr(groups.items);
    const { axis, xOf, jitter } = paramAxis(groups);
    const metric = ctx.headline.metric;
    const unit = str(groups.unit) || ctx.headline.unit;
    const ok = (it) => isNum(it.p25) && isNum(it.p75);
    const tools = groupTools(items);
    if (tools.length) {
      const series = tools.map((tool, k) => ({
        type: 'line', name: tool, symbol: 'circle', symbolSize: 7,
        lineStyle: { width: 2.2, color: PALETTE[k % PALETTE.length] },
        itemStyle: { color: PALETTE[k % PALETTE.length] },
        label: { show: items.length <= 12, position: 'top', fontSize: 11, formatter: (p) => fmtNum((p.value || [])[1]) },
        data: items.filter((it) => it.tool === tool)
          .map((it) => ({ value: [it.value, isNum(it.median) ? it.median : '-'], item: it })),
      }));
      const option = baseOption({
        xAxis: axis,
        yAxis: valueAxis(axisTitle(`median ${metric}`, unit), { min: 0 }),
        legend: Object.assign(baseOption().legend, { data: tools }),
        tooltip: Object.assign(baseOption().tooltip, { trigger: 'item', formatter: toolItemTip(groups, unit, fmtNum) }),
        series,
      });
      return { option, seriesCount: series.length };
    }
    const points = groupPoints(ctx, items, xOf, jitter);
    const option = baseOption({
      xAxis: axis,
      yAxis: valueAxis(axisTitle(`median ${metric}`, unit), { min: 0 }),
      legend: Object.assign(baseOption().legend, { data: ['median', 'p25–p75', 'per interval'] }),
      tooltip: Object.assign(baseOption().tooltip, {
        trigger: 'axis',
        formatter: (ps) => {
          const list = [].concat(ps);
          const it = items[list.length ? list[0].dataIndex : -1] || {};
          return tipHead(`${str(groups.by)} ${str(it.name)}`) + [
            tipLine('', 'median', withUnit(fmtNum(it.median), unit)),
            tipLine('', 'p75', withUnit(fmtNum(it.p75), unit)),
            tipLine('', 'p25', withUnit(fmtNum(it.p25), unit)),
          ].join('<br>');
        },
      }),
      series: [
        // The band: an invisible p25 line with (p75 - p25) stacked on top of it.
        { type: 'line', name: 'p25', stack: 'band', silent: true, symbol: 'none',
          lineStyle: { opacity: 0 }, tooltip: { show: false },
          data: items.map((it, i) => [xOf(it, i), ok(it) ? it.p25 : '-']) },
        { type: 'line', name: 'p25–p75', stack: 'band', silent: true, symbol: 'none',
          lineStyle: { opacity: 0 }, areaStyle: { color: PALETTE[0], opacity: 0.18 },
          itemStyle: { color: 'rgba(47,95,179,0.35)' },
          data: items.map((it, i) => [xOf(it, i), ok(it) ? it.p75 - it.p25 : '-']) },
        // Every interval of every run, spread around its cell (the
        // FusionIO study's figure), under the median.
        { type: 'scatter', name: 'per interval', data: points, silent: true, z: 1,
          symbolSize: points.length > 3000 ? 2 : 3, large: points.length > 5000,
          itemStyle: { color: PALETTE[5], opacity: 0.35 }, tooltip: { show: false } },
        // Each median labelled with its value, on a white ground over the cloud.
        { type: 'line', name: 'median', symbol: 'circle', symbolSize: 7, z: 3,
          lineStyle: { width: 2.2, color: PALETTE[0] }, itemStyle: { color: PALETTE[0] },
          label: { show: true, position: 'top', fontSize: 11, backgroundColor: 'rgba(255,255,255,0.85)', padding: [1, 2],
            formatter: (p) => fmtNum((p.value || [])[1]) },
          labelLayout: { hideOverlap: true },
          data: items.map((it, i) => [xOf(it, i), isNum(it.median) ? it.median : '-']) },
      ],
    });
    return { option, seriesCount: 4 };
  }

  function comparisonChart(ctx) {
    const cmp = ctx.data.comparison;
    const items = arr(cmp.items);
    const unit = str(cmp.unit);
    const metric = str(cmp.metric) || ctx.headline.metric;
    const baseline = str(cmp.baseline);
    const colorOf = (it, i) => (str(it.name) === baseline ? '#8a93a5' : PALETTE[i % PALETTE.length]);
    const ratioText = (it) => (str(it.name) === baseline ? 'baseline'
      : isNum(it.ratio) ? `${it.ratio.toFixed(2)} x` : '');
    const option = baseOption({
      xAxis: {
        type: 'category', data: items.map((it) => str(it.name)), nameLocation: 'middle', nameGap: 28,
        name: '', axisLabel: categoryLabels(items.length),
      },
      grid: Object.assign(baseOption().grid, { bottom: 84 }),
      yAxis: valueAxis(axisTitle(`median ${metric}`, unit), { min: 0 }),
      tooltip: Object.assign(baseOption().tooltip, {
        trigger: 'item',
        formatter: (p) => {
          const it = items[p.dataIndex] || {};
          const rows = [
            tipLine('', 'median', withUnit(fmtNum(it.median), unit)),
            tipLine('', 'confidence interval', withUnit(`${fmtNum(it.low)} … ${fmtNum(it.high)}`, unit)),
          ];
          if (str(it.name) !== baseline && isNum(it.ratio)) {
            rows.push(tipLine('', `vs ${baseline}`,
              `${it.ratio.toFixed(2)} x (${isNum(it.ratio_low) ? it.ratio_low.toFixed(2) : '–'} … ${isNum(it.ratio_high) ? it.ratio_high.toFixed(2) : '–'})`));
          }
          return tipHead(str(it.name)) + rows.join('<br>');
        },
      }),
      series: [
        { type: 'bar', name: `median ${metric}`, barMaxWidth: 90,
          data: items.map((it, i) => ({ value: isNum(it.median) ? it.median : 0, itemStyle: { color: colorOf(it, i) } })),
          label: { show: false } },
        { type: 'custom', name: 'confidence interval', z: 5,
          itemStyle: { color: '#1d2330' },
          data: items.map((it, i) => [i, isNum(it.low) ? it.low : it.median, isNum(it.high) ? it.high : it.median,
            isNum(it.median) ? it.median : 0]),
          encode: { x: 0, y: [1, 2] },
          renderItem: (params, api) => {
            const i = api.value(0);
            const lo = api.coord([i, api.value(1)]);
            const hi = api.coord([i, api.value(2)]);
            const top = api.coord([i, Math.max(api.value(2), api.value(3))]);
            const half = Math.min(api.size([1, 0])[0] * 0.12, 14);
            const stroke = { stroke: '#1d2330', lineWidth: 1.5 };
            return {
              type: 'group',
              children: [
                { type: 'line', shape: { x1: lo[0], y1: lo[1], x2: hi[0], y2: hi[1] }, style: stroke },
                { type: 'line', shape: { x1: lo[0] - half, y1: lo[1], x2: lo[0] + half, y2: lo[1] }, style: stroke },
                { type: 'line', shape: { x1: hi[0] - half, y1: hi[1], x2: hi[0] + half, y2: hi[1] }, style: stroke },
                { type: 'text', x: top[0], y: top[1] - 6,
                  style: { text: ratioText(items[i] || {}), align: 'center', verticalAlign: 'bottom',
                    fill: '#1d2330', font: `600 13px ${FONT}` } },
              ],
            };
          },
        },
      ],
    });
    option.grid.top = 56;
    return { option, seriesCount: 2 };
  }

  // An axis tooltip on a time axis: t, then each series' value as `format` shows it.
  const timeTooltip = (format) => Object.assign(baseOption().tooltip, {
    trigger: 'axis', axisPointer: { type: 'line' },
    formatter: (ps) => {
      const list = [].concat(ps);
      if (!list.length) return '';
      return tipHead(`t = ${fmtSec((list[0].value || [])[0])} s`) +
        list.map((p) => tipLine(p.marker, p.seriesName, format((p.value || [])[1]))).join('<br>');
    },
  });

  // p50, p99 and p99.9 of every interval, on the throughput chart's time axis.
  function latencyBandsChart(ctx) {
    const { runs, names, colors } = ctx;
    const single = runs.length === 1;
    const series = [];
    let lo = Infinity, hi = 0;
    runs.forEach((run, i) => {
      const s = run.series || {};
      const t = arr(s.t);
      if (!arr(s.p50_ms).some(isNum)) return;  // no histograms (an import)
      const defs = [
        { key: 'p50_ms', label: 'p50', dash: 'solid', color: single ? PALETTE[0] : colors[i] },
        { key: 'p99_ms', label: 'p99', dash: 'dashed', color: single ? PALETTE[1] : colors[i] },
        { key: 'p999_ms', label: 'p99.9', dash: 'dotted', color: single ? PALETTE[3] : colors[i] },
      ];
      for (const d of defs) {
        const values = arr(s[d.key]);
        for (const v of values) if (isNum(v) && v > 0) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
        series.push({
          type: 'line', name: (single ? '' : names[i] + ' ') + d.label,
          data: t.map((tt, k) => [tt, isNum(values[k]) && values[k] > 0 ? values[k] : '-']),
          showSymbol: false, sampling: t.length > 2000 ? 'lttb' : undefined,
          lineStyle: { type: d.dash, width: 1.6, color: d.color }, itemStyle: { color: d.color },
          emphasis: { focus: 'series' },
        });
      }
    });
    const useLog = hi > 0 && lo < Infinity && hi / lo > 20;
    const option = timeZoom(baseOption({
      xAxis: timeAxis(maxTime(runs)),
      yAxis: valueAxis(useLog ? 'latency (ms, log scale)' : 'latency (ms)',
        { type: useLog ? 'log' : 'value', min: useLog ? undefined : 0 }),
      tooltip: timeTooltip((v) => withUnit(fmtMs(v), 'ms')),
      series,
    }));
    if (runs.length > MAX_OVERLAID) {
      // Many runs: the first run's lines shown, the others' in the legend.
      const first = new Set(series.slice(0, 3).map((s) => s.name));
      option.legend.selected = Object.fromEntries(series.map((s) => [s.name, first.has(s.name)]));
    }
    return { option, seriesCount: series.length };
  }

  // ------------------------------------------------------------- replays

  // The runs that are timed replays with a fidelity series, as [run, index].
  const timedReplays = (runs) => runs.map((run, i) => [run, i]).filter(([run]) =>
    run.replay && (run.replay.fidelity || {}).timed && arr(run.replay.t).length);
  const fmtUs = (ns) => (isNum(ns) ? fmtNum(ns / 1e3) : '–');

  // A timed replay's issue error (submitted - intended) per interval: p50,
  // p99 and max, in µs, with the late threshold as a line; on the
  // throughput chart's time axis.
  const REPLAY_LINES = [
    { key: 'error_p50_ns', label: 'issue error p50', dash: 'solid', color: 0 },
    { key: 'error_p99_ns', label: 'issue error p99', dash: 'dashed', color: 1 },
    { key: 'error_max_ns', label: 'issue error max', dash: 'dotted', color: 4 },
  ];
  function replayFidelityChart(ctx) {
    const { runs, names, colors } = ctx;
    const replays = timedReplays(runs);
    const single = replays.length === 1;
    const series = [];
    let lo = Infinity, hi = 0, lastT = 0, threshold = 0;
    for (const [run, i] of replays) {
      const r = run.replay;
      const f = r.fidelity;
      const s = f.series || {};
      const t = arr(r.t);
      const ios = arr(s.ios);
      for (const tt of t) if (isNum(tt)) lastT = Math.max(lastT, tt);
      const late = isNum(f.late_threshold_ns) ? f.late_threshold_ns / 1e3 : null;
      if (late !== null) threshold = Math.max(threshold, late);
      for (const d of REPLAY_LINES) {
        const values = arr(s[d.key]);
        const color = single ? PALETTE[d.color] : colors[i];
        const data = t.map((tt, k) => {
          if (!(ios[k] > 0) || !isNum(values[k])) return [tt, '-'];
          const us = Math.max(0, values[k]) / 1e3;
          if (us > 0) { lo = Math.min(lo, us); hi = Math.max(hi, us); }
          return [tt, us];
        });
        const line = {
          type: 'line', name: (single ? '' : names[i] + ' ') + d.label, data,
          // The max under the percentiles (with few IOs per interval the p99 is the max).
          z: d.key === 'error_max_ns' ? 1 : 3,
          showSymbol: t.length <= 60, symbolSize: 5, sampling: t.length > 2000 ? 'lttb' : undefined,
          lineStyle: { type: d.dash, width: 1.6, color }, itemStyle: { color },
          emphasis: { focus: 'series' },
        };
        if (d.key === 'error_p99_ns' && late !== null) {
          line.markLine = {
            silent: true, symbol: 'none', animation: false,
            lineStyle: { color: '#c23b5a', type: 'solid', width: 1.4 },
            label: { formatter: `late above ${fmtNum(late)} µs`, position: 'insideEndTop', color: '#c23b5a', fontSize: 12 },
            data: [{ yAxis: late }],
          };
        }
        series.push(line);
      }
    }
    if (threshold > 0) { lo = Math.min(lo, threshold); hi = Math.max(hi, threshold); }
    const useLog = hi > 0 && lo < Infinity && hi / lo > 50;
    // The axis ends on a round value with room above the threshold's line
    // for its label: a power of ten on a log axis, 1, 2, 2.5 or 5 x 10^n
    // on a linear one.
    const top = (v) => {
      const need = Math.max(v.max, threshold * (useLog ? 2 : 1.25));
      if (!(need > 0)) return undefined;
      const decade = Math.pow(10, Math.floor(Math.log10(need)));
      if (useLog) return need <= decade ? decade : decade * 10;
      return decade * [1, 2, 2.5, 5, 10].find((m) => decade * m >= need * (1 - 1e-9));
    };
    const option = timeZoom(baseOption({
      xAxis: timeAxis(Math.max(maxTime(runs), lastT)),
      yAxis: valueAxis(useLog ? 'issue error (µs, log scale)' : 'issue error (µs)',
        { type: useLog ? 'log' : 'value', min: useLog ? undefined : 0, max: top }),
      tooltip: timeTooltip((v) => withUnit(fmtNum(v), 'µs')),
      series,
    }));
    return { option, seriesCount: series.length };
  }

  // A replay's fidelity as the page shows it: the headline's note when the
  // timing was not kept, the figures (as `flashmark show --json` has them),
  // and the inter-arrival times of the trace beside the replay's.
  function replayFidelityBlock(run, name) {
    const r = run.replay || {};
    const f = r.fidelity || {};
    const e = f.issue_error_ns || {};
    const nodes = [el('h3', {}, `Replay fidelity: ${name}`)];
    if (str(r.headline_note)) {
      nodes.push(el('p', { class: 'alert', 'data-replay-note': str(run.id) },
        `${str(r.headline_note)}: p99 issue error ${fmtUs(e.p99)} µs, late above ${fmtUs(f.late_threshold_ns)} µs.`));
    }
    const pairs = [
      ['trace', `${str(r.trace_id)} (${str(r.trace_source)}), timing ${str(r.timing)}, map ${str(r.map)}`],
      ['IOs replayed', fmtNum(f.ios)],
    ];
    if (f.timed) {
      pairs.push(
        ['issue error p50', `${fmtUs(e.p50)} µs`],
        ['issue error p99', `${fmtUs(e.p99)} µs`],
        ['issue error max', `${fmtUs(e.max)} µs`],
        ['issue error mean', `${fmtUs(e.mean)} µs`],
        ['late threshold', `${fmtUs(f.late_threshold_ns)} µs at p99`],
        ['timing kept', f.kept_timing ? 'yes' : 'no'],
        ['submitted early', fmtNum(f.early)]);
    } else {
      pairs.push(['issue error', 'none intended (as fast as possible)']);
    }
    pairs.push(
      ['reordered', fmtNum(f.reordered)],
      ['queue depth achieved', `mean ${fmtNum(f.achieved_depth_mean)}, max ${fmtNum(f.achieved_depth_max)}`],
      ['queue depth recorded', isNum(f.recorded_depth_mean)
        ? `mean ${fmtNum(f.recorded_depth_mean)}, max ${fmtNum(f.recorded_depth_max)}`
        : 'unknown (the trace has no completion times)']);
    const figures = kvTable(pairs);
    figures.dataset.replayFigures = str(run.id);
    const traceGaps = r.trace_interarrival_ns || {};
    const gaps = f.interarrival_ns || {};
    // scaled:X divides the trace's times by X: what the replay aimed at.
    const scaled = /^scaled:([0-9.eE+-]+)$/.exec(str(r.timing));
    const speed = scaled ? Number(scaled[1]) : null;
    const columns = [{ title: 'time between submissions' }, { title: 'trace (µs)', num: true }];
    if (speed > 0) columns.push({ title: `intended, ${str(r.timing)} (µs)`, num: true });
    columns.push({ title: 'replay (µs)', num: true });
    const gapRow = (q) => [q, fmtUs(traceGaps[q]), ...(speed > 0 ? [fmtUs(traceGaps[q] / speed)] : []), fmtUs(gaps[q])];
    const interarrival = table(columns, [gapRow('p50'), gapRow('p99')]);
    interarrival.dataset.replayInterarrival = str(run.id);
    nodes.push(el('div', { class: 'grid' }, [el('div', {}, figures), el('div', {}, interarrival)]));
    return nodes;
  }

  // --trace-latency: each interval's p50 in its four parts (the mean parts of
  // the IOs at the p50), stacked: the top is the p50.
  const SPLIT_PARTS = ['flashmark', 'queue', 'device', 'completion'];
  function latencySplitChart(ctx) {
    const { runs, names } = ctx;
    const traced = runs.map((run, i) => [run, i]).filter(([run]) => Array.isArray((run.series || {}).split_p50_ms));
    const single = traced.length === 1;
    const series = [];
    for (const [run, i] of traced) {
      const t = arr(run.series.t);
      const split = run.series.split_p50_ms;
      SPLIT_PARTS.forEach((part, k) => {
        const color = PALETTE[k % PALETTE.length];
        series.push({
          type: 'line', name: (single ? '' : names[i] + ' ') + part, stack: 'split-' + i,
          areaStyle: { opacity: single ? 0.55 : 0.3 },
          data: t.map((tt, j) => [tt, Array.isArray(split[j]) && isNum(split[j][k]) ? split[j][k] : '-']),
          showSymbol: false, sampling: t.length > 2000 ? 'lttb' : undefined,
          lineStyle: { width: 1, color }, itemStyle: { color },
          emphasis: { focus: 'series' },
        });
      });
    }
    const option = timeZoom(baseOption({
      xAxis: timeAxis(maxTime(runs)),
      yAxis: valueAxis('latency p50 in its parts (ms), stacked', { min: 0 }),
      tooltip: timeTooltip((v) => withUnit(fmtMs(v), 'ms')),
      series,
    }));
    return { option, seriesCount: series.length };
  }

  // What the device under the targets did: busy share and queue size.
  function deviceActivityChart(ctx) {
    const { runs, names, colors } = ctx;
    const single = runs.length === 1;
    const series = [];
    runs.forEach((run, i) => {
      const s = run.series || {};
      const t = arr(s.t);
      if (!Array.isArray(s.device_busy_percent)) return;
      const prefix = single ? '' : names[i] + ' ';
      const device = str(s.device);
      const busy = arr(s.device_busy_percent), queue = arr(s.device_queue);
      series.push({
        type: 'line', name: `${prefix}${device} busy %`, yAxisIndex: 0,
        data: t.map((tt, k) => [tt, isNum(busy[k]) ? busy[k] : '-']), showSymbol: false,
        lineStyle: { width: 1.6, color: single ? PALETTE[2] : colors[i] }, itemStyle: { color: single ? PALETTE[2] : colors[i] },
      });
      series.push({
        type: 'line', name: `${prefix}${device} queue`, yAxisIndex: 1,
        data: t.map((tt, k) => [tt, isNum(queue[k]) ? queue[k] : '-']), showSymbol: false,
        lineStyle: { width: 1.4, type: 'dashed', color: single ? PALETTE[4] : colors[i] },
        itemStyle: { color: single ? PALETTE[4] : colors[i] },
      });
    });
    const option = timeZoom(baseOption({
      xAxis: timeAxis(maxTime(runs)),
      yAxis: [
        valueAxis('device busy (%)', { min: 0, max: 100 }),
        valueAxis('queue size (IOs in flight)', { min: 0, position: 'right', nameGap: 46, nameRotate: 270,
          splitLine: { show: false } }),
      ],
      tooltip: timeTooltip(fmtNum),
      series,
    }));
    option.grid.right = 78;
    return { option, seriesCount: series.length };
  }

  // Write amplification over time: each window between SMART reads as a
  // step from its start to its end (telemetry.write_amplification).
  function writeAmplificationChart(ctx) {
    const { runs, names, colors } = ctx;
    const single = runs.length === 1;
    const series = [];
    runs.forEach((run, i) => {
      const waf = (run.telemetry || {}).write_amplification || {};
      arr(waf.disks).forEach((disk, d) => {
        const windows = arr(disk.windows);
        if (!windows.length) return;
        const data = [];
        for (const w of windows) {
          data.push([w.start_seconds, w.waf], [w.end_seconds, w.waf], [w.end_seconds, '-']);
        }
        const color = single ? PALETTE[d % PALETTE.length] : colors[i];
        series.push({
          type: 'line', name: `${single ? '' : names[i] + ' '}${str(disk.device)}`, data, showSymbol: false,
          connectNulls: false, lineStyle: { width: 2, color }, itemStyle: { color },
        });
      });
    });
    const option = timeZoom(baseOption({
      xAxis: timeAxis(maxTime(runs)),
      yAxis: valueAxis('write amplification (media / host)', { min: 0 }),
      tooltip: timeTooltip(fmtNum),
      series,
    }));
    return { option, seriesCount: series.length };
  }

  // The groups' write amplification (median of their runs) against the
  // parameter: a fill sweep's WAF vs fill.
  function wafVsParamChart(ctx) {
    const groups = ctx.data.groups;
    const items = arr(groups.items).filter((it) => isNum(it.write_amplification) && isNum(it.value));
    const { axis } = paramAxis(groups);
    const series = [{
      type: 'line', name: 'write amplification', symbol: 'circle', symbolSize: 7,
      lineStyle: { width: 2.2, color: PALETTE[3] }, itemStyle: { color: PALETTE[3] },
      label: { show: items.length <= 12, position: 'top', fontSize: 11, formatter: (p) => fmtNum((p.value || [])[1]) },
      data: items.map((it) => [it.value, it.write_amplification]),
    }];
    const option = baseOption({
      xAxis: axis,
      yAxis: valueAxis('write amplification (media / host)', { min: 0 }),
      tooltip: Object.assign(baseOption().tooltip, { trigger: 'item' }),
      series,
    });
    return { option, seriesCount: series.length };
  }

  // A round latency (1, 2 or 5 x 10^n ms) as read: 50 ns, 20 µs, 5 ms, 1 s.
  function fmtRoundLatency(ms) {
    if (ms >= 1000) return `${Number((ms / 1000).toPrecision(3))} s`;
    if (ms >= 1) return `${Number(ms.toPrecision(3))} ms`;
    if (ms >= 1e-3) return `${Number((ms * 1000).toPrecision(3))} µs`;
    return `${Number((ms * 1e6).toPrecision(3))} ns`;
  }

  // The labels of a log-banded latency axis: Map(row -> round latency
  // text) for the rows that hold a round latency, from the steps
  // (mantissas) 1, 2, 5 of every decade, else 1 and 3, else 1, whichever
  // first leaves `minRows` rows between labels. `rows` are the bands' lower
  // bounds (ms), ascending; `top` the last band's upper bound.
  function roundLatencyRows(rows, top, minRows) {
    const upper = (k) => (k + 1 < rows.length ? rows[k + 1] : top);
    const rowOf = (v) => rows.findIndex((low, k) => low <= v && v < upper(k));
    for (const steps of [[1, 2, 5], [1, 3], [1]]) {
      const labels = new Map();
      const lowest = rows.find((v) => v > 0);
      if (!isNum(lowest) || !isNum(top)) return labels;
      for (let decade = Math.floor(Math.log10(lowest)); 10 ** decade <= top; decade++) {
        for (const m of steps) {
          const v = Number((m * 10 ** decade).toPrecision(3));
          const k = rowOf(v);
          if (k >= 0 && !labels.has(k)) labels.set(k, fmtRoundLatency(v));
        }
      }
      const at = [...labels.keys()].sort((a, b) => a - b);
      if (at.every((k, j) => j === 0 || k - at[j - 1] >= minRows) || steps.length === 1) return labels;
    }
    return new Map();
  }

  // The first run with histograms: time x latency band, colour = IOs (log).
  function heatmapRun(runs) {
    return runs.findIndex((r) => r.latency_heatmap && arr(r.latency_heatmap.cells).length);
  }
  function latencyHeatmapChart(ctx) {
    const i = heatmapRun(ctx.runs);
    const h = i >= 0 ? ctx.runs[i].latency_heatmap : { start: [], end: [], row_low_ms: [], cells: [] };
    const starts = arr(h.start), ends = arr(h.end), rows = arr(h.row_low_ms);
    let most = 1;
    const data = arr(h.cells).filter((c) => Array.isArray(c) && c.length === 3).map((c) => {
      most = Math.max(most, c[2]);
      return [c[0], c[1], Math.log10(c[2]), c[2]];
    });
    const rowText = (k) => (k + 1 < rows.length ? `${fmtMs(rows[k])}–${fmtMs(rows[k + 1])} ms`
      : `${fmtMs(rows[k])}–${fmtMs(h.row_top_ms)} ms`);
    // The plot is about 280 px high (a 420 px chart): labels 16 px apart.
    const marks = roundLatencyRows(rows, h.row_top_ms, Math.ceil(16 / (280 / Math.max(1, rows.length))));
    const marked = (k) => marks.has(k);
    const option = baseOption({
      xAxis: { type: 'category', name: 'time since start (s)', nameLocation: 'middle', nameGap: 28,
        // Each column named by its end, as the time series places its points.
        nameTextStyle: AXIS_NAME_STYLE, data: ends.map((v) => fmtSec(v)), splitArea: { show: false } },
      // Labels and ticks at round latencies only (10 µs, 20 µs, 50 µs ...),
      // each on the band that holds it, at least a label's height apart.
      yAxis: { type: 'category', name: 'latency (log bands)', nameLocation: 'middle', nameGap: 56,
        nameTextStyle: AXIS_NAME_STYLE, data: rows.map((v) => fmtMs(v)),
        axisLabel: { interval: marked, formatter: (v, k) => marks.get(k) || '',
          showMinLabel: marked(0), showMaxLabel: marked(rows.length - 1) },
        axisTick: { alignWithLabel: true, interval: marked } },
      visualMap: { type: 'continuous', dimension: 2, min: 0, max: Math.max(1, Math.log10(most)), calculable: false,
        orient: 'horizontal', right: 40, top: 28, itemHeight: 120, itemWidth: 10,
        text: [`${fmtIops(most)} IOs`, '1'], textStyle: { fontSize: 11 },
        inRange: { color: ['#f3f6fb', '#9ecae1', '#3182bd', '#e6550d', '#a50f15'] } },
      tooltip: Object.assign(baseOption().tooltip, {
        trigger: 'item',
        formatter: (p) => {
          const v = p.value || [];
          return tipHead(`${ctx.names[i] || ''} · ${fmtSec(starts[v[0]])}–${fmtSec(ends[v[0]])} s`) +
            tipLine('', rowText(v[1]), `${fmtIops(v[3])} IOs`);
        },
      }),
      series: [{ type: 'heatmap', name: ctx.names[i] || 'latency', data, progressive: 0,
        emphasis: { itemStyle: { borderColor: '#1d2330', borderWidth: 1 } } }],
    });
    option.legend = undefined;
    return { option, seriesCount: 1 };
  }

  // A cluster run: rank x time, colour = the headline metric of each rank.
  function clusterHeatmapChart(ctx) {
    const c = ctx.data.cluster || {};
    const h = c.heatmap || {};
    const starts = arr(h.start), ends = arr(h.end), rows = arr(h.rows);
    let most = 0;
    const data = arr(h.cells).filter((cell) => Array.isArray(cell) && cell.length === 3 && isNum(cell[2])).map((cell) => {
      most = Math.max(most, cell[2]);
      return cell;
    });
    const unit = str(c.unit);
    const option = baseOption({
      grid: { left: 130, right: 40, top: 64, bottom: 56 },
      xAxis: { type: 'category', name: 'time since start (s)', nameLocation: 'middle', nameGap: 28,
        // Each column named by its end, as the time series places its points.
        nameTextStyle: AXIS_NAME_STYLE, data: ends.map((v) => fmtSec(v)), splitArea: { show: false } },
      yAxis: { type: 'category', data: rows, inverse: true, axisLabel: { interval: Math.max(0, Math.ceil(rows.length / 24) - 1) } },
      visualMap: { type: 'continuous', dimension: 2, min: 0, max: Math.max(most, 1e-9), calculable: false,
        orient: 'horizontal', right: 40, top: 28, itemHeight: 120, itemWidth: 10,
        text: [withUnit(fmtNum(most), unit), '0'], textStyle: { fontSize: 11 },
        inRange: { color: ['#fbeee6', '#f4a582', '#d6604d', '#92c5de', '#2166ac'] } },
      tooltip: Object.assign(baseOption().tooltip, {
        trigger: 'item',
        formatter: (p) => {
          const v = p.value || [];
          return tipHead(`${rows[v[1]]} · ${fmtSec(starts[v[0]])}–${fmtSec(ends[v[0]])} s`) +
            tipLine('', str(c.metric), withUnit(fmtNum(v[2]), unit));
        },
      }),
      series: [{ type: 'heatmap', name: str(c.metric), data, progressive: 0,
        emphasis: { itemStyle: { borderColor: '#1d2330', borderWidth: 1 } } }],
    });
    option.legend = undefined;
    return { option, seriesCount: 1 };
  }

  // The cluster-wide latency distribution (the aggregate's, from the ranks'
  // merged histograms) drawn bold over each rank's own.
  function clusterLatencyChart(ctx) {
    const c = ctx.data.cluster || {};
    const aggregate = ctx.names[c.aggregate_index];
    const built = latencyDistributionChart(ctx);
    for (const s of built.option.series) {
      const bold = s.name === aggregate;
      s.lineStyle = Object.assign({}, s.lineStyle, { width: bold ? 3.5 : 1.2, opacity: bold ? 1 : 0.7 });
      s.z = bold ? 5 : 2;
      s.showSymbol = bold;
    }
    return built;
  }

  // "Nines": latency against 1/(1 - percentile); few-IO points hollow.
  function latencySpectrumChart(ctx) {
    const { runs, names, colors } = ctx;
    const series = [];
    runs.forEach((run, i) => {
      const points = arr((run.latency_spectrum || {}).points).filter((p) => p && isNum(p.x) && isNum(p.ms) && p.ms > 0);
      if (!points.length) return;
      series.push({
        type: 'line', name: names[i], showSymbol: true,
        data: points.map((p) => ({ value: [p.x, p.ms, p.percentile, p.beyond, p.few ? 1 : 0],
          symbol: p.few ? 'emptyCircle' : 'circle', symbolSize: p.few ? 7 : 4 })),
        lineStyle: { width: 2, color: colors[i] }, itemStyle: { color: colors[i] },
        emphasis: { focus: 'series' },
      });
    });
    const pctText = (x) => {
      const p = 100 * (1 - 1 / x);
      if (p <= 0) return '0%';
      const nines = Math.max(0, Math.ceil(-Math.log10(1 - p / 100)) - 2);
      return `${Number(p.toFixed(nines))}%`;
    };
    // The axis starts at the first percentile drawn (p50 is x = 2), never at p0.
    const xs = series.flatMap((s) => s.data.map((d) => d.value[0]));
    const option = baseOption({
      xAxis: { type: 'log', name: 'percentile (1 / (1 − p), log scale)', nameLocation: 'middle', nameGap: 28,
        nameTextStyle: AXIS_NAME_STYLE, min: xs.length ? Math.min(...xs) : 1, axisLabel: { formatter: pctText },
        splitLine: { show: true, lineStyle: { color: '#f0f2f5' } } },
      yAxis: valueAxis('latency (ms, log scale)', { type: 'log' }),
      tooltip: Object.assign(baseOption().tooltip, {
        trigger: 'item',
        formatter: (p) => {
          const v = p.value || [];
          return tipHead(`${p.seriesName} · p${fmtNum(v[2])}`) + tipLine(p.marker, 'latency', withUnit(fmtMs(v[1]), 'ms')) +
            `<br>${esc(`${fmtNum(v[3])} IOs beyond it`)}` + (v[4] ? `<br>${esc('few IOs beyond: not an exact percentile')}` : '');
        },
      }),
      series,
    });
    return { option, seriesCount: series.length };
  }

  const CHARTS = {
    timeseries: { title: 'Throughput per interval', build: timeseriesChart, needs: 'runs' },
    latency_bands: { title: 'Latency percentiles over time', build: latencyBandsChart, needs: 'runs' },
    latency_split: { title: 'Where the time went', build: latencySplitChart, needs: 'runs' },
    replay_fidelity: { title: 'Replay fidelity over time', build: replayFidelityChart, needs: 'runs' },
    device_activity: { title: 'Device utilisation and queue', build: deviceActivityChart, needs: 'runs' },
    write_amplification: { title: 'Write amplification over time', build: writeAmplificationChart, needs: 'runs' },
    latency_heatmap: { title: 'Latency heatmap', build: latencyHeatmapChart, needs: 'runs' },
    cluster_heatmap: { title: 'Ranks over time', build: clusterHeatmapChart, needs: 'cluster' },
    cluster_latency: { title: 'Cluster-wide latency distribution', build: clusterLatencyChart, needs: 'cluster' },
    iops_latency: { title: 'IOPS and tail latency over time', build: iopsLatencyChart, needs: 'runs' },
    latency_spectrum: { title: 'Latency by percentile', build: latencySpectrumChart, needs: 'runs' },
    latency_distribution: { title: 'Latency distribution', build: latencyDistributionChart, needs: 'runs' },
    box: { title: 'Distribution per group', build: boxChart, needs: 'groups' },
    latency_vs_param: { title: 'Response time', build: latencyVsParamChart, needs: 'groups' },
    median_vs_param: { title: 'Median throughput', build: medianVsParamChart, needs: 'groups' },
    waf_vs_param: { title: 'Write amplification', build: wafVsParamChart, needs: 'groups' },
    comparison: { title: 'Comparison', build: comparisonChart, needs: 'comparison' },
  };

  function chartCaption(name, ctx) {
    const { metric, unit } = ctx.headline;
    const by = str(ctx.data.groups && ctx.data.groups.by) || 'group';
    const runs = ctx.runs;
    switch (name) {
      case 'timeseries': {
        const parts = [`${metric[0].toUpperCase()}${metric.slice(1)} of every interval (one dot each). ` +
          'Solid line: the headline median (over the final regime, after its warm-up).'];
        if (runs.some((r) => r.steady_state && isNum(r.steady_state.warmup_end) && r.steady_state.warmup_end > 0)) {
          parts.push(runs.some((r) => str((r.steady_state || {}).warmup_mode) === 'fixed')
            ? 'Shaded: what the headline leaves out (the fixed warm-up, then any earlier regime).'
            : 'Shaded: what the headline leaves out (an earlier regime, then the warm-up of the final one).');
        }
        if (runs.some((r) => arr(r.changes).length)) {
          parts.push('Dashed vertical lines: changes during the run, numbered as in the run details (hover for what changed).');
        }
        if (runs.some((r) => arr(r.regimes).length > 1)) parts.push('Dotted segments: detected regimes and their medians.');
        const down = runs.filter((r) => r.series && r.series.downsampled);
        if (down.length) {
          parts.push(down.map((r) => `${ctx.names[runs.indexOf(r)]}: ${arr(r.series.t).length} of ${str(r.series.points)} intervals shown`)
            .join('; ') + ' (downsampled for display; the statistics use every interval).');
        }
        if (runs.length > MAX_OVERLAID) parts.push(`${runs.length} runs: one at a time, picked in the legend.`);
        parts.push('Scroll or drag the slider to zoom.');
        return parts.join(' ');
      }
      case 'iops_latency':
        if (!runs.some((r) => arr((r.series || {}).p99_ms).some(isNum))) {
          return 'IOPS per interval. No latency line: these runs recorded no per-IO latency histograms.';
        }
        return 'IOPS per interval (left axis, solid) and the 95th (dashed) and 99th (dotted) percentile latency ' +
          'of each interval (right axis).' + (runs.length > MAX_OVERLAID
          ? ` Only ${ctx.names[0]}'s lines start shown (p95 hidden): click the legend for the other runs.`
          : runs.length > 1 ? ' p95 lines start hidden: click their legend entries.' : '');
      case 'latency_bands':
        return 'The 50th (solid), 99th (dashed) and 99.9th (dotted) percentile latency of each interval, ' +
          'from its histogram, on the same time axis as the chart above.' + (runs.length > MAX_OVERLAID
          ? ` Only ${ctx.names[0]}'s lines start shown: click the legend for the other runs.` : '');
      case 'latency_split':
        return 'Each interval\'s IO latency cut at the block layer\'s tracepoints (--trace-latency), stacked: ' +
          'flashmark (its submission until the block layer has the IO), queue (waiting in the block layer until ' +
          'issued to the driver), device (issued until completed) and completion (until flashmark reaps it: ' +
          'interrupt and wake-up). Each band is that part of the interval\'s p50: the mean part of the IOs ' +
          'whose latency is the p50 (within 3.2 %), so the stack\'s top is the p50 of the IOs traced: by ' +
          'default 1 IO in 16, chosen by its sectors (the configuration\'s "latency split" says which).';
      case 'replay_fidelity': {
        const replays = timedReplays(runs);
        const step = replays.length ? (replays[0][0].replay.fidelity.series || {}).interval_ns : null;
        return `How late the replay submitted the trace's IOs: the issue error (when an IO's submission system call ` +
          `was made − when the trace, scaled by the timing, puts it) of the IOs submitted in each ` +
          `${isNum(step) ? fmtSec(step / 1e9) + ' s ' : ''}interval: p50 (solid), p99 (dashed) and max (dotted), ` +
          'from histograms (within 0.1 %); an IO submitted early counts as 0. Red line: the late threshold; ' +
          'the timing was kept when the whole replay\'s p99 is below it.';
      }
      case 'device_activity':
        return 'What the kernel says the device under the targets did in each interval (/proc/diskstats): ' +
          'the share of the interval it was busy (left axis) and the average number of IOs in flight (right axis, ' +
          'iostat\'s aqu-sz).';
      case 'latency_heatmap': {
        const i = heatmapRun(runs);
        return `${i >= 0 ? ctx.names[i] : ''}: how many IOs completed in each latency band (rows a quarter octave ` +
          'apart, log scale) in each interval (columns; neighbours summed on long runs). Colour: IOs, log scale.' +
          (runs.length > 1 ? ' One run per heatmap: report another run alone to see its own.' : '');
      }
      case 'cluster_heatmap': {
        const c = ctx.data.cluster || {};
        const per = (c.heatmap || {}).intervals_per_column;
        const metricName = str(c.metric);
        return `${metricName.charAt(0).toUpperCase()}${metricName.slice(1)} of each rank (rows) in each interval (columns${isNum(per) && per > 1
          ? `; each the mean of ${per} intervals` : ''}): a slow or stalled rank shows as a pale row or cell, ` +
          'a lost rank as a row that ends early. Every rank started at one common instant, so columns line up.';
      }
      case 'cluster_latency':
        return 'Cumulative latency distribution of every IO of every rank (bold: all ranks, from their merged ' +
          'histograms, never an average of percentiles) and of each rank alone (thin).';
      case 'latency_spectrum':
        return 'Latency against percentile on a log axis (90 %, 99 %, 99.9 % ... evenly spaced), over the analysed ' +
          'window, up to the slowest IO. Hollow points rest on fewer than 10 IOs beyond them: not exact percentiles.';
      case 'latency_distribution':
        return 'Cumulative distribution of IO latency over the analysed window, from merged histograms: ' +
          'the share of IOs that completed within a given time.';
      case 'box':
        return `Per-interval ${metric}${unit ? ' (' + unit + ')' : ''} grouped by ${by}: box from p25 to p75 with the median, ` +
          'whiskers to the furthest interval within 1.5 IQR (Tukey), dots beyond them are outliers.';
      case 'latency_vs_param':
        return `Response time against ${by}: 95th and 99th percentile latency of all IOs in each group.`;
      case 'median_vs_param':
        return `Median ${metric} against ${by}, labelled; the dots are every interval's value (spread a little ` +
          'sideways to be seen), the band spans their p25 to p75. ' +
          `Values: ${str(ctx.data.groups && ctx.data.groups.rule)}.`;
      case 'write_amplification':
        return 'Write amplification (what the flash was written / what the host wrote) in each window between ' +
          'SMART reads (about one a minute); a window closes once the media counter has moved 20 of its steps. ' +
          'Host bytes: /proc/diskstats of the whole disk.';
      case 'waf_vs_param':
        return `Write amplification against ${by}: the median over each group's runs of the run's WAF from SMART ` +
          '(start and end of the run, else the windows between SMART reads); groups without one are left out.';
      case 'comparison': {
        const c = ctx.data.comparison || {};
        return `Median ${str(c.metric) || metric} with its confidence interval (error bars); ` +
          `labels give the ratio to the baseline, ${str(c.baseline)}.`;
      }
      default: return '';
    }
  }

  // ----------------------------------------------------------------- tables

  // The steady-state verdict in the words of the runs table, from the one
  // place it is judged: the headline's window.
  const steadyVerdicts = {
    steady: ['steady', 'pass'], not_steady: ['not steady', 'fail'], too_short: ['too short to judge', ''],
  };
  function verdictNode(h) {
    const v = steadyVerdicts[str((h || {}).verdict)];
    return v ? { text: v[0], class: v[1], title: str(h.verdict_text) } : '–';
  }

  function overviewTable(ctx) {
    const rows = ctx.runs.map((run, i) => {
      const s = run.summary || {};
      const lat = s.latency_ms || {};
      // The verdict judged on the headline's window, never on an earlier one.
      const steady = verdictNode(run.headline);
      const nameCell = el('span', { class: 'run-name' }, [
        el('span', { class: 'swatch', style: { backgroundColor: ctx.colors[i] } }), ctx.names[i]]);
      return [
        str(run.id), nameCell, { text: str(run.workload), class: 'wide' }, el('span', {}, tagNodes(run.tags)),
        { text: str(run.status), class: 'status' },
        el('span', {}, [withUnit(fmtNum(s.median), str(s.unit)), isNum(s.ci_low)
          ? el('span', { class: 'sub', title: 'confidence interval of the median' }, `CI ${fmtNum(s.ci_low)} … ${fmtNum(s.ci_high)}`)
          : null]),
        isNum(s.p25) ? `${fmtNum(s.p25)} … ${fmtNum(s.p75)}` : '–',
        fmtIops(s.iops_median), fmtMs(lat.p95), fmtMs(lat.p99), fmtNum(s.intervals), steady,
      ];
    });
    return table([
      { title: 'run', num: true }, { title: 'name' }, { title: 'workload' }, { title: 'tags' }, { title: 'status' },
      { title: 'median', num: true, hint: 'the headline: median of the per-interval values over the final regime after its warm-up, with its confidence interval' },
      { title: 'p25 … p75', num: true }, { title: 'IOPS', num: true, hint: 'median IOPS per interval' },
      { title: 'p95 ms', num: true }, { title: 'p99 ms', num: true }, { title: 'intervals', num: true },
      { title: 'steady state' },
    ], rows);
  }

  function summaryTable(run) {
    const s = run.summary || {};
    const u = str(s.unit);
    const lat = s.latency_ms || {};
    const pairs = [
      ['metric', str(s.metric) || '–'],
      ['median', withUnit(fmtNum(s.median), u) + (isNum(s.ci_low)
        ? `  (CI ${fmtNum(s.ci_low)} … ${fmtNum(s.ci_high)})` : '')],
      ['p25 … p75', isNum(s.p25) ? withUnit(`${fmtNum(s.p25)} … ${fmtNum(s.p75)}`, u) : '–'],
      ['p5 … p95', isNum(s.p5) ? withUnit(`${fmtNum(s.p5)} … ${fmtNum(s.p95)}`, u) : '–'],
      ['min … max', isNum(s.min) ? withUnit(`${fmtNum(s.min)} … ${fmtNum(s.max)}`, u) : '–'],
      ['mean', withUnit(fmtNum(s.mean), u)],
      ['CV', fmtPct(s.cv_percent)],
      ['intervals', fmtNum(s.intervals)],
      ['whole run median', withUnit(fmtNum((run.headline || {}).whole_run_median), u)],
      ['rule', str((run.headline || {}).rule) || '–'],
      ['IOPS median', fmtIops(s.iops_median)],
      ['latency (ms)', ['p50', 'p95', 'p99', 'p99.9', 'max'].map((k) => `${k} ${fmtMs(lat[k])}`).join('   ')],
    ];
    return kvTable(pairs);
  }

  function steadyStateTable(ss, headline) {
    const verdict = (measured, allowed) => (isNum(measured) && isNum(allowed)
      ? (measured <= allowed ? { text: 'pass', class: 'pass' } : { text: 'fail', class: 'fail' }) : '–');
    const evaluated = isNum(ss.window_start) && isNum(ss.window_end) && ss.window_end > ss.window_start;
    const criteria = !evaluated ? el('p', { class: 'note' },
      'Criteria not evaluated: the analysed part of the run holds no complete window of rounds' +
      (isNum(ss.round_seconds) ? ` (a round is ${fmtSec(ss.round_seconds)} s; SNIA PTS judges 5 of them)` : '') + '.')
      : table([
      { title: 'criterion (SNIA PTS)' }, { title: 'allowed', num: true }, { title: 'measured', num: true }, { title: '' },
    ], [
      ['data excursion (max − min in window)', isNum(ss.allowed_data_percent) ? '≤ ' + fmtPct(ss.allowed_data_percent) : '–',
        fmtPct(ss.data_excursion_percent), verdict(ss.data_excursion_percent, ss.allowed_data_percent)],
      ['slope excursion (fitted line across window)', isNum(ss.allowed_slope_percent) ? '≤ ' + fmtPct(ss.allowed_slope_percent) : '–',
        fmtPct(ss.slope_excursion_percent), verdict(ss.slope_excursion_percent, ss.allowed_slope_percent)],
    ]);
    const v = verdictNode(headline);
    const reached = typeof v === 'object' ? el('span', { class: v.class, title: v.title }, v.text) : v;
    const details = el('div', { class: 'table-wrap' }, el('table', { class: 'kv' }, el('tbody', {}, [
      ['steady state', reached],
      ['round length', isNum(ss.round_seconds) ? fmtSec(ss.round_seconds) + ' s' : '–'],
      ['measurement window', evaluated ? `${fmtSec(ss.window_start)} … ${fmtSec(ss.window_end)} s` : 'none'],
      ['window average', evaluated ? fmtNum(ss.average) : '–'],
      ['MSER warm-up estimate', isNum(ss.mser_seconds) ? fmtSec(ss.mser_seconds) + ' s'
        : (str(ss.mser_not_judged) ? 'not judged: ' + str(ss.mser_not_judged) : 'none')],
      ['warm-up excluded', (isNum(ss.warmup_end) ? fmtSec(ss.warmup_end) + ' s' : '–') +
        (str(ss.warmup_source) ? ` (${str(ss.warmup_source)})` : '')],
    ].map(([k, v]) => el('tr', {}, [el('th', {}, k), el('td', {}, v)])))));
    return el('div', {}, [criteria, details]);
  }

  function regimesTable(run) {
    const u = str((run.summary || {}).unit);
    return table([
      { title: 'from (s)', num: true }, { title: 'to (s)', num: true }, { title: `median${u ? ' (' + u + ')' : ''}`, num: true },
      { title: 'p25 … p75', num: true }, { title: 'p99 latency (ms)', num: true },
    ], arr(run.regimes).map((r) => [fmtSec(r.start), fmtSec(r.end), fmtNum(r.median),
      `${fmtNum(r.p25)} … ${fmtNum(r.p75)}`, fmtMs(r.latency_p99_ms)]));
  }

  // The run's telemetry summary as [key, value] rows (medians per interval).
  function telemetryPairs(t) {
    if (!t || typeof t !== 'object') return [];
    const rows = [];
    for (const d of arr(t.disks)) {
      const member = str(d.member_of) ? ` (member of ${str(d.member_of)})` : '';
      rows.push([`device ${str(d.device)}${member}`,
        `busy ${fmtNum((d.utilisation_percent || {}).median)} %, queue ${fmtNum((d.queue_size || {}).median)}, ` +
        `await ${fmtMs((d.await_ms || {}).median)} ms, read ${fmtNum((d.read_mibs || {}).median)} MiB/s, ` +
        `write ${fmtNum((d.write_mibs || {}).median)} MiB/s`]);
    }
    if (isNum(t.device_write_ratio)) rows.push(['device writes / flashmark writes', `${t.device_write_ratio.toFixed(3)} x`]);
    if (isNum(t.device_read_ratio)) rows.push(['device reads / flashmark reads', `${t.device_read_ratio.toFixed(3)} x`]);
    const c = t.cpu;
    if (c && typeof c === 'object') {
      const m = (k) => fmtNum((c[k] || {}).median);
      rows.push(['machine CPU', `user ${m('user_percent')} %, system ${m('system_percent')} %, ` +
        `iowait ${m('iowait_percent')} %, softirq ${m('softirq_percent')} %`]);
      rows.push(['flashmark CPU', `${m('self_percent_of_one_cpu')} % of one CPU` +
        (isNum(c.self_us_per_io) ? `, ${fmtNum(c.self_us_per_io)} µs per IO` : '')]);
    }
    if (isNum(t.temperature_max)) rows.push(['temperature', `${fmtNum(t.temperature_min)}–${fmtNum(t.temperature_max)} °C`]);
    for (const h of arr(t.health)) {
      const parts = [];
      if (isNum(h.host_bytes_written)) parts.push(`host wrote ${fmtBytes(h.host_bytes_written)}`);
      if (isNum(h.media_bytes_written)) parts.push(`media ${fmtBytes(h.media_bytes_written)}`);
      if (isNum(h.write_amplification)) parts.push(`write amplification ${h.write_amplification.toFixed(2)}`);
      if (isNum(h.throttle_events)) parts.push(`${h.throttle_events} thermal throttle events`);
      rows.push([`SMART ${str(h.device)} during the run`, parts.join(', ') || 'no counters to compare']);
    }
    return rows;
  }

  function runSection(run, i, ctx, open) {
    const tags = tagNodes(run.tags);
    const summary = el('summary', {}, [
      el('span', { class: 'swatch', style: { backgroundColor: ctx.colors[i] } }),
      `#${str(run.id)} ${ctx.names[i]}`,
      el('span', { class: 'meta' }, str(run.workload)),
    ]);
    const body = [];
    if (tags.length || str(run.status)) {
      body.push(el('div', { class: 'meta', style: { margin: '0 0 6px' } },
        [str(run.status) ? `status ${str(run.status)}   ` : null, ...tags]));
    }
    if (str(run.name) && str(run.label) && str(run.name) !== str(run.label)) {
      body.push(el('div', { class: 'meta' }, `name: ${str(run.name)}`));
    }
    const left = [el('h4', {}, 'Summary statistics'), summaryTable(run)];
    if (run.steady_state && typeof run.steady_state === 'object') {
      left.push(el('h4', {}, 'Steady-state determination'), steadyStateTable(run.steady_state, run.headline));
    }
    if (arr(run.regimes).length) left.push(el('h4', {}, 'Regimes'), regimesTable(run));
    const telemetry = telemetryPairs(run.telemetry);
    if (telemetry.length) left.push(el('h4', {}, 'Device and host'), kvTable(telemetry));
    if (arr(run.changes).length) {
      left.push(el('h4', {}, 'Changes during the run'), table([{ title: '' }, { title: 't (s)', num: true }, { title: 'what' }],
        arr(run.changes).filter((c) => c && isNum(c.t)).map((c, k) => [changeMark(k), fmtSec(c.t), str(c.text)])));
    }
    const right = [el('h4', {}, 'Configuration'), kvTable(run.config)];
    if (arr(run.environment).length) right.push(el('h4', {}, 'Environment'), kvTable(run.environment));
    body.push(el('div', { class: 'grid' }, [el('div', {}, left), el('div', {}, right)]));
    if (str(run.reproduce)) {
      body.push(el('h4', {}, 'Reproduce'), el('pre', { class: 'reproduce' }, str(run.reproduce)));
    }
    if (str(run.command_line) && str(run.command_line) !== str(run.reproduce)) {
      body.push(el('h4', {}, 'Command line as run'), el('pre', { class: 'reproduce' }, str(run.command_line)));
    }
    const details = el('details', { class: 'run', id: `run-${str(run.id)}` }, [summary, ...body]);
    details.open = open;
    return details;
  }

  // A cluster run: one row per rank and the aggregate's, last.
  function clusterTable(c) {
    const u = str(c.unit);
    const row = (it, bold) => [
      { text: str(it.name), class: bold ? 'strong' : '' }, str(it.host) || '–', '#' + str(it.id), str(it.status),
      withUnit(fmtNum(it.median), u), isNum(it.p25) ? `${fmtNum(it.p25)} … ${fmtNum(it.p75)}` : '–',
      fmtIops(it.iops_median), fmtMs(it.p99_ms), fmtNum(it.ios), fmtBytes(it.bytes),
      isNum(it.share_percent) ? fmtPct(it.share_percent) : '–', fmtNum(it.intervals)];
    const rows = arr(c.items).map((it) => row(it, false));
    if (c.aggregate) rows.push(row(c.aggregate, true));
    return table([
      { title: 'rank' }, { title: 'host' }, { title: 'run' }, { title: 'status' },
      { title: 'median', num: true, hint: 'headline median of the rank\'s per-interval values' },
      { title: 'p25 … p75', num: true }, { title: 'IOPS', num: true, hint: 'median IOPS per interval' },
      { title: 'p99 ms', num: true }, { title: 'IOs', num: true }, { title: 'bytes', num: true },
      { title: 'share', num: true, hint: 'of all bytes the ranks moved' }, { title: 'intervals', num: true },
    ], rows);
  }

  // groups.unit is the unit of the grouped metric (the by-value has none of its own).
  function groupsTable(groups, headlineInfo) {
    const u = str(groups.unit) || headlineInfo.unit;
    const numeric = !!groups.numeric;
    const cols = [{ title: str(groups.by) || 'group' }];
    if (numeric) cols.push({ title: 'value', num: true });
    cols.push({ title: 'runs' }, { title: 'intervals', num: true }, { title: `median${u ? ' (' + u + ')' : ''}`, num: true },
      { title: 'p25 … p75', num: true }, { title: 'whiskers', num: true, hint: 'Tukey, 1.5 IQR' },
      { title: 'outliers', num: true }, { title: 'p95 ms', num: true }, { title: 'p99 ms', num: true });
    const rows = arr(groups.items).map((it) => {
      const b = it.box || {};
      const row = [str(it.name)];
      if (numeric) row.push(fmtNum(it.value));
      row.push(arr(it.runs).map((r) => '#' + str(r)).join(' '), fmtNum(b.count), fmtNum(it.median),
        `${fmtNum(it.p25)} … ${fmtNum(it.p75)}`, `${fmtNum(b.lower_whisker)} … ${fmtNum(b.upper_whisker)}`,
        String(arr(b.outliers).length), fmtMs(it.p95_ms), fmtMs(it.p99_ms));
      return row;
    });
    return table(cols, rows);
  }

  function comparisonTable(cmp) {
    const items = arr(cmp.items);
    const u = str(cmp.unit);
    const prices = [
      ['price_per_gb', 'price per GB'], ['price_per_mibs', 'price per MiB/s'], ['price_per_kiops', 'price per kIOPS'],
    ].filter(([k]) => items.some((it) => isNum(it[k])));
    const cols = [{ title: 'name' }, { title: `median${u ? ' (' + u + ')' : ''}`, num: true },
      { title: 'CI of the median', num: true }, { title: `ratio to ${str(cmp.baseline)}`, num: true },
      { title: 'ratio CI', num: true }];
    for (const [, title] of prices) cols.push({ title, num: true });
    // As the terminal writes a cost (common/units.h CostText): 3 significant
    // digits, a currency code before with a space, a symbol without.
    const price = (v, currency) => {
      if (!isNum(v)) return '–';
      const m = Math.abs(v);
      const n = m >= 100 ? v.toFixed(0) : m >= 10 ? v.toFixed(1) : m >= 1 ? v.toFixed(2)
        : Number(v.toPrecision(3)).toString();
      const c = str(currency);
      return c ? (/^[A-Za-z]+$/.test(c) ? `${c} ${n}` : c + n) : n;
    };
    const rows = items.map((it) => {
      const base = str(it.name) === str(cmp.baseline);
      const row = [str(it.name) + (base ? ' (baseline)' : ''), fmtNum(it.median), `${fmtNum(it.low)} … ${fmtNum(it.high)}`,
        isNum(it.ratio) ? it.ratio.toFixed(2) + ' x' : '–',
        base ? '–' : (isNum(it.ratio_low) ? `${it.ratio_low.toFixed(2)} … ${it.ratio_high.toFixed(2)}` : '–')];
      for (const [k] of prices) row.push(price(it[k], it.currency));
      return row;
    });
    return { node: table(cols, rows), hasPrices: prices.length > 0 };
  }

  // ------------------------------------------------------------------- page

  function renderHeader(data) {
    const title = str(data.title) || 'flashmark report';
    document.title = title;
    document.getElementById('report-title').textContent = title;
    const meta = document.getElementById('report-meta');
    const runs = arr(data.runs);
    const parts = [
      str(data.generated) ? `generated ${str(data.generated)}` : null,
      str(data.tool_version) ? `flashmark ${str(data.tool_version)}` : null,
      `${runs.length} run${runs.length === 1 ? '' : 's'}`,
    ];
    if (data.groups && str(data.groups.by)) parts.push(`grouped by ${str(data.groups.by)}`);
    meta.replaceChildren(...parts.filter(Boolean).map((p) => el('span', {}, p)));
  }

  function drawChart(container, name, ctx) {
    const spec = CHARTS[name];
    const { option, seriesCount } = spec.build(ctx);
    const div = el('div', { id: `chart-${name}`, class: 'chart', 'data-series': seriesCount, role: 'img',
      'aria-label': spec.title });
    container.append(div);
    const chart = echarts.init(div, null, { renderer: 'canvas' });
    const done = new Promise((resolve) => {
      let settled = false;
      const finish = () => { if (!settled) { settled = true; resolve(); } };
      chart.on('finished', finish);
      setTimeout(finish, 4000);
    });
    chart.setOption(option);
    return { chart, done };
  }

  // Draws the whole report from `data` into the page (again, for a live
  // view's new data: the old charts are disposed first); returns the
  // promises of its charts' first rendering.
  function render(data, state) {
    const root = document.getElementById('report');
    for (const chart of Object.values(state.charts)) chart.dispose();
    state.charts = {};
    root.replaceChildren();
    if (typeof echarts === 'undefined') {
      root.append(el('div', { class: 'error-box' }, 'The charting library is missing from this file; tables only.'));
    }
    renderHeader(data);
    if (data.live) root.append(liveStatus(data.live));
    const runs = arr(data.runs);
    const ctx = {
      data, runs, names: runNames(runs), colors: runs.map((_, i) => PALETTE[i % PALETTE.length]),
      headline: headline(data),
    };

    root.append(el('h2', {}, 'Runs'), overviewTable(ctx));
    for (const note of arr(data.notes)) root.append(el('p', { class: 'note' }, str(note)));
    if (data.cluster && arr(data.cluster.items).length) {
      const c = data.cluster;
      root.append(el('h2', {}, `Cluster: ${arr(c.items).length} rank${arr(c.items).length === 1 ? '' : 's'}`),
        el('p', { class: 'caption' }, `${str(c.summary)}${str(c.summary) ? '. ' : ''}Group ${str(c.group)}.`),
        clusterTable(c));
    }

    const wanted = new Set(arr(data.charts));
    const charts = {};
    const pending = [];
    const present = (need) => (need === 'runs' ? runs.length > 0 : !!(data[need] && arr(data[need].items).length));
    for (const name of CHART_ORDER) {
      if (!wanted.has(name) || typeof echarts === 'undefined') continue;
      const spec = CHARTS[name];
      const section = el('section', { class: 'chart-section', id: `section-${name}` });
      root.append(section);
      let title = spec.title;
      if (name === 'timeseries') title = `${ctx.headline.metric[0].toUpperCase()}${ctx.headline.metric.slice(1)} per interval`;
      if (name === 'median_vs_param') title = `Median ${ctx.headline.metric} vs ${str(data.groups && data.groups.by)}`;
      if (name === 'latency_vs_param') title = `Response time vs ${str(data.groups && data.groups.by)}`;
      if (name === 'box') title = `${ctx.headline.metric[0].toUpperCase()}${ctx.headline.metric.slice(1)} by ${str(data.groups && data.groups.by)}`;
      section.append(el('h2', {}, title), el('p', { class: 'caption' }, chartCaption(name, ctx)));
      if (!present(spec.needs)) {
        section.append(el('p', { class: 'note' }, `No ${spec.needs} data for this chart.`));
        continue;
      }
      const { chart, done } = drawChart(section, name, ctx);
      charts[name] = chart;
      pending.push(done);
      if (name === 'comparison') {
        const { node, hasPrices } = comparisonTable(data.comparison);
        section.append(el('h3', {}, hasPrices ? 'Comparison and cost' : 'Comparison'), node);
      }
      if (name === 'replay_fidelity') {
        for (const [run, i] of timedReplays(runs)) section.append(...replayFidelityBlock(run, ctx.names[i]));
      }
      if (name === 'box' && data.groups) {
        section.append(el('h3', {}, `By ${str(data.groups.by)}`), groupsTable(data.groups, ctx.headline));
      }
    }
    window.flashmarkCharts = charts;
    state.charts = charts;
    // Replays the fidelity chart does not show (as fast as possible): their
    // figures alone.
    const charted = new Set(charts.replay_fidelity ? timedReplays(runs).map(([run]) => run) : []);
    const untimed = runs.map((run, i) => [run, i]).filter(([run]) => run.replay && !charted.has(run));
    if (untimed.length) {
      const section = el('section', { class: 'chart-section', id: 'section-replay' }, el('h2', {}, 'Replay fidelity'));
      for (const [run, i] of untimed) section.append(...replayFidelityBlock(run, ctx.names[i]));
      root.append(section);
    }

    if (data.groups && !wanted.has('box') && arr(data.groups.items).length) {
      root.append(el('h2', {}, `By ${str(data.groups.by)}`), groupsTable(data.groups, ctx.headline));
    }
    if (data.comparison && !wanted.has('comparison') && arr(data.comparison.items).length) {
      root.append(el('h2', {}, 'Comparison'), comparisonTable(data.comparison).node);
    }

    root.append(el('h2', {}, 'Run details'),
      el('p', { class: 'caption' }, 'Configuration, environment, statistics and the command that reproduces each run.'));
    runs.forEach((run, i) => root.append(runSection(run, i, ctx, runs.length <= 3)));

    const footer = document.getElementById('report-footer');
    footer.replaceChildren(
      el('span', {}, `${SCHEMA} v${SCHEMA_VERSION}` + (str(data.tool_version) ? ` · flashmark ${str(data.tool_version)}` : '') +
        (typeof echarts !== 'undefined' ? ` · charts by Apache ECharts ${str(echarts.version)}, embedded` : '') +
        ' · self-contained: this file loads nothing from the network.'));

    let points = 0;
    for (const run of runs) points += isNum((run.series || {}).points) ? run.series.points : 0;
    document.body.dataset.intervals = String(points);
    return pending;
  }

  // The live view's status line: each run's state, time and what is left.
  function liveStatus(live) {
    const parts = arr(live.runs).map((r) => {
      const time = `${fmtSec(r.elapsed_seconds)} s` + (isNum(r.time_limit_seconds) ? ` of ${fmtSec(r.time_limit_seconds)} s` : '');
      const eta = r.running && isNum(r.eta_seconds) ? `, about ${fmtSec(r.eta_seconds)} s left` +
        (r.until_steady ? ' at most (it stops once steady)' : '') : '';
      const steady = r.steady ? 'steady state reached' : `steady state: ${str(r.verdict) || 'not yet'}`;
      return `run ${str(r.id)} ${r.running ? 'running' : 'ended'}: ${time}${eta} · ${steady}`;
    });
    if (!parts.length) parts.push(str(live.waiting) || 'waiting for data');
    return el('div', { class: 'note live-status', id: 'live-status' }, `live · ${parts.join(' · ')}`);
  }

  // A live page fetches its data again every poll_seconds and redraws when
  // it changed; it says so when the server is gone (the run ended).
  function poll(data, state) {
    const every = Math.max(250, 1000 * (isNum(data.live.poll_seconds) ? data.live.poll_seconds : 1));
    let last = JSON.stringify(data.live) + document.body.dataset.intervals;
    let failures = 0;
    const tick = () => {
      fetch(`data.json${location.search}`, { cache: 'no-store' })
        .then((response) => {
          if (!response.ok) throw new Error(`HTTP ${response.status}`);
          return response.json();
        })
        .then((next) => {
          failures = 0;
          const key = JSON.stringify(next.live) + arr(next.runs).map((r) => str((r.series || {}).points)).join();
          if (key !== last) {
            last = key;
            const y = window.scrollY;
            Promise.all(render(next, state)).then(() => window.scrollTo(0, y));
          }
          setTimeout(tick, every);
        })
        .catch(() => {
          failures += 1;
          if (failures >= 3) {
            const status = document.getElementById('live-status');
            if (status) status.textContent = 'live view ended: the server no longer answers (the run is over)';
            document.body.dataset.live = 'ended';
            return;
          }
          setTimeout(tick, every);
        });
    };
    document.body.dataset.live = 'polling';
    setTimeout(tick, every);
  }

  function main() {
    const root = document.getElementById('report');
    let data;
    try {
      data = loadData();
    } catch (e) {
      root.replaceChildren(el('div', { class: 'error-box' }, `This report cannot be shown: ${e.message}`));
      document.body.dataset.ready = 'error';
      console.error('flashmark report:', e);
      return;
    }
    const state = { charts: {} };
    const pending = render(data, state);
    let timer = 0;
    const resizeAll = () => Object.values(state.charts).forEach((c) => c.resize());
    window.addEventListener('resize', () => { clearTimeout(timer); timer = setTimeout(resizeAll, 100); });
    const opened = [];
    // Paper: every run's details open, no toolbox, charts fitted to the page width.
    const toolbox = (show) => Object.values(state.charts).forEach((c) => c.setOption({ toolbox: { show } }));
    window.addEventListener('beforeprint', () => {
      document.querySelectorAll('details.run:not([open])').forEach((d) => { d.open = true; opened.push(d); });
      toolbox(false);
      resizeAll();
    });
    window.addEventListener('afterprint', () => {
      opened.splice(0).forEach((d) => { d.open = false; });
      toolbox(true);
      resizeAll();
    });

    Promise.all(pending).then(() => requestAnimationFrame(() => {
      document.body.dataset.ready = '1';
      if (data.live && location.protocol.startsWith('http')) poll(data, state);
    }));
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', main);
  else main();
})();
