// Shared by the browser checks (browser_check.js, html_browser_check.js):
// headless Chromium through playwright-core with no background traffic,
// and a page whose script errors are collected.
'use strict';

async function openChromium(moduleDir, chromium, userDir, height) {
  const { chromium: pw } = require(require('path').join(moduleDir, 'playwright-core'));
  return pw.launchPersistentContext(userDir, {
    executablePath: chromium,
    headless: true,
    viewport: { width: 1200, height },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update',
           '--disable-sync'],
  });
}

async function newWatchedPage(browser, errors) {
  const page = await browser.newPage();
  page.on('pageerror', (e) => errors.push('pageerror: ' + e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push('console: ' + m.text()); });
  return page;
}

// An HTML report (-f html) opened, once its first part's flame graph is
// drawn: { browser, page } (the caller closes the browser). With
// `requests`, the URL of every request the page makes is pushed to it.
async function openReport(moduleDir, chromium, userDir, height, file, errors, requests) {
  const browser = await openChromium(moduleDir, chromium, userDir, height);
  const page = await newWatchedPage(browser, errors);
  if (requests) page.on('request', (r) => requests.push(r.url()));
  await page.goto('file://' + file);
  await page.waitForFunction(() => window.cfReport && window.cfReport.graphs[0] &&
                                   window.cfReport.graphs[0].drawn > 0, null, { timeout: 30000 });
  return { browser, page };
}

module.exports = { openChromium, newWatchedPage, openReport };
