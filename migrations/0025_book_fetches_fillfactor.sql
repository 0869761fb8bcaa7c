-- Every order-book fetch updates its market's book_fetches row, in the books' transaction; the
-- sweep updates each open market's row every few minutes. The update changes no indexed column,
-- so with free space on its page it is a HOT update: no new primary-key entry, the old version
-- pruned on the page. A row is ~100 bytes, and a 1,000-book batch can update most rows of a page
-- at once (rows are made in fetch order), so half of each page is kept free. The table holds a
-- row a market: doubling it costs a few megabytes. Pages written before this keep their fill
-- until rows move off them. On a Citus cluster the coordinator passes the setting to every shard.
ALTER TABLE "prediction"."book_fetches" SET (fillfactor = 50);
