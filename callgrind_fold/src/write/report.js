/* The script of the HTML report (-f html): reads the JSON block
 * "cf-meta" (events, frame names, parts), draws the table of parts (or of
 * --diff pairs) and, for each part when it is first opened and in view,
 * decodes its tree block "cf-tN" (format in html.c) and draws it as a
 * flame graph on a canvas: event select, search, zoom, tooltips; under it
 * the part's hot lines (hotlines.h), source text as text only. It asks
 * nothing of the network. window.cfReport is its state, for tests.
 *
 * Embedded in the page by html.c: the Makefile turns this file into a C
 * string (tools/embed.sh), leaving out this opening comment. */
"use strict";
(function () {
  /* No backslash in this file: tools/embed.sh copies it into a C string. */
  var ROW = 17, PAD = 4, MIN_PX = 0.5, NEWLINE = String.fromCharCode(10);
  var meta = JSON.parse(document.getElementById('cf-meta').textContent);
  var names = meta.names, raw = meta.raw, events = meta.events, E = events.length;
  var isDiff = meta.kind === 'diff';
  /* --cycle-estimation's block-model event, shown as estimated cycles
     beside the chosen event (html.c writes "estimate" only when the run
     has it); -1: none. */
  var est = meta.estimate || null, EST = est ? est.event : -1;
  var main = document.getElementById('cf-main');
  var DIGIT = new Int8Array(128).fill(-1);
  (function () {
    var last = '0123456789abcdefghijklmnopqrstuv', cont = 'wxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-';
    for (var i = 0; i < 32; i++) { DIGIT[last.charCodeAt(i)] = i; DIGIT[cont.charCodeAt(i)] = 32 + i; }
  })();

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function fmt(n) { return Math.round(n).toLocaleString('en-US'); }
  /* Centi-cycles as cycles, two decimals: exactly v / 100 (integer
     arithmetic, so the figure is the file's total, only scaled). */
  function cycles(v) {
    var c = v % 100;
    return fmt((v - c) / 100) + (c < 10 ? '.0' : '.') + c;
  }
  /* callgrind's cycle estimates (--cycle-estimation) count hundredths of
     a cycle: shown as cycles, whatever else the page shows of them
     (meta.cycles[e]: what event e estimates, null for other events). */
  function isCycles(e) { return !!(meta.cycles && meta.cycles[e]); }
  /* Event e's count v as the page shows it. */
  function amount(e, v) { return isCycles(e) ? cycles(v) : fmt(v); }
  function pct(a, b) { return b ? (100 * a / b).toFixed(2) + '%' : '-'; }
  function change(o, n) {
    if (!o) return n ? '+inf' : '0.00%';
    var c = 100 * (n - o) / o;
    return (c > 0 ? '+' : '') + c.toFixed(2) + '%';
  }
  function eventLabel(e) {
    var what = events[e][1] || (isCycles(e) ? 'estimated cycles, ' + meta.cycles[e] : '');
    return events[e][0] + (what ? ' (' + what + ')' : '');
  }

  /* ---- the data of one part ---- */
  function decode(part) {
    var s = document.getElementById('cf-t' + part.tree).textContent;
    var n = part.nodes, K = part.cols, pos = 0;
    var depth = new Int32Array(n), name = new Int32Array(n), parent = new Int32Array(n);
    var end = new Int32Array(n), self = new Float64Array(n * K), chain = [], prev = -1, maxDepth = 0;
    function num() {
      var v = 0;
      for (;;) {
        var d = DIGIT[s.charCodeAt(pos++)];
        if (d < 0 || d === undefined) throw new Error('bad tree data of part ' + part.name);
        if (d < 32) return v * 32 + d;
        v = v * 32 + (d - 32);
      }
    }
    for (var i = 0; i < n; i++) {
      var d = prev + 1 - num();
      depth[i] = d; prev = d;
      if (d > maxDepth) maxDepth = d;
      name[i] = num();
      for (var c = 0; c < K; c++) self[i * K + c] = num();
      chain[d] = i;
      parent[i] = d ? chain[d - 1] : -1;
    }
    for (i = 0; i < n; i++) end[i] = i + 1;
    for (i = n - 1; i > 0; i--) if (end[i] > end[parent[i]]) end[parent[i]] = end[i];
    return { n: n, K: K, depth: depth, name: name, parent: parent, end: end, self: self, maxDepth: maxDepth };
  }

  function inclusive(t, col) {
    var v = new Float64Array(t.n);
    if (col < 0 || col >= t.K) return v;
    for (var i = 0; i < t.n; i++) v[i] = t.self[i * t.K + col];
    for (i = t.n - 1; i > 0; i--) v[t.parent[i]] += v[i];
    return v;
  }

  /* ---- colors ---- */
  function hash(s) {
    var h = 2166136261;
    for (var i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 16777619); }
    return (h >>> 0) / 4294967296;
  }
  var colorCache = new Map();
  function warm(id) {
    var c = colorCache.get(id);
    if (c) return c;
    var s = names[id], h1 = hash(s), h2 = hash(s + '#1'), h3 = hash(s + '#2');
    c = 'rgb(' + (205 + Math.round(50 * h3)) + ',' + Math.round(230 * h1) + ',' + Math.round(55 * h2) + ')';
    colorCache.set(id, c);
    return c;
  }
  /* Red where a frame grew, blue where it shrank; full at a factor 2. */
  function diffColor(o, n) {
    if (n === o) return 'rgb(232,232,232)';
    var k = o > 0 ? Math.min(1, Math.abs(Math.log2(n / o))) : 1;
    var fade = Math.round(232 - 192 * k), full = Math.round(232 + 18 * k);
    return n > o ? 'rgb(' + full + ',' + fade + ',' + fade + ')' : 'rgb(' + fade + ',' + fade + ',' + full + ')';
  }

  /* ---- the flame graph of one part ---- */
  function Graph(index, part, box) {
    this.index = index; this.part = part; this.box = box;
    this.tree = decode(part);
    this.diff = isDiff && part.diff;
    this.zoomNode = 0; this.term = ''; this.matched = null; this.drawn = 0;
    var present = [];
    for (var e = 0; e < E; e++) if (part.totals[e] > 0) present.push(e);
    if (!present.length) present.push(meta.defaultEvent);
    this.event = present.indexOf(meta.defaultEvent) >= 0 ? meta.defaultEvent : present[0];
    this.controls(present);
    this.scroll = box.appendChild(el('div', 'cf-scroll'));
    this.canvas = this.scroll.appendChild(el('canvas'));
    this.removed = box.appendChild(el('div', 'cf-removed'));
    this.hot = box.appendChild(el('div', 'cf-hot'));
    var g = this;
    this.canvas.addEventListener('mousemove', function (ev) { g.hover(ev); });
    this.canvas.addEventListener('mouseleave', function () { tip.style.display = 'none'; });
    this.canvas.addEventListener('click', function (ev) {
      var i = g.nodeAt(ev);
      if (i >= 0) g.zoom(i);
    });
    this.setEvent(this.event);
    this.scroll.scrollTop = this.scroll.scrollHeight; /* open at the base */
  }

  Graph.prototype.controls = function (present) {
    var g = this, c = this.box.appendChild(el('div', 'cf-controls'));
    var label = c.appendChild(el('label', null, 'event '));
    var sel = label.appendChild(el('select'));
    present.forEach(function (e) {
      var o = sel.appendChild(el('option', null, eventLabel(e)));
      o.value = e;
      if (e === g.event) o.selected = true;
    });
    sel.addEventListener('change', function () { g.setEvent(+sel.value); });
    this.searchBox = c.appendChild(el('input'));
    this.searchBox.type = 'search';
    this.searchBox.placeholder = 'search (regular expression)';
    this.searchBox.addEventListener('input', function () { g.search(g.searchBox.value); });
    var reset = c.appendChild(el('button', null, 'Reset zoom'));
    reset.addEventListener('click', function () { g.zoom(0); });
    this.matchedText = c.appendChild(el('span', 'cf-matched'));
    this.note = c.appendChild(el('span', 'cf-note'));
  };

  Graph.prototype.setEvent = function (e) {
    this.event = e;
    this.value = inclusive(this.tree, e);
    this.old = this.diff ? inclusive(this.tree, E + e) : null;
    var t = this.tree, x = new Float64Array(t.n), next = new Float64Array(t.n);
    for (var i = 1; i < t.n; i++) {
      var p = t.parent[i];
      x[i] = next[p] + x[p];
      next[p] += this.value[i];
    }
    this.x = x;
    var merged = 0;
    for (i = 0; i < t.n; i++) if (t.name[i] === 0) merged += this.value[i];
    this.note.textContent = !this.value[0] ? 'No ' + events[e][0] + ' in this part.' : this.part.pruned ?
      this.part.pruned + ' frames under 1/' + meta.divisor + ' of the total in every event merged into "(merged)": ' +
      pct(merged, this.value[0]) + ' of ' + events[e][0] : '';
    this.search(this.term);
    this.showRemoved();
    this.showHot();
  };

  Graph.prototype.label = function (i) {
    return i === 0 ? this.part.name : names[this.tree.name[i]];
  };

  Graph.prototype.search = function (term) {
    this.term = term;
    var t = this.tree;
    if (!term) {
      this.matched = null;
      this.matchedText.textContent = '';
    } else {
      var re = null;
      try { re = new RegExp(term); } catch (err) { re = null; }
      var cache = new Map(), m = new Uint8Array(t.n), sum = 0, until = 0;
      for (var i = 1; i < t.n; i++) {
        var id = t.name[i], hit = cache.get(id);
        if (hit === undefined) {
          var s = names[id];
          hit = re ? re.test(s) : s.indexOf(term) >= 0;
          cache.set(id, hit);
        }
        if (!hit) continue;
        m[i] = 1;
        if (i >= until) { sum += this.value[i]; until = t.end[i]; }
      }
      this.matched = m;
      this.matchedShare = this.value[0] ? sum / this.value[0] : 0;
      this.matchedText.textContent = 'Matched: ' + amount(this.event, sum) + ' (' + pct(sum, this.value[0]) + ')';
    }
    this.draw();
    return this.matched ? this.matchedShare : 0;
  };

  Graph.prototype.zoom = function (i) {
    this.zoomNode = i;
    this.draw();
  };

  Graph.prototype.draw = function () {
    var t = this.tree, v = this.value, width = Math.max(300, this.box.clientWidth - 2 * PAD - 20);
    var z = this.zoomNode, zx = this.x[z], zw = v[z] || 1, scale = width / zw;
    /* Depth drawn: the deepest frame of at least MIN_PX in the view. */
    var deepest = t.depth[z];
    for (var i = z; i < t.end[z];) {
      if (v[i] * scale < MIN_PX) { i = t.end[i]; continue; }
      if (t.depth[i] > deepest) deepest = t.depth[i];
      i++;
    }
    var dpr = window.devicePixelRatio || 1, height = (deepest + 1) * ROW + 2 * PAD;
    var cv = this.canvas;
    cv.width = Math.round((width + 2 * PAD) * dpr);
    cv.height = Math.round(height * dpr);
    cv.style.width = (width + 2 * PAD) + 'px';
    cv.style.height = height + 'px';
    var ctx = cv.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.font = '11px ui-monospace, Menlo, Consolas, monospace';
    ctx.textBaseline = 'middle';
    var charW = ctx.measureText('m').width || 6.6;
    this.rows = [];
    this.deepest = deepest;
    this.drawn = 0;
    var g = this;
    function box(i, x, w) {
      var d = t.depth[i], y = PAD + (deepest - d) * ROW;
      var fill;
      if (g.matched && g.matched[i]) fill = 'rgb(230,0,230)';
      else if (t.name[i] === 0) fill = 'rgb(200,200,200)';
      else if (g.diff) fill = diffColor(g.old[i], v[i]);
      else if (i === 0) fill = 'rgb(230,180,90)';
      else fill = warm(t.name[i]);
      ctx.fillStyle = fill;
      ctx.fillRect(PAD + x, y, Math.max(w - 0.5, 0.5), ROW - 1);
      (g.rows[d] || (g.rows[d] = [])).push([PAD + x, PAD + x + w, i]);
      g.drawn++;
      var chars = Math.floor((w - 6) / charW);
      if (chars >= 3) {
        var s = g.label(i);
        if (s.length > chars) s = s.substring(0, chars - 2) + '..';
        ctx.fillStyle = '#000';
        ctx.fillText(s, PAD + x + 3, y + ROW / 2);
      }
    }
    ctx.globalAlpha = 0.6; /* the way down to z, faded */
    for (var a = t.parent[z]; a >= 0; a = t.parent[a]) box(a, 0, width);
    ctx.globalAlpha = 1;
    for (i = z; i < t.end[z];) {
      var w = v[i] * scale;
      if (w < MIN_PX) { i = t.end[i]; continue; }
      box(i, (this.x[i] - zx) * scale, w);
      i++;
    }
  };

  Graph.prototype.nodeAt = function (ev) {
    var r = this.canvas.getBoundingClientRect(), x = ev.clientX - r.left, y = ev.clientY - r.top;
    var d = this.deepest - Math.floor((y - PAD) / ROW), row = this.rows && this.rows[d];
    if (!row) return -1;
    for (var k = 0; k < row.length; k++) if (x >= row[k][0] && x < row[k][1]) return row[k][2];
    return -1;
  };

  Graph.prototype.tipText = function (i) {
    var t = this.tree, id = t.name[i], v = this.value, ev = events[this.event][0];
    var lines = [this.label(i)];
    if (raw[id] !== undefined) lines.push('raw: ' + raw[id]);
    if (id === 0) lines.push('frames under 1/' + meta.divisor + ' of the total in every event, merged');
    if (this.diff) {
      var o = this.old[i];
      lines.push(ev + ' before ' + amount(this.event, o) + ', after ' + amount(this.event, v[i]) + ', change ' + change(o, v[i]) +
                 ' (' + pct(v[i], v[0]) + ' of the part after)');
    } else {
      lines.push(ev + ' ' + amount(this.event, v[i]) + ' (' + pct(v[i], v[0]) + ' of the part), self ' +
                 amount(this.event, t.self[i * t.K + this.event]));
    }
    return lines.join(NEWLINE);
  };

  Graph.prototype.hover = function (ev) {
    var i = this.nodeAt(ev);
    if (i < 0) { tip.style.display = 'none'; return; }
    tip.textContent = this.tipText(i);
    tip.style.display = 'block';
    var x = ev.clientX + 14, y = ev.clientY + 14;
    if (x + tip.offsetWidth > window.innerWidth) x = Math.max(0, ev.clientX - tip.offsetWidth - 8);
    if (y + tip.offsetHeight > window.innerHeight) y = Math.max(0, ev.clientY - tip.offsetHeight - 8);
    tip.style.left = x + 'px';
    tip.style.top = y + 'px';
  };

  /* --diff: frames only in OLD have no width in a picture sized by NEW:
   * the topmost of them are listed under it, largest first. */
  Graph.prototype.showRemoved = function () {
    this.removed.textContent = '';
    if (!this.diff) return;
    var t = this.tree, v = this.value, o = this.old, gone = [], sum = 0;
    for (var i = 1; i < t.n; i++)
      if (v[i] === 0 && o[i] > 0 && v[t.parent[i]] > 0) { gone.push(i); sum += o[i]; }
    if (!gone.length) return;
    gone.sort(function (a, b) { return o[b] - o[a]; });
    this.removed.appendChild(el('div', null, 'Only in OLD (not drawn): ' + gone.length + ' frames, ' +
      amount(this.event, sum) + ' ' + events[this.event][0] + ' (' + pct(sum, o[0]) + ' of the old total)'));
    var ul = this.removed.appendChild(el('ul'));
    for (var k = 0; k < gone.length && k < 20; k++) {
      var path = [], j = gone[k];
      for (var a = j; a > 0 && path.length < 4; a = t.parent[a]) path.unshift(this.label(a));
      ul.appendChild(el('li', null, (t.depth[j] > 4 ? '... ; ' : '') + path.join(' ; ') + '  ' + amount(this.event, o[j])));
    }
  };

  /* ---- hot lines: the part's hottest functions, self cost by line ---- */
  /* colors.c's color_heat: blue to red for a fraction of the part. */
  var HEAT = [[40, 80, 200], [30, 170, 200], [40, 170, 60], [200, 190, 30], [235, 120, 20], [215, 30, 30]];
  function heat(f) {
    f = Math.sqrt(Math.min(1, Math.max(0, f || 0)));
    var pos = f * (HEAT.length - 1), i = Math.floor(pos);
    if (i >= HEAT.length - 1) return HEAT[HEAT.length - 1];
    var t = pos - i, a = HEAT[i], b = HEAT[i + 1];
    return [0, 1, 2].map(function (k) { return Math.floor(a[k] + t * (b[k] - a[k]) + 0.5); });
  }
  function heatCell(td, f) {
    var c = heat(f);
    td.style.background = 'rgb(' + c.join(',') + ')';
    /* dark text on the light colours, white on the dark */
    td.style.color = 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2] > 140 ? '#000' : '#fff';
  }

  /* One source file's text (html.c's "sources"): line -> text. */
  var sourceText = [];
  function textOf(file) {
    if (sourceText[file]) return sourceText[file];
    var m = new Map(), source = (meta.sources || [])[file] || {};
    (source.text || []).forEach(function (run) {
      for (var k = 1; k < run.length; k++) m.set(run[0] + k - 1, run[k]);
    });
    return (sourceText[file] = m);
  }

  Graph.prototype.showHot = function () {
    var h = this.part.hot, box = this.hot, e = this.event, ev = events[e][0];
    box.textContent = '';
    if (!h) return;
    var lim = meta.hotLimits || {}, total = this.part.totals[e];
    box.appendChild(el('h3', null, 'Hot lines: self cost by line, all callers'));
    if (h.why) { box.appendChild(el('p', 'cf-note', 'No hot lines: ' + h.why + '.')); return; }
    box.appendChild(el('p', 'cf-note', 'The functions with the most self cost in ' +
      events[meta.defaultEvent][0] + ' (up to ' + lim.functions + ', each at least ' + lim.permille / 10 +
      '% of the part), and the self cost of each of their lines summed over every call path, in ' + ev +
      '; the colour is the share of the part.'));
    var g = this;
    h.fns.forEach(function (fn) { g.hotFunction(box, fn, e, total); });
  };

  Graph.prototype.hotFunction = function (box, fn, e, total) {
    var ev = events[e][0], div = box.appendChild(el('div', 'cf-hotfn'));
    div.appendChild(el('h4', null, names[fn.f] + ' - self ' + amount(e, fn.self[e]) + ' ' + ev + ' (' +
      pct(fn.self[e], total) + ' of the part)'));
    fn.notes.forEach(function (n) { div.appendChild(el('p', 'cf-note cf-warn', n)); });
    if (fn.partial.indexOf(e) >= 0) {
      div.appendChild(el('p', 'cf-note cf-warn', 'Its lines do not add up to its self cost in ' + ev +
        ' (the input has no lines for part of it): no lines shown for ' + ev + '.'));
      return;
    }
    var start = 0;
    while (start < fn.lines.length) {
      var file = fn.lines[start][0], end = start;
      while (end < fn.lines.length && fn.lines[end][0] === file) end++;
      this.hotFile(div, fn.lines.slice(start, end), file, e, total);
      start = end;
    }
    if (fn.rest.n)
      div.appendChild(el('p', 'cf-note', fn.rest.n + ' more lines (the least costly), together ' +
        amount(e, fn.rest.cost[e]) + ' ' + ev + ' (' + pct(fn.rest.cost[e], total) + ' of the part)'));
  };

  /* A function's lines in one file: a table of line number, cost, share
   * of the part and the source text, with context lines around. */
  Graph.prototype.hotFile = function (div, lines, file, e, total) {
    var source = (meta.sources || [])[file] || { path: '?' }, text = textOf(file), C = (meta.hotLimits || {}).context || 0;
    var head = div.appendChild(el('div', 'cf-file', source.path));
    if (source.found) head.title = 'read from ' + source.found;
    if (source.why) div.appendChild(el('p', 'cf-note cf-warn', 'No source text: ' + source.why + '.'));
    (source.notes || []).forEach(function (n) { div.appendChild(el('p', 'cf-note cf-warn', 'Source: ' + n + '.')); });
    var cost = new Map();
    lines.forEach(function (l) { cost.set(l[1], l[2 + e]); });
    /* the lines to show: each line with a cost, and its context where the text is known */
    var show = [];
    lines.forEach(function (l) {
      var n = l[1];
      if (!text.size || n === 0 || !text.has(n)) { show.push(n); return; }
      for (var k = n - C; k <= n + C; k++) if (k === n || text.has(k)) show.push(k);
    });
    show = show.filter(function (n, i) { return show.indexOf(n) === i; }).sort(function (a, b) { return a - b; });
    var table = div.appendChild(el('table', 'cf-lines')), body = table.appendChild(el('tbody'));
    var hr = table.createTHead().appendChild(el('tr'));
    ['line', events[e][0], '% of part', 'source'].forEach(function (t) { hr.appendChild(el('th', null, t)); });
    var prev = -1;
    show.forEach(function (n) {
      if (prev >= 0 && n > prev + 1 && text.size) {
        var gap = body.appendChild(el('tr', 'cf-gap'));
        gap.appendChild(el('td', 'num', '...'));
        gap.appendChild(el('td')); gap.appendChild(el('td')); gap.appendChild(el('td'));
      }
      prev = n;
      var tr = body.appendChild(el('tr', cost.has(n) ? 'cf-hotline' : 'cf-context'));
      tr.dataset.line = n;
      tr.appendChild(el('td', 'num', n ? String(n) : '-'));
      var c = cost.get(n), td = tr.appendChild(el('td', 'num cf-cost', c === undefined ? '' : amount(e, c)));
      tr.appendChild(el('td', 'num', c === undefined ? '' : pct(c, total)));
      if (c !== undefined && c > 0) heatCell(td, total ? c / total : 0);
      var code = tr.appendChild(el('td', 'cf-code'));
      if (text.has(n)) code.textContent = text.get(n); /* text only: never parsed as HTML */
      else code.appendChild(el('span', 'cf-nosrc', n === 0 ? '(no line)' : '(no text)'));
    });
  };

  /* ---- the page ---- */
  var tip = document.body.appendChild(el('div'));
  tip.id = 'cf-tip';
  var parts = meta.parts, graphs = [], sections = [];
  var api = window.cfReport = { meta: meta, graphs: graphs, decode: decode };

  function build(i) {
    if (graphs[i]) return graphs[i];
    var box = sections[i].querySelector('.cf-graph');
    try {
      graphs[i] = new Graph(i, parts[i], box);
      if (api.firstGraphAt === undefined) api.firstGraphAt = performance.now();
    } catch (err) {
      box.textContent = 'Cannot draw this part: ' + err.message;
      throw err;
    }
    return graphs[i];
  }
  function openPart(i) {
    sections[i].open = true;
    build(i);
    sections[i].scrollIntoView({ block: 'start' });
  }

  function tableOfParts() {
    var ev = meta.defaultEvent, note = main.appendChild(el('p', 'cf-note'));
    note.textContent = parts.length + (parts.length === 1 ? ' part' : ' parts') +
      '; click a row for its flame graph. Share in 0x...: cost of stacks ending in code no object or perf map knows (a frame named 0x...; code of a known object is named by it, libc.so.6+0x26040), in ' +
      events[ev][0] + '.';
    var wrap = main.appendChild(el('div', 'cf-tablewrap')), table = wrap.appendChild(el('table', 'cf-table'));
    var hr = table.appendChild(el('thead')).appendChild(el('tr'));
    hr.appendChild(el('th', null, '#'));
    hr.appendChild(el('th', null, 'benchmark'));
    if (EST >= 0) hr.appendChild(el('th', 'cf-estimate', est.label));
    for (var e = 0; e < E; e++) {
      var th = hr.appendChild(el('th', null, events[e][0]));
      th.title = eventLabel(e);
    }
    hr.appendChild(el('th', null, 'share in 0x...'));
    var body = table.appendChild(el('tbody'));
    parts.forEach(function (p, i) {
      var tr = body.appendChild(el('tr'));
      tr.appendChild(el('td', 'num', String(p.number)));
      var td = tr.appendChild(el('td', 'name', p.name));
      td.title = (p.trigger || p.name) + threadsNote(p, '\nthreads: ');
      if (EST >= 0) tr.appendChild(el('td', 'num cf-estimate', cycles(p.totals[EST])));
      for (var e = 0; e < E; e++) tr.appendChild(el('td', 'num', amount(e, p.totals[e])));
      tr.appendChild(el('td', 'num', pct(p.unknown[ev], p.totals[ev])));
      tr.addEventListener('click', function () { openPart(i); });
    });
  }

  /* A part drawn thread by thread: how many, and which (its first, the
   * one that triggered the dump, leftmost). */
  function threadsNote(p, sep) {
    var t = p.threads || [];
    return t.length ? sep + t.length + (t.length === 1 ? ' thread' : ' threads') + ' (' + t.join(', ') + ')' : '';
  }

  function tableOfPairs() {
    var note = main.appendChild(el('p', 'cf-note'));
    note.textContent = parts.length + ' benchmarks; click a row for its differential flame graph ' +
      '(sized by NEW; red: grew, blue: shrank, full color at a factor 2; frames only in OLD listed under it).';
    var pick = main.appendChild(el('label', null, 'totals of '));
    var sel = pick.appendChild(el('select'));
    for (var e = 0; e < E; e++) {
      var o = sel.appendChild(el('option', null, eventLabel(e)));
      o.value = e;
      if (e === meta.defaultEvent) o.selected = true;
    }
    var wrap = main.appendChild(el('div', 'cf-tablewrap')), table = wrap.appendChild(el('table', 'cf-table'));
    var head = table.appendChild(el('thead')), body = table.appendChild(el('tbody'));
    function fill() {
      var ev = +sel.value;
      head.textContent = '';
      body.textContent = '';
      var hr = head.appendChild(el('tr'));
      ['benchmark', '', 'old ' + events[ev][0], 'new ' + events[ev][0], 'change'].forEach(function (h) {
        hr.appendChild(el('th', null, h));
      });
      if (EST >= 0) ['old ' + est.label, 'new ' + est.label, 'change'].forEach(function (h) {
        hr.appendChild(el('th', 'cf-estimate', h));
      });
      for (var e = 0; e < E; e++) if (e !== ev) hr.appendChild(el('th', null, events[e][0] + ' change'));
      parts.forEach(function (p, i) {
        var tr = body.appendChild(el('tr'));
        tr.className = !p.old ? 'cf-added' : !p.new ? 'cf-removed' : '';
        tr.appendChild(el('td', 'name', p.name));
        tr.appendChild(el('td', 'status', !p.old ? 'added' : !p.new ? 'removed' : ''));
        function cells(e, both) {
          var o = p.old ? p.old.totals[e] : 0, n = p.new ? p.new.totals[e] : 0;
          if (both) {
            tr.appendChild(el('td', 'num', p.old ? amount(e, o) : '-'));
            tr.appendChild(el('td', 'num', p.new ? amount(e, n) : '-'));
          }
          var td = tr.appendChild(el('td', 'num', p.old && p.new ? change(o, n) : '-'));
          if (p.old && p.new && n !== o) td.className += n > o ? ' grew' : ' shrank';
        }
        cells(ev, true);
        if (EST >= 0) {
          tr.appendChild(el('td', 'num cf-estimate', p.old && est.old ? cycles(p.old.totals[EST]) : '-'));
          tr.appendChild(el('td', 'num cf-estimate', p.new ? cycles(p.new.totals[EST]) : '-'));
          var td = tr.appendChild(el('td', 'num cf-estimate', p.old && p.new ?
            est.old ? change(p.old.totals[EST], p.new.totals[EST]) : 'n/a' : '-'));
          if (p.old && p.new && est.old && p.new.totals[EST] !== p.old.totals[EST])
            td.className += p.new.totals[EST] > p.old.totals[EST] ? ' grew' : ' shrank';
        }
        for (var e = 0; e < E; e++) if (e !== ev) cells(e, false);
        tr.addEventListener('click', function () { openPart(i); });
      });
    }
    sel.addEventListener('change', fill);
    fill();
  }

  function partSections() {
    var openAll = parts.length <= 20;
    var seen = typeof IntersectionObserver === 'function' ? new IntersectionObserver(function (entries) {
      entries.forEach(function (en) {
        var i = +en.target.dataset.index;
        if (en.isIntersecting && sections[i].open) build(i);
      });
    }, { rootMargin: '200px' }) : null;
    parts.forEach(function (p, i) {
      var d = main.appendChild(el('details', 'cf-part'));
      d.id = 'cf-part-' + i;
      d.dataset.index = i;
      var what = isDiff ? (!p.old ? ' (added)' : !p.new ? ' (removed)' : '') : '';
      var side = isDiff ? p.new || p.old : p, total = side.totals[meta.defaultEvent];
      var estimated = EST >= 0 && (side === p.new || !isDiff || est.old) ?
        ' - ' + cycles(side.totals[EST]) + ' ' + est.label : '';
      d.appendChild(el('summary', null, p.name + what + ' - ' + amount(meta.defaultEvent, total) + ' ' + events[meta.defaultEvent][0] +
        estimated + threadsNote(side, ' - ')));
      d.appendChild(el('div', 'cf-graph'));
      d.open = openAll || i === 0; /* many parts: the first open, the others on demand */
      d.addEventListener('toggle', function () {
        if (!d.open) return;
        var had = graphs[i]; /* drawn while closed: at a width of nothing */
        build(i);
        if (had) had.draw();
      });
      sections[i] = d;
      if (seen) seen.observe(d);
      else if (openAll) build(i);
    });
  }

  if (isDiff) tableOfPairs(); else tableOfParts();
  partSections();
  var resizing = 0;
  window.addEventListener('resize', function () {
    clearTimeout(resizing);
    resizing = setTimeout(function () {
      graphs.forEach(function (g, i) { if (g && sections[i].open) g.draw(); });
    }, 150);
  });
  api.build = build;
  api.openPart = openPart;
})();
