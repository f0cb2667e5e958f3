import { type GraphNode, nodeLabel } from '../graph/model.ts';
import type { GraphReport } from '../graph/report.ts';
import { stateText } from './tree-view.ts';

function quoted(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

function label(node: GraphNode): string {
  return `${nodeLabel(node)}\n${stateText(node)}${node.reason ? ` ${node.reason}` : ''}`;
}

/** The graph in Graphviz's DOT language (`-o dot | dot -Tsvg`): every node and edge, missing nodes dashed. */
export function graphDot(report: GraphReport): string {
  const ids = new Map(report.nodes.map((node, index) => [node.id, `n${index}`]));
  const lines = ['digraph aso {', '  rankdir=BT;', '  node [shape=box];'];
  for (const node of report.nodes) {
    const style =
      node.presence === 'missing'
        ? ', style=dashed, color=red'
        : node.presence === 'present'
          ? ''
          : ', style=dotted';
    const bold = report.targets.includes(node.id) ? ', penwidth=2' : '';
    lines.push(`  ${ids.get(node.id)} [label=${quoted(label(node))}${style}${bold}];`);
  }
  for (const edge of report.edges) {
    lines.push(`  ${ids.get(edge.from)} -> ${ids.get(edge.to)} [label=${quoted(edge.relation)}];`);
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

function mermaidText(text: string): string {
  return `"${text.replace(/"/g, '#quot;').replace(/\n/g, '<br/>')}"`;
}

/** The graph as a Mermaid flowchart, for a markdown page: every node and edge, missing nodes marked. */
export function graphMermaid(report: GraphReport): string {
  const ids = new Map(report.nodes.map((node, index) => [node.id, `n${index}`]));
  const lines = ['flowchart BT'];
  for (const node of report.nodes) lines.push(`  ${ids.get(node.id)}[${mermaidText(label(node))}]`);
  for (const edge of report.edges)
    lines.push(`  ${ids.get(edge.from)} -->|${edge.relation}| ${ids.get(edge.to)}`);
  const missing = report.nodes.filter((node) => node.presence === 'missing').map((node) => ids.get(node.id));
  if (missing.length > 0) {
    lines.push('  classDef missing stroke:#d00,stroke-dasharray:4');
    lines.push(`  class ${missing.join(',')} missing`);
  }
  return `${lines.join('\n')}\n`;
}
