/**
 * Draws the data model as SVG: the `prediction` tables in the first column, then each view and
 * function one column to the right of the deepest object it reads, with a line from each object
 * to every reader. Pure and deterministic: the same catalog gives the same bytes, so a test can
 * compare the committed picture with the migrations.
 */
import type { CatalogObject } from './readCatalog.js';
import { svgText } from './svgText.js';

const BOX_WIDTH = 262;
const COLUMN_GAP = 96;
const ROW_GAP = 8;
const MARGIN = 24;
const TOP = 64;
const NAME_HEIGHT = 20;
const KEY_HEIGHT = 14;

const FILL: Record<string, string> = {
  'prediction table': '#dbe8f6',
  'prediction view': '#eef4fb',
  'analytics view': '#dcefdc',
  'analytics function': '#fbe9d0',
};
const STROKE: Record<string, string> = {
  'prediction table': '#4a7ab5',
  'prediction view': '#4a7ab5',
  'analytics view': '#3d8b3d',
  'analytics function': '#c07a1a',
};

interface Placed {
  object: CatalogObject;
  column: number;
  x: number;
  y: number;
  height: number;
}

/** Column of each object: 0 for a table, else one more than the deepest object it reads. */
function columnsOf(objects: readonly CatalogObject[]): Map<string, number> {
  const byId = new Map(objects.map((o) => [o.id, o]));
  const columns = new Map<string, number>();
  const visit = (o: CatalogObject, path: Set<string>): number => {
    const known = columns.get(o.id);
    if (known !== undefined) return known;
    if (path.has(o.id)) throw new Error(`the catalog reads in a cycle through ${o.id}`);
    path.add(o.id);
    const reads = o.reads.map((id) => byId.get(id)).filter((r): r is CatalogObject => r !== undefined);
    const column = o.kind === 'table' ? 0 : 1 + Math.max(0, ...reads.map((r) => visit(r, path)));
    path.delete(o.id);
    columns.set(o.id, column);
    return column;
  };
  for (const o of objects) visit(o, new Set());
  return columns;
}

/**
 * Orders each column so that lines cross less: a few sweeps placing each object at the mean
 * position of its neighbours in the column before (what it reads) or after (its readers); ties
 * and objects without neighbours keep the order of their ids.
 */
function orderColumns(objects: readonly CatalogObject[], columns: Map<string, number>): string[][] {
  const count = Math.max(...columns.values()) + 1;
  const lists: string[][] = Array.from({ length: count }, () => []);
  for (const o of objects) lists[columns.get(o.id)!]!.push(o.id);
  for (const list of lists) list.sort();
  const readers = new Map<string, string[]>();
  for (const o of objects) for (const r of o.reads) readers.set(r, [...(readers.get(r) ?? []), o.id]);
  const byId = new Map(objects.map((o) => [o.id, o]));
  const position = (): Map<string, number> => new Map(lists.flatMap((list) => list.map((id, i) => [id, i / Math.max(1, list.length - 1)])));
  const sortBy = (list: string[], neighbours: (id: string) => string[]): void => {
    const at = position();
    const key = (id: string): number => {
      const ns = neighbours(id).filter((n) => at.has(n));
      return ns.length === 0 ? Number.POSITIVE_INFINITY : ns.reduce((sum, n) => sum + at.get(n)!, 0) / ns.length;
    };
    const keys = new Map(list.map((id) => [id, key(id)]));
    list.sort((a, b) => keys.get(a)! - keys.get(b)! || a.localeCompare(b));
  };
  for (let sweep = 0; sweep < 4; sweep++) {
    for (let c = 1; c < count; c++) sortBy(lists[c]!, (id) => byId.get(id)!.reads);
    for (let c = count - 2; c >= 0; c--) sortBy(lists[c]!, (id) => readers.get(id) ?? []);
  }
  return lists;
}

function boxHeight(o: CatalogObject): number {
  return NAME_HEIGHT + (o.keyColumns.length > 0 ? KEY_HEIGHT : 0) + 6;
}

export function renderDataModel(objects: readonly CatalogObject[]): string {
  const columns = columnsOf(objects);
  const lists = orderColumns(objects, columns);
  const byId = new Map(objects.map((o) => [o.id, o]));
  const placed = new Map<string, Placed>();
  let height = 0;
  lists.forEach((list, column) => {
    let y = TOP;
    for (const id of list) {
      const object = byId.get(id)!;
      const h = boxHeight(object);
      placed.set(id, { object, column, x: MARGIN + column * (BOX_WIDTH + COLUMN_GAP), y, height: h });
      y += h + ROW_GAP;
    }
    height = Math.max(height, y);
  });
  const width = MARGIN * 2 + lists.length * BOX_WIDTH + (lists.length - 1) * COLUMN_GAP;
  const legendY = height + 12;
  const totalHeight = legendY + 40;

  const lines: string[] = [];
  for (const reader of placed.values()) {
    for (const readId of reader.object.reads) {
      const read = placed.get(readId);
      if (read === undefined) continue;
      const x1 = read.x + BOX_WIDTH;
      const y1 = read.y + read.height / 2;
      const x2 = reader.x;
      const y2 = reader.y + reader.height / 2;
      const bend = (x2 - x1) / 2;
      lines.push(
        `<path d="M${x1} ${y1} C${x1 + bend} ${y1}, ${x2 - bend} ${y2}, ${x2 - 6} ${y2}" fill="none" stroke="#8a94a6" stroke-opacity="0.7" marker-end="url(#arrow)"/>`,
      );
    }
  }
  const boxes: string[] = [];
  for (const p of placed.values()) {
    const style = `${p.object.schema} ${p.object.kind === 'table' ? 'table' : p.object.kind}`;
    const read = p.object.kind !== 'table' || [...placed.values()].some((q) => q.object.reads.includes(p.object.id));
    boxes.push(
      `<g${read ? '' : ' opacity="0.55"'}><rect x="${p.x}" y="${p.y}" width="${BOX_WIDTH}" height="${p.height}" rx="4" fill="${FILL[style]}" stroke="${STROKE[style]}"/>` +
        `<text x="${p.x + 8}" y="${p.y + 15}" font-size="12.5" font-weight="600">${svgText(`${p.object.schema}.${p.object.name}`)}</text>` +
        (p.object.keyColumns.length > 0
          ? `<text x="${p.x + 8}" y="${p.y + 30}" font-size="10.5" fill="#444">key: ${svgText(p.object.keyColumns.join(', '))}</text>`
          : '') +
        `</g>`,
    );
  }
  const legend = (
    [
      ['prediction table', 'table (stored)'],
      ['prediction view', 'view in prediction'],
      ['analytics view', 'analytics view'],
      ['analytics function', 'analytics function'],
    ] as const
  )
    .map(
      ([style, label], i) =>
        `<rect x="${MARGIN + i * 180}" y="${legendY}" width="14" height="14" rx="3" fill="${FILL[style]}" stroke="${STROKE[style]}"/>` +
        `<text x="${MARGIN + i * 180 + 20}" y="${legendY + 11}" font-size="11.5">${label}</text>`,
    )
    .join('\n');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${totalHeight}" viewBox="0 0 ${width} ${totalHeight}" font-family="Helvetica, Arial, sans-serif">
<title>prediction-ingest data model: the prediction tables and the analytics views and functions that read them</title>
<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0 0 L10 5 L0 10 z" fill="#8a94a6"/></marker></defs>
<rect width="100%" height="100%" fill="#ffffff"/>
<text x="${MARGIN}" y="26" font-size="16" font-weight="700">Data model: prediction → analytics</text>
<text x="${MARGIN}" y="46" font-size="11.5" fill="#555">An arrow runs from what is read to its reader. Faded tables are read by no view (bookkeeping). Drawn from the migrated catalog by scripts/docs/dataModelDiagram.ts.</text>
${lines.join('\n')}
${boxes.join('\n')}
${legend}
</svg>
`;
}
