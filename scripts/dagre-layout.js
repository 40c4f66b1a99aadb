#!/usr/bin/env node
// Times dagre's layout on a topology written by BenchmarkLayoutSwinT
// ({"widths":[...],"heights":[...],"edges":[[from,to],...]}), with the
// options Netron's graph view passes (top to bottom, nodesep 20,
// ranksep 20). Usage:
//   npm install dagre@0.8.5 && node scripts/dagre-layout.js topology.json [runs]
const fs = require('fs');
const dagre = require('dagre');

const topo = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const runs = Number(process.argv[3] || 3);
const times = [];
for (let r = 0; r < runs; r++) {
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: 'TB', nodesep: 20, ranksep: 20 });
  g.setDefaultEdgeLabel(() => ({}));
  topo.widths.forEach((w, i) => g.setNode(String(i), { width: w, height: topo.heights ? topo.heights[i] : 40 }));
  topo.edges.forEach(([a, b], i) => g.setEdge(String(a), String(b), {}, 'e' + i));
  const start = process.hrtime.bigint();
  dagre.layout(g);
  times.push(Number(process.hrtime.bigint() - start) / 1e6);
}
times.sort((a, b) => a - b);
console.log(`dagre ${require('dagre/package.json').version}: ${topo.widths.length} nodes, ${topo.edges.length} edges; ` +
  `layout ms per run: ${times.map((t) => t.toFixed(0)).join(', ')}; median ${times[Math.floor(times.length / 2)].toFixed(0)} ms`);
