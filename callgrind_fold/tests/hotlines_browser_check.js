// Opens an HTML report (-f html) with hot lines in headless Chromium
// (playwright-core) and reads back what a person sees of them: for every
// row of every hot-lines table its cells' text, the cost cell's colours
// and right edge, the source cell's font; the notes; then the same after
// the event selector switched to the second event. Writes a screenshot
// of the first part's hot lines. Prints one JSON line.
// Usage: node hotlines_browser_check.js MODULE_DIR CHROMIUM PAGE SCREENSHOT USERDIR
'use strict';
const [moduleDir, chromium, file, shot, userDir] = process.argv.slice(2);
const { openReport } = require('./chromium_page.js');

(async () => {
  const errors = [], requests = [];
  const { browser, page } = await openReport(moduleDir, chromium, userDir, 1000, file, errors,
                                             requests);
  try {
    const read = () => page.evaluate(() => {
      const R = window.cfReport, parts = [];
      for (let i = 0; i < R.meta.parts.length; i++) {
        R.openPart(i);
        const box = R.graphs[i].hot, fns = [];
        box.querySelectorAll('.cf-hotfn').forEach((div) => {
          const tables = [];
          div.querySelectorAll('table.cf-lines').forEach((t) => {
            const rows = Array.from(t.tBodies[0].rows).map((tr) => {
              const td = tr.cells, cost = td[1], code = td[3];
              const cs = getComputedStyle(cost), codeStyle = code ? getComputedStyle(code) : null;
              return {
                kind: tr.className, line: td[0].textContent, cost: cost ? cost.textContent : '',
                share: td[2] ? td[2].textContent : '', code: code ? code.textContent : '',
                bg: cs.backgroundColor, color: cs.color, align: cs.textAlign,
                costRight: cost.getBoundingClientRect().right,
                codeFont: codeStyle ? codeStyle.fontFamily : '', codeSize: codeStyle ? codeStyle.fontSize : '',
                codeColor: codeStyle ? codeStyle.color : '', whiteSpace: codeStyle ? codeStyle.whiteSpace : '',
                costFont: cs.fontFamily,
              };
            });
            tables.push({ rows });
          });
          fns.push({
            head: div.querySelector('h4').textContent,
            files: Array.from(div.querySelectorAll('.cf-file')).map((f) => f.textContent),
            notes: Array.from(div.querySelectorAll('p.cf-note')).map((p) => p.textContent),
            tables,
          });
        });
        parts.push({ heading: (box.querySelector('h3') || {}).textContent || '',
                     notes: Array.from(box.querySelectorAll(':scope > p.cf-note')).map((p) => p.textContent),
                     fns, event: R.graphs[i].event });
      }
      return parts;
    });
    const before = await read();
    // the event selector of every part to its second event, if any
    const switched = await page.evaluate(() => {
      const R = window.cfReport;
      let n = 0;
      R.graphs.forEach((g) => {
        const sel = g.box.querySelector('.cf-controls select');
        if (sel && sel.options.length > 1) {
          sel.value = sel.options[1].value;
          sel.dispatchEvent(new Event('change'));
          n++;
        }
      });
      return n;
    });
    const after = await read();
    await page.evaluate(() => {
      const R = window.cfReport;
      R.graphs.forEach((g) => {
        const sel = g.box.querySelector('.cf-controls select');
        if (sel) { sel.value = sel.options[0].value; sel.dispatchEvent(new Event('change')); }
      });
      R.graphs[0].hot.scrollIntoView({ block: 'start' });
    });
    await page.screenshot({ path: shot });
    console.log(JSON.stringify({ errors, requests, before, after, switched }));
  } finally {
    await browser.close();
  }
})().catch((e) => { console.log(JSON.stringify({ errors: ['driver: ' + e.message] })); process.exit(2); });
