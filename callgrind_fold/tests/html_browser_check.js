// Opens an HTML report (-f html) in headless Chromium (playwright-core)
// and checks that it works: no script errors, every part's flame graph
// drawn (canvas not blank), search highlights and reports a matched
// share, a click zooms, and no request leaves the page. Writes a
// screenshot. Prints one JSON line.
// Usage: node html_browser_check.js MODULE_DIR CHROMIUM PAGE SCREENSHOT USERDIR [timing|text]
//   timing: only the time to the first drawn flame graph (big pages).
//   text: only what the page says: the table's header and cells, and
//         each part's summary line.
'use strict';
const [moduleDir, chromium, file, shot, userDir, mode] = process.argv.slice(2);
const { openChromium, newWatchedPage } = require('./chromium_page.js');

(async () => {
  const errors = [], requests = [];
  const browser = await openChromium(moduleDir, chromium, userDir, 900);
  try {
    const page = await newWatchedPage(browser, errors);
    page.on('request', (r) => requests.push(r.url()));
    const url = 'file://' + file;
    const start = Date.now();
    await page.goto(url);
    await page.waitForFunction(() => window.cfReport && window.cfReport.graphs[0] &&
                                     window.cfReport.graphs[0].drawn > 0, null, { timeout: 30000 });
    const wall = Date.now() - start;
    const timing = await page.evaluate(() => {
      const paint = performance.getEntriesByType('paint').map((p) => [p.name, p.startTime]);
      return { paint, firstGraph: window.cfReport.firstGraphAt };
    });
    if (mode === 'text') {
      const text = await page.evaluate(() => {
        const cells = (tr, tag) => Array.from(tr.querySelectorAll(tag)).map((c) => c.textContent);
        return {
          head: cells(document.querySelector('table.cf-table thead tr'), 'th'),
          rows: Array.from(document.querySelectorAll('table.cf-table tbody tr')).map((tr) => cells(tr, 'td')),
          summaries: Array.from(document.querySelectorAll('details.cf-part > summary')).map((s) => s.textContent),
        };
      });
      await page.screenshot({ path: shot });
      console.log(JSON.stringify({ errors, requests, text }));
      return;
    }
    if (mode === 'timing') {
      await page.screenshot({ path: shot });
      console.log(JSON.stringify({ errors, requests, timing, wall }));
      return;
    }
    const result = await page.evaluate(() => {
      const R = window.cfReport, parts = [];
      function blank(cv) {
        const d = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data;
        let colored = 0;
        for (let i = 0; i < d.length; i += 4) if (d[i + 3] > 0 && (d[i] < 240 || d[i + 1] < 240 || d[i + 2] < 240)) colored++;
        return colored;
      }
      for (let i = 0; i < R.meta.parts.length; i++) {
        R.openPart(i);
        const g = R.graphs[i];
        // the frames drawn at depth 1, left to right (a part's threads)
        const level1 = (g.rows[1] || []).slice().sort((a, b) => a[0] - b[0])
          .map((r) => R.meta.names[g.tree.name[r[2]]]);
        parts.push({ drawn: g.drawn, colored: blank(g.canvas), nodes: g.tree.n, level1 });
      }
      // search and zoom on the part with the most nodes
      let best = 0;
      for (let i = 0; i < parts.length; i++) if (parts[i].nodes > parts[best].nodes) best = i;
      R.openPart(best);
      const g = R.graphs[best], t = g.tree;
      let target = -1; // the widest frame narrower than the part
      for (let i = 1; i < t.n; i++)
        if (t.name[i] > 1 && g.value[i] < 0.9 * g.value[0] && (target < 0 || g.value[i] > g.value[target])) target = i;
      const name = R.meta.names[t.name[target]];
      const esc = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const share = g.search(esc);
      const purple = (() => {
        const d = g.canvas.getContext('2d').getImageData(0, 0, g.canvas.width, g.canvas.height).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 4) if (d[i] === 230 && d[i + 1] === 0 && d[i + 2] === 230) n++;
        return n;
      })();
      const matched = g.matchedText.textContent;
      const drawnBefore = g.drawn;
      // a click in the middle of the target's box zooms to it
      const row = g.rows[t.depth[target]].find((r) => r[2] === target);
      const rect = g.canvas.getBoundingClientRect();
      const y = rect.top + 4 + (g.deepest - t.depth[target]) * 17 + 8;
      g.canvas.dispatchEvent(new MouseEvent('mousemove', { clientX: rect.left + (row[0] + row[1]) / 2, clientY: y, bubbles: true }));
      const tip = document.getElementById('cf-tip').textContent;
      g.canvas.dispatchEvent(new MouseEvent('click', { clientX: rect.left + (row[0] + row[1]) / 2, clientY: y, bubbles: true }));
      const zoomed = g.zoomNode;
      const zoomRow = g.rows[t.depth[target]].find((r) => r[2] === target);
      const zoomWidth = zoomRow ? zoomRow[1] - zoomRow[0] : 0;
      const fullWidth = g.rows[0][0][1] - g.rows[0][0][0];
      g.search('');
      g.zoom(0);
      return { parts, best, target, name, share, purple, matched, drawnBefore, tip, zoomed,
               zoomWidth, fullWidth, drawnAfter: g.drawn, rowsText: document.querySelectorAll('table.cf-table tbody tr').length };
    });
    await page.evaluate(() => { window.cfReport.openPart(0); window.scrollTo(0, 0); });
    await page.screenshot({ path: shot, fullPage: false });
    console.log(JSON.stringify({ errors, requests, timing, wall, result }));
  } finally {
    await browser.close();
  }
})().catch((e) => { console.log(JSON.stringify({ errors: ['driver: ' + e.message] })); process.exit(2); });
