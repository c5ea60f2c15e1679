// The JavaScript workload of bench/perfmap-bench.sh: JIT-compiled code
// calling JIT-compiled code, and many functions, so V8 writes a perf map
// of a few thousand entries (node --perf-basic-prof).
//
//   node --perf-basic-prof --predictable jswork.js [SCALE]    (default 1)
"use strict";
const scale = Number(process.argv[2] || 1);

function fib(n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}
function parseRows(text) {
  return text.split("\n").map((line) => {
    const [id, name, score] = line.split(",");
    return { id: Number(id), name, score: parseFloat(score) };
  });
}
function buildString(n) {
  let s = "";
  for (let i = 0; i < n; i++) s += String.fromCharCode(97 + (i % 26));
  return s;
}
// Many small distinct functions (as a large application has): each gets
// bytecode, then Sparkplug code, each a perf map entry of its own.
const helpers = [];
for (let k = 0; k < 400; k++) {
  helpers.push((0, eval)(`(function helper${k}(x) {
    for (let i = 0; i < 8; i++) x = (x * ${k + 3} + i) % ${k + 1009};
    return x;
  })`));
}
const csv = Array.from({ length: 20 }, (_, i) => `${i},name${i},${(i * 7) % 13}.5`).join("\n");
let sink = 0;
for (let round = 0; round < 10 * scale; round++) {
  sink += fib(20);
  for (let j = 0; j < 10; j++) sink += parseRows(csv).length;
  sink += buildString(5000).length;
  for (let j = 0; j < 30; j++) for (const h of helpers) sink = (sink + h(j)) % 1000003;
}
console.log(sink);
