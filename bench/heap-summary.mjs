// Summarises a V8 .heapsnapshot (from v8.writeHeapSnapshot() or node --heapsnapshot-signal=SIGUSR2):
// self size by type/constructor, the largest objects by retained size (dominator tree, Cooper-Harvey-
// Kennedy over the snapshot's strong edges) and what inside them holds the memory.
//
//   node --max-old-space-size=8000 bench/heap-summary.mjs FILE.heapsnapshot [TOP=25] [DRILL=3] [DEPTH=6]
//
// Plain JavaScript so that it runs on any snapshot without a build; used for the memory work measured
// by bench/memory.ts.
import fs from 'node:fs';

const [file, topArg = '25', drillArg = '3', depthArg = '6'] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bench/heap-summary.mjs FILE.heapsnapshot [TOP] [DRILL] [DEPTH]');
  process.exit(2);
}
const top = Number(topArg);
const snap = JSON.parse(fs.readFileSync(file, 'utf8'));
const meta = snap.snapshot.meta;
const NF = meta.node_fields.length;
const EF = meta.edge_fields.length;
const nodeTypes = meta.node_types[0];
const edgeTypes = meta.edge_types[0];
const iType = meta.node_fields.indexOf('type');
const iName = meta.node_fields.indexOf('name');
const iSelf = meta.node_fields.indexOf('self_size');
const iEdges = meta.node_fields.indexOf('edge_count');
const eType = meta.edge_fields.indexOf('type');
const eName = meta.edge_fields.indexOf('name_or_index');
const eTo = meta.edge_fields.indexOf('to_node');
const { nodes, edges, strings } = snap;
const N = nodes.length / NF;
const WEAK = edgeTypes.indexOf('weak');

const firstEdge = new Uint32Array(N + 1);
for (let i = 0, e = 0; i < N; i++) {
  firstEdge[i] = e;
  e += nodes[i * NF + iEdges] * EF;
  firstEdge[i + 1] = e;
}
// Predecessors over strong edges.
const predCount = new Uint32Array(N);
for (let i = 0; i < N; i++) for (let e = firstEdge[i]; e < firstEdge[i + 1]; e += EF) if (edges[e + eType] !== WEAK) predCount[edges[e + eTo] / NF]++;
const predStart = new Uint32Array(N + 1);
for (let i = 0; i < N; i++) predStart[i + 1] = predStart[i] + predCount[i];
const preds = new Uint32Array(predStart[N]);
const fill = predStart.slice(0, N);
for (let i = 0; i < N; i++) for (let e = firstEdge[i]; e < firstEdge[i + 1]; e += EF) if (edges[e + eType] !== WEAK) preds[fill[edges[e + eTo] / NF]++] = i;
// Post-order from the root (node 0).
const po = new Int32Array(N).fill(-1);
const order = new Uint32Array(N);
let count = 0;
const cursor = new Uint32Array(N);
const seen = new Uint8Array(N);
const stack = [0];
seen[0] = 1;
cursor[0] = firstEdge[0];
while (stack.length > 0) {
  const v = stack[stack.length - 1];
  let pushed = false;
  while (cursor[v] < firstEdge[v + 1]) {
    const e = cursor[v];
    cursor[v] += EF;
    if (edges[e + eType] === WEAK) continue;
    const w = edges[e + eTo] / NF;
    if (!seen[w]) {
      seen[w] = 1;
      cursor[w] = firstEdge[w];
      stack.push(w);
      pushed = true;
      break;
    }
  }
  if (!pushed) {
    stack.pop();
    po[v] = count;
    order[count++] = v;
  }
}
// Immediate dominators, indexed by post-order number.
const UNDEF = 0xffffffff;
const idom = new Uint32Array(count).fill(UNDEF);
const root = po[0];
idom[root] = root;
for (let changed = true; changed; ) {
  changed = false;
  for (let k = count - 2; k >= 0; k--) {
    const v = order[k];
    let d = UNDEF;
    for (let p = predStart[v]; p < predStart[v + 1]; p++) {
      const pu = po[preds[p]];
      if (pu < 0 || idom[pu] === UNDEF) continue;
      if (d === UNDEF) d = pu;
      else {
        let a = pu;
        let b = d;
        while (a !== b) {
          while (a < b) a = idom[a];
          while (b < a) b = idom[b];
        }
        d = a;
      }
    }
    if (d !== UNDEF && idom[k] !== d) {
      idom[k] = d;
      changed = true;
    }
  }
}
const retained = new Float64Array(count);
for (let k = 0; k < count; k++) retained[k] = nodes[order[k] * NF + iSelf];
for (let k = 0; k < count; k++) if (k !== root && idom[k] !== UNDEF) retained[idom[k]] += retained[k];

const label = (i) => {
  const t = nodeTypes[nodes[i * NF + iType]];
  if (t === 'string' || t === 'concatenated string' || t === 'sliced string') return 'string';
  return `${t}:${strings[nodes[i * NF + iName]]}`.slice(0, 90);
};
const edgeLabel = (from, to) => {
  for (let e = firstEdge[from]; e < firstEdge[from + 1]; e += EF) {
    if (edges[e + eTo] / NF !== to) continue;
    const t = edgeTypes[edges[e + eType]];
    return t === 'element' || t === 'hidden' ? `[${edges[e + eName]}]` : strings[edges[e + eName]];
  }
  return '?';
};
const MiB = (x) => (x / 1048576).toFixed(2).padStart(8);

let total = 0;
const byType = new Map();
for (let k = 0; k < count; k++) {
  const i = order[k];
  total += nodes[i * NF + iSelf];
  const r = byType.get(label(i)) ?? { self: 0, n: 0 };
  r.self += nodes[i * NF + iSelf];
  r.n++;
  byType.set(label(i), r);
}
console.log(`${count} reachable nodes, ${MiB(total).trim()} MiB self size in all`);
console.log('--- self size by type/constructor (MiB, count)');
for (const [k, r] of [...byType].sort((a, b) => b[1].self - a[1].self).slice(0, top)) console.log(MiB(r.self), String(r.n).padStart(8), k);

console.log('--- largest objects by retained size (none dominated by one listed above it)');
const candidates = [];
for (let k = 0; k < count; k++) {
  const t = nodeTypes[nodes[order[k] * NF + iType]];
  if (t !== 'synthetic' && t !== 'hidden') candidates.push(k);
}
candidates.sort((a, b) => retained[b] - retained[a]);
const shown = [];
for (const k of candidates) {
  if (shown.length >= top) break;
  let d = idom[k];
  let inside = false;
  while (d !== root && d !== UNDEF) {
    if (shown.includes(d)) {
      inside = true;
      break;
    }
    d = idom[d];
  }
  if (inside) continue;
  shown.push(k);
  console.log(MiB(retained[k]), label(order[k]), ' held by', label(order[idom[k]]), '.', edgeLabel(order[idom[k]], order[k]));
}

const children = new Map();
for (let k = 0; k < count; k++) {
  if (k === root || idom[k] === UNDEF) continue;
  if (!children.has(idom[k])) children.set(idom[k], []);
  children.get(idom[k]).push(k);
}
const drill = (k, depth, indent) => {
  if (depth > Number(depthArg)) return;
  for (const c of (children.get(k) ?? []).sort((a, b) => retained[b] - retained[a]).slice(0, 6)) {
    if (retained[c] < 1048576) continue;
    console.log(indent + MiB(retained[c]), label(order[c]), 'via', edgeLabel(order[k], order[c]));
    drill(c, depth + 1, indent + '  ');
  }
};
for (const k of shown.slice(0, Number(drillArg))) {
  console.log(`=== inside ${MiB(retained[k]).trim()} MiB ${label(order[k])}`);
  drill(k, 0, '  ');
}
