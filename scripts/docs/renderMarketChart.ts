/**
 * Draws one market's history as SVG: its YES price (the listed mid, and the order book's best bid
 * and ask) over time, and the book's depth within 5 cents of the best price on each side. Pure:
 * the same series give the same bytes.
 */
import { svgText } from './svgText.js';

/** One value from `atSec` until the next point of its series (change-only history). */
export interface StepPoint {
  atSec: number;
  value: number | null;
}

export interface MarketChartData {
  marketId: string;
  title: string;
  /** Where the data came from, for the caption. */
  source: string;
  endSec: number;
  listedMidCents: StepPoint[];
  bookBidCents: StepPoint[];
  bookAskCents: StepPoint[];
  bidDepthContracts: StepPoint[];
  askDepthContracts: StepPoint[];
}

const WIDTH = 860;
const LEFT = 64;
const RIGHT = 24;
const PRICE_TOP = 78;
const PRICE_HEIGHT = 220;
const DEPTH_TOP = PRICE_TOP + PRICE_HEIGHT + 84;
const DEPTH_HEIGHT = 150;
const HEIGHT = DEPTH_TOP + DEPTH_HEIGHT + 72;

/** Round steps for an axis: 1, 2 or 5 times a power of ten, about `count` of them. */
function ticks(min: number, max: number, count: number): number[] {
  const span = max - min || 1;
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw)!;
  const out: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max + 1e-9; v += step) out.push(Number(v.toFixed(6)));
  return out;
}

function extent(series: StepPoint[][]): [number, number] {
  const values = series.flat().flatMap((p) => (p.value === null ? [] : [p.value]));
  if (values.length === 0) return [0, 1];
  return [Math.min(...values), Math.max(...values)];
}

export function renderMarketChart(data: MarketChartData): string {
  const all = [data.listedMidCents, data.bookBidCents, data.bookAskCents, data.bidDepthContracts, data.askDepthContracts];
  const startSec = Math.min(...all.flat().map((p) => p.atSec));
  const spanSec = Math.max(1, data.endSec - startSec);
  const x = (sec: number): number => LEFT + ((sec - startSec) / spanSec) * (WIDTH - LEFT - RIGHT);

  const [pLow, pHigh] = extent([data.listedMidCents, data.bookBidCents, data.bookAskCents]);
  const pPad = Math.max(1, (pHigh - pLow) * 0.1);
  const pMin = Math.max(0, Math.floor(pLow - pPad));
  const pMax = Math.min(100, Math.ceil(pHigh + pPad));
  const py = (v: number): number => PRICE_TOP + PRICE_HEIGHT - ((v - pMin) / (pMax - pMin || 1)) * PRICE_HEIGHT;

  const [, dHigh] = extent([data.bidDepthContracts, data.askDepthContracts]);
  const dMax = dHigh <= 0 ? 1 : dHigh * 1.1;
  const dy = (v: number): number => DEPTH_TOP + DEPTH_HEIGHT - (v / dMax) * DEPTH_HEIGHT;

  /** A step line: each value holds until the next point; a null breaks the line. */
  const stepPath = (points: StepPoint[], y: (v: number) => number): string => {
    const parts: string[] = [];
    let open = false;
    points.forEach((p, i) => {
      const until = i + 1 < points.length ? points[i + 1]!.atSec : data.endSec;
      if (p.value === null) {
        open = false;
        return;
      }
      const yv = y(p.value).toFixed(1);
      parts.push(`${open ? 'L' : 'M'}${x(p.atSec).toFixed(1)} ${yv} L${x(until).toFixed(1)} ${yv}`);
      open = true;
    });
    return parts.join(' ');
  };
  const line = (points: StepPoint[], y: (v: number) => number, color: string, width = 1.6, dash = ''): string =>
    `<path d="${stepPath(points, y)}" fill="none" stroke="${color}" stroke-width="${width}"${dash === '' ? '' : ` stroke-dasharray="${dash}"`}/>`;

  const hours = spanSec >= 3 * 3600;
  const unitSec = hours ? 3600 : 60;
  const minutes = ticks(0, spanSec / unitSec, 8);
  const xAxis = (top: number, height: number): string =>
    minutes
      .map((m) => {
        const xv = x(startSec + m * unitSec).toFixed(1);
        return `<line x1="${xv}" y1="${top}" x2="${xv}" y2="${top + height}" stroke="#eee"/><text x="${xv}" y="${top + height + 15}" font-size="11" text-anchor="middle" fill="#555">${m}</text>`;
      })
      .join('');
  /** 1200 as 1.2k, 1500000 as 1.5M: axis labels stay short. */
  const compact = (v: number): string =>
    v >= 1e6 ? `${Number((v / 1e6).toFixed(1))}M` : v >= 1e3 ? `${Number((v / 1e3).toFixed(1))}k` : `${v}`;
  const yAxis = (values: number[], y: (v: number) => number, unit: string): string =>
    values
      .map((v) => {
        const yv = y(v).toFixed(1);
        return `<line x1="${LEFT}" y1="${yv}" x2="${WIDTH - RIGHT}" y2="${yv}" stroke="#eee"/><text x="${LEFT - 6}" y="${Number(yv) + 4}" font-size="11" text-anchor="end" fill="#555">${compact(v)}${unit}</text>`;
      })
      .join('');
  const legend = (items: [string, string, string][], y: number): string =>
    items
      .map(
        ([color, label, dash], i) =>
          `<line x1="${LEFT + i * 230}" y1="${y}" x2="${LEFT + i * 230 + 22}" y2="${y}" stroke="${color}" stroke-width="2.5"${dash === '' ? '' : ` stroke-dasharray="${dash}"`}/><text x="${LEFT + i * 230 + 28}" y="${y + 4}" font-size="11.5">${svgText(label)}</text>`,
      )
      .join('');

  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="Helvetica, Arial, sans-serif">
<title>${svgText(`Price history and order-book depth of ${data.marketId}`)}</title>
<rect width="100%" height="100%" fill="#ffffff"/>
<text x="${LEFT}" y="24" font-size="15" font-weight="700">${svgText(data.title)}</text>
<text x="${LEFT}" y="42" font-size="11.5" fill="#555">${svgText(data.source)}</text>
<text x="${LEFT}" y="${PRICE_TOP - 10}" font-size="12" font-weight="600">YES price (cents): analytics.price_history and analytics.orderbook_top</text>
${xAxis(PRICE_TOP, PRICE_HEIGHT)}
${yAxis(ticks(pMin, pMax, 5), py, '¢')}
<rect x="${LEFT}" y="${PRICE_TOP}" width="${WIDTH - LEFT - RIGHT}" height="${PRICE_HEIGHT}" fill="none" stroke="#bbb"/>
${line(data.bookAskCents, py, '#d62728', 1.3)}
${line(data.bookBidCents, py, '#2ca02c', 1.3)}
${line(data.listedMidCents, py, '#1f4e9c', 2.2, '5 3')}
${legend(
  [
    ['#1f4e9c', 'listed mid (price_history)', '5 3'],
    ['#2ca02c', 'best YES bid (book)', ''],
    ['#d62728', 'best YES ask (book)', ''],
  ],
  PRICE_TOP + PRICE_HEIGHT + 34,
)}
<text x="${LEFT}" y="${DEPTH_TOP - 10}" font-size="12" font-weight="600">Book depth within 5 cents of the best price (contracts): analytics.orderbook_top</text>
${xAxis(DEPTH_TOP, DEPTH_HEIGHT)}
${yAxis(ticks(0, dMax, 4), dy, '')}
<rect x="${LEFT}" y="${DEPTH_TOP}" width="${WIDTH - LEFT - RIGHT}" height="${DEPTH_HEIGHT}" fill="none" stroke="#bbb"/>
${line(data.bidDepthContracts, dy, '#2ca02c', 1.6)}
${line(data.askDepthContracts, dy, '#d62728', 1.6)}
<text x="${(LEFT + WIDTH - RIGHT) / 2}" y="${DEPTH_TOP + DEPTH_HEIGHT + 32}" font-size="11.5" text-anchor="middle" fill="#555">${hours ? 'hours' : 'minutes'} since the first observation</text>
${legend(
  [
    ['#2ca02c', 'YES bids within 5¢', ''],
    ['#d62728', 'YES asks within 5¢', ''],
  ],
  DEPTH_TOP + DEPTH_HEIGHT + 54,
)}
</svg>
`;
}
