/**
 * Events in categories outside the spec's list. The live service has them ("climate & science"
 * was seen live; "geopolitics" stands in for the others), and a crawl filtered by the documented
 * categories never sees them. Only worlds that follow the live service create them.
 */
import { dateText, type EventDraft, type OutcomeDraft } from './catalog.js';
import type { Rng } from './prng.js';
import { UNDOCUMENTED_CATEGORIES, type UndocumentedCategory } from './simTypes.js';

/** Share of new events given an undocumented category in a world that follows the live service. */
export const UNDOCUMENTED_CATEGORY_SHARE = 0.07;

const DAY = 86_400;
const YES: OutcomeDraft[] = [{ code: 'Y', label: 'Yes' }];
const STORMS = ['8', '10', '12', '14', '16', '18'].map((n): OutcomeDraft => ({ code: `S${n}`, label: `${n} or more named storms` }));
const COUNTRIES = ['Ukraine and Russia', 'Israel and Hamas', 'India and Pakistan', 'Armenia and Azerbaijan', "Sudan's factions"];
const SUMMITS = o('US=United States;CN=China;IN=India;EU=European Union;BR=Brazil;JP=Japan');

function o(pairs: string): OutcomeDraft[] {
  return pairs.split(';').map((p) => {
    const [code, label] = p.split('=');
    return { code: code!, label: label! };
  });
}

type Template = (rng: Rng, createdAtSec: number) => EventDraft;

// Subcategory '' on some: the live service sends an empty subcategory for events without one.
const TEMPLATES: Record<UndocumentedCategory, Template[]> = {
  'climate & science': [
    (rng, at) => {
      const durationSec = rng.int(30, 200) * DAY;
      const year = new Date((at + durationSec) * 1000).getUTCFullYear();
      return {
        subcategory: '',
        kalshiSeries: 'KXHOTYEAR',
        polySeries: 'hottest-year',
        title: `Will ${year} be the hottest year on record?`,
        subtitle: 'Global surface temperature',
        outcomes: YES,
        multipleWinners: false,
        durationSec,
        beginsAfterSec: null,
      };
    },
    (rng, at) => {
      const durationSec = rng.int(60, 180) * DAY;
      return {
        subcategory: 'weather',
        kalshiSeries: 'KXHURRICANES',
        polySeries: 'atlantic-hurricane-season',
        title: `Named Atlantic storms by ${dateText(at + durationSec)}`,
        subtitle: 'NOAA count',
        outcomes: rng.sample(STORMS, rng.int(3, 6)),
        multipleWinners: true,
        durationSec,
        beginsAfterSec: null,
      };
    },
  ],
  geopolitics: [
    (rng, at) => {
      const durationSec = rng.int(20, 150) * DAY;
      return {
        subcategory: '',
        kalshiSeries: 'KXCEASEFIRE',
        polySeries: 'ceasefires',
        title: `Ceasefire between ${rng.pick(COUNTRIES)} by ${dateText(at + durationSec)}?`,
        subtitle: 'Announced and in effect',
        outcomes: YES,
        multipleWinners: false,
        durationSec,
        beginsAfterSec: 0,
      };
    },
    (rng, at) => {
      const durationSec = rng.int(20, 90) * DAY;
      return {
        subcategory: 'diplomacy',
        kalshiSeries: 'KXSUMMIT',
        polySeries: 'summit-attendance',
        title: `Who attends the climate summit on ${dateText(at + durationSec)}?`,
        subtitle: 'Heads of state in person',
        outcomes: rng.sample(SUMMITS, rng.int(3, 6)),
        multipleWinners: true,
        durationSec,
        beginsAfterSec: durationSec - DAY,
      };
    },
  ],
};

export function isUndocumentedCategory(category: string): category is UndocumentedCategory {
  return (UNDOCUMENTED_CATEGORIES as readonly string[]).includes(category);
}

export function draftUndocumentedEvent(rng: Rng, category: UndocumentedCategory, createdAtSec: number): EventDraft {
  return rng.pick(TEMPLATES[category])(rng, createdAtSec);
}
