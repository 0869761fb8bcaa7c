import { describe, expect, it } from 'vitest';

import { HOT_PAGE_EVENTS, hotListingPages } from '../../src/sync/readHotListings.js';

describe('hotListingPages', () => {
  it('is a request per page of the busiest events, none for none', () => {
    expect(hotListingPages(0)).toBe(0);
    expect(hotListingPages(1)).toBe(1);
    expect(hotListingPages(HOT_PAGE_EVENTS)).toBe(1);
    expect(hotListingPages(HOT_PAGE_EVENTS + 1)).toBe(2);
    expect(hotListingPages(1000)).toBe(Math.ceil(1000 / HOT_PAGE_EVENTS));
  });
});
