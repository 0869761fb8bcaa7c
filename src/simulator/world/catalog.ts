/**
 * Event templates per concrete category: titles, series, outcomes and lifetimes that look like
 * the upstream's. Long because it is a data table; draftEvent, at its end, is the one function that draws from it.
 */
import type { Rng } from './prng.js';
import type { SimCategory } from './simTypes.js';

export interface OutcomeDraft {
  /** Short code, used as the Kalshi ticker suffix (e.g. "LN" for Lando Norris). */
  code: string;
  label: string;
}

export interface EventDraft {
  subcategory: string;
  /** Kalshi series ticker, e.g. "KXF1". */
  kalshiSeries: string;
  /** Polymarket series slug, e.g. "f1-grand-prix". */
  polySeries: string;
  title: string;
  subtitle: string;
  /** One entry per market; a single entry is a plain binary event. */
  outcomes: OutcomeDraft[];
  multipleWinners: boolean;
  /** Seconds from creation to the markets' close. */
  durationSec: number;
  /** Seconds from creation to the event's start; null when the event has no start. */
  beginsAfterSec: number | null;
}

const HOUR = 3600;
const DAY = 86_400;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export function dateText(unixSec: number): string {
  const d = new Date(unixSec * 1000);
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
}
const monthText = (unixSec: number) => {
  const d = new Date(unixSec * 1000);
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
};

const o = (pairs: string): OutcomeDraft[] =>
  pairs.split(';').map((p) => {
    const [code, label] = p.split('=');
    return { code: code!.trim(), label: label!.trim() };
  });
const YES: OutcomeDraft[] = [{ code: 'Y', label: 'Yes' }];

const DRIVERS = o(
  'LN=Lando Norris;MV=Max Verstappen;CL=Charles Leclerc;LH=Lewis Hamilton;OP=Oscar Piastri;GR=George Russell;CS=Carlos Sainz;FA=Fernando Alonso;KA=Kimi Antonelli',
);
const GPS = ['Monaco', 'British', 'Italian', 'Japanese', 'Brazilian', 'Las Vegas', 'Abu Dhabi', 'Spanish', 'Belgian', 'Dutch'];
const NBA = o('LAL=Lakers;BOS=Celtics;GSW=Warriors;NYK=Knicks;DEN=Nuggets;MIA=Heat;OKC=Thunder;PHX=Suns;MIL=Bucks;DAL=Mavericks');
const SOCCER = o(
  'ARS=Arsenal;LIV=Liverpool;MCI=Man City;CHE=Chelsea;RMA=Real Madrid;BAR=Barcelona;BAY=Bayern;PSG=Paris SG;INT=Inter;JUV=Juventus',
);
const ESPORTS = o(
  'T1=T1;GEN=Gen.G;G2=G2 Esports;FNC=Fnatic;NAVI=Natus Vincere;FAZE=FaZe Clan;VIT=Team Vitality;SEN=Sentinels;PRX=Paper Rex;TL=Team Liquid',
);
const TOURNAMENTS = ['Worlds', 'MSI', 'IEM Katowice', 'BLAST Premier', 'VCT Masters', 'PGL Major'];
const STATES = ['Georgia', 'Arizona', 'Pennsylvania', 'Michigan', 'Ohio', 'Texas', 'Maine', 'North Carolina'];
const PARTIES = o('D=Democratic candidate;R=Republican candidate;I=Independent candidate');
const COUNTRIES = ['Brazil', 'France', 'Chile', 'Colombia', 'Peru', 'South Korea', 'Portugal'];
const CANDIDATES = o('AM=Ana Moreau;BK=Boris Keller;CL=Carla Lima;DR=Diego Rojas;EN=Eun-ji Nam;FS=Felipe Souza;GH=Greta Holm');
const BILLS = ['the stablecoin bill', 'the farm bill', 'a crypto market structure bill', 'the NDAA', 'a shutdown deal'];
const FILMS = o('SNR=Sinners;OBA=One Battle After Another;HMN=Hamnet;MRT=Marty Supreme;FRK=Frankenstein;BUG=Bugonia;WCK=Wicked For Good');
const ARTISTS = o(
  'TS=Taylor Swift;BB=Bad Bunny;SC=Sabrina Carpenter;KL=Kendrick Lamar;BE=Billie Eilish;WK=The Weeknd;DR=Drake;CH=Chappell Roan',
);
const FED = o('C50=Cut 50bps or more;C25=Cut 25bps;H0=Hold;H25=Hike 25bps');
const JOBS = o('U45=Unemployment at or above 4.5%;P200=Payrolls above 200k;W4=Wage growth above 4%;REV=Prior month revised down');
const LABS = o('OAI=OpenAI;GOO=Google;ANT=Anthropic;XAI=xAI;META=Meta;DSK=DeepSeek;MIS=Mistral');
const COMPANIES = o('NVDA=Nvidia;MSFT=Microsoft;AAPL=Apple;GOOG=Alphabet;AMZN=Amazon;META=Meta;AVGO=Broadcom');
const LAUNCHES = [
  'Apple|a foldable iPhone',
  'OpenAI|GPT-6',
  'Tesla|unsupervised FSD',
  'Nintendo|a new Zelda',
  'SpaceX|a Starship orbital flight',
  'Google|Gemini 4',
];
const COINS = [
  ['BTC', 'Bitcoin', 100_000],
  ['ETH', 'Ethereum', 4_000],
  ['SOL', 'Solana', 200],
] as const;

function ranges(rng: Rng, unit: number, prefix: string): OutcomeDraft[] {
  const count = rng.int(3, 8);
  const step = unit * 0.05;
  const low = unit - step * Math.floor(count / 2);
  return Array.from({ length: count }, (_, i) => {
    const at = Math.round(low + step * i);
    return { code: `T${at}`, label: `${prefix}${at.toLocaleString('en-US')} or above` };
  });
}
function cpiRanges(rng: Rng): OutcomeDraft[] {
  return Array.from({ length: rng.int(3, 7) }, (_, i) => {
    const pct = (2.4 + i * 0.1).toFixed(1);
    return { code: `T${pct}`, label: `${pct}% or above` };
  });
}
const teamsMatch = (rng: Rng, teams: OutcomeDraft[]) => rng.sample(teams, 2);

type Template = (rng: Rng, createdAtSec: number) => EventDraft;

const TEMPLATES: Record<SimCategory, Template[]> = {
  crypto: [
    (rng, at) => {
      const [ticker, name, unit] = rng.pick(COINS);
      const durationSec = rng.int(1, 30) * DAY;
      return {
        subcategory: name.toLowerCase(),
        kalshiSeries: `KX${ticker}`,
        polySeries: `${name.toLowerCase()}-price`,
        title: `${name} price on ${dateText(at + durationSec)}?`,
        subtitle: `${ticker}/USD at close`,
        outcomes: ranges(rng, unit, '$'),
        multipleWinners: false,
        durationSec,
        beginsAfterSec: null,
      };
    },
    (rng, at) => {
      const [ticker, name, unit] = rng.pick(COINS);
      const target = Math.round(unit * (1 + rng.int(1, 6) / 10));
      const durationSec = rng.int(14, 120) * DAY;
      return {
        subcategory: name.toLowerCase(),
        kalshiSeries: `KX${ticker}MAX`,
        polySeries: `${name.toLowerCase()}-hit-price`,
        title: `Will ${name} hit $${target.toLocaleString('en-US')} by ${dateText(at + durationSec)}?`,
        subtitle: `${ticker} all-time high watch`,
        outcomes: YES,
        multipleWinners: false,
        durationSec,
        beginsAfterSec: 0,
      };
    },
  ],
  sports: [
    (rng, at) => {
      const gp = rng.pick(GPS);
      const durationSec = rng.int(2, 14) * DAY;
      return {
        subcategory: 'f1',
        kalshiSeries: 'KXF1',
        polySeries: 'f1-grand-prix',
        title: `F1: ${gp} Grand Prix winner (${dateText(at + durationSec)})`,
        subtitle: `${gp} Grand Prix`,
        outcomes: rng.sample(DRIVERS, rng.int(4, 9)),
        multipleWinners: false,
        durationSec,
        beginsAfterSec: durationSec - 2 * HOUR,
      };
    },
    (rng) => {
      const soccer = rng.chance(0.5);
      const [a, b] = teamsMatch(rng, soccer ? SOCCER : NBA) as [OutcomeDraft, OutcomeDraft];
      const durationSec = rng.int(3, 96) * HOUR;
      const outcomes = soccer ? [a, b, { code: 'TIE', label: 'Draw' }] : [a, b];
      return {
        subcategory: soccer ? 'soccer' : 'nba',
        kalshiSeries: soccer ? 'KXEPLGAME' : 'KXNBAGAME',
        polySeries: soccer ? 'soccer-match' : 'nba-game',
        title: `${a.label} vs ${b.label}`,
        subtitle: soccer ? 'Full-time result' : 'Game winner',
        outcomes,
        multipleWinners: false,
        durationSec,
        beginsAfterSec: durationSec - 3 * HOUR,
      };
    },
  ],
  politics: [
    (rng, at) => {
      const state = rng.pick(STATES);
      const durationSec = rng.int(60, 300) * DAY;
      return {
        subcategory: 'us-senate',
        kalshiSeries: 'KXSENATE',
        polySeries: 'us-senate',
        title: `${state} Senate race winner ${new Date((at + durationSec) * 1000).getUTCFullYear()}`,
        subtitle: `${state} general election`,
        outcomes: PARTIES,
        multipleWinners: false,
        durationSec,
        beginsAfterSec: null,
      };
    },
    (rng, at) => {
      if (rng.chance(0.5)) {
        const durationSec = rng.int(10, 90) * DAY;
        return {
          subcategory: 'policy',
          kalshiSeries: 'KXBILL',
          polySeries: 'us-legislation',
          title: `Will Congress pass ${rng.pick(BILLS)} by ${dateText(at + durationSec)}?`,
          subtitle: 'US legislation',
          outcomes: YES,
          multipleWinners: false,
          durationSec,
          beginsAfterSec: 0,
        };
      }
      const country = rng.pick(COUNTRIES);
      const durationSec = rng.int(30, 240) * DAY;
      return {
        subcategory: 'elections',
        kalshiSeries: 'KXPRES',
        polySeries: 'world-elections',
        title: `Who will win the ${country} presidential election?`,
        subtitle: `${country} ${monthText(at + durationSec)}`,
        outcomes: rng.sample(CANDIDATES, rng.int(2, 6)),
        multipleWinners: false,
        durationSec,
        beginsAfterSec: null,
      };
    },
  ],
  esports: [
    (rng) => {
      const lol = rng.chance(0.5);
      const [a, b] = teamsMatch(rng, ESPORTS) as [OutcomeDraft, OutcomeDraft];
      const durationSec = rng.int(2, 72) * HOUR;
      return {
        subcategory: lol ? 'lol' : 'cs2',
        kalshiSeries: lol ? 'KXLOLGAME' : 'KXCS2GAME',
        polySeries: lol ? 'lol-match' : 'cs2-match',
        title: `${lol ? 'LoL' : 'CS2'}: ${a.label} vs ${b.label}`,
        subtitle: `${rng.pick(TOURNAMENTS)} match`,
        outcomes: [a, b],
        multipleWinners: false,
        durationSec,
        beginsAfterSec: durationSec - 2 * HOUR,
      };
    },
    (rng) => {
      const tournament = rng.pick(TOURNAMENTS);
      const durationSec = rng.int(5, 40) * DAY;
      return {
        subcategory: 'valorant',
        kalshiSeries: 'KXVCT',
        polySeries: 'esports-tournaments',
        title: `${tournament} winner`,
        subtitle: 'Tournament winner',
        outcomes: rng.sample(ESPORTS, rng.int(4, 8)),
        multipleWinners: false,
        durationSec,
        beginsAfterSec: rng.int(1, 4) * DAY,
      };
    },
  ],
  culture: [
    (rng, at) => {
      const durationSec = rng.int(20, 90) * DAY;
      return {
        subcategory: 'awards',
        kalshiSeries: 'KXOSCARPIC',
        polySeries: 'oscars',
        title: `Best Picture at the ${new Date((at + durationSec) * 1000).getUTCFullYear()} Oscars`,
        subtitle: 'Academy Awards',
        outcomes: rng.sample(FILMS, rng.int(3, 7)),
        multipleWinners: false,
        durationSec,
        beginsAfterSec: durationSec - 4 * HOUR,
      };
    },
    (rng, at) => {
      const durationSec = rng.int(7, 45) * DAY;
      return {
        subcategory: 'music',
        kalshiSeries: 'KXSPOTIFY',
        polySeries: 'spotify-charts',
        title: `Which artists will top Spotify in ${monthText(at + durationSec)}?`,
        subtitle: 'Top 3 monthly listeners',
        outcomes: rng.sample(ARTISTS, rng.int(4, 8)),
        multipleWinners: true,
        durationSec,
        beginsAfterSec: null,
      };
    },
  ],
  economics: [
    (rng, at) => {
      const durationSec = rng.int(7, 60) * DAY;
      return {
        subcategory: 'fed',
        kalshiSeries: 'KXFEDDECISION',
        polySeries: 'fed-decisions',
        title: `Fed decision in ${monthText(at + durationSec)}`,
        subtitle: 'FOMC target rate',
        outcomes: FED,
        multipleWinners: false,
        durationSec,
        beginsAfterSec: null,
      };
    },
    (rng, at) => {
      const cpi = rng.chance(0.5);
      const durationSec = rng.int(7, 40) * DAY;
      if (cpi) {
        return {
          subcategory: 'inflation',
          kalshiSeries: 'KXCPIYOY',
          polySeries: 'us-cpi',
          title: `CPI year-over-year for ${monthText(at + durationSec)}`,
          subtitle: 'BLS release',
          outcomes: cpiRanges(rng),
          multipleWinners: false,
          durationSec,
          beginsAfterSec: null,
        };
      }
      return {
        subcategory: 'jobs',
        kalshiSeries: 'KXJOBS',
        polySeries: 'jobs-report',
        title: `What will happen in the ${monthText(at + durationSec)} jobs report?`,
        subtitle: 'BLS employment situation',
        outcomes: rng.sample(JOBS, rng.int(2, 4)),
        multipleWinners: true,
        durationSec,
        beginsAfterSec: null,
      };
    },
  ],
  tech: [
    (rng, at) => {
      const durationSec = rng.int(14, 60) * DAY;
      return {
        subcategory: 'ai',
        kalshiSeries: 'KXTOPAI',
        polySeries: 'ai-leaderboard',
        title: `Top AI model on LMArena end of ${monthText(at + durationSec)}`,
        subtitle: 'Text arena leader',
        outcomes: rng.sample(LABS, rng.int(3, 7)),
        multipleWinners: false,
        durationSec,
        beginsAfterSec: null,
      };
    },
    (rng, at) => {
      if (rng.chance(0.5)) {
        const [company, product] = rng.pick(LAUNCHES).split('|') as [string, string];
        const durationSec = rng.int(30, 180) * DAY;
        return {
          subcategory: 'launches',
          kalshiSeries: 'KXLAUNCH',
          polySeries: 'tech-launches',
          title: `Will ${company} announce ${product} by ${dateText(at + durationSec)}?`,
          subtitle: company,
          outcomes: YES,
          multipleWinners: false,
          durationSec,
          beginsAfterSec: 0,
        };
      }
      const durationSec = rng.int(30, 180) * DAY;
      return {
        subcategory: 'companies',
        kalshiSeries: 'KXMCAP',
        polySeries: 'market-caps',
        title: `Which companies will hit a $5T market cap by ${dateText(at + durationSec)}?`,
        subtitle: 'Market capitalization',
        outcomes: rng.sample(COMPANIES, rng.int(3, 6)),
        multipleWinners: true,
        durationSec,
        beginsAfterSec: null,
      };
    },
  ],
};

/** A random event of the category, created at `createdAtSec`. */
export function draftEvent(rng: Rng, category: SimCategory, createdAtSec: number): EventDraft {
  return rng.pick(TEMPLATES[category])(rng, createdAtSec);
}
