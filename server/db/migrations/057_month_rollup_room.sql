-- The month rollups keep room on each page for their rows' updates (fillfactor 50).
--
-- Every batch of receipts adds to its outlets' month rows (rollup_outlet_month_hours, rollup_outlet_monthly: the
-- statement triggers of migrations 035 and 036), hundreds of times a month a row. On full pages (fillfactor 100, as
-- the day rollups have since migration 023) no update fits beside its row: each one wrote its new version on another
-- page and a new entry in the key's index, and the table grew until a vacuum; once the month was over its rows stayed
-- scattered over those pages. After a bulk load of 10 M receipts 12,034 month rows of about 1 kB took 360 MB
-- (31 kB a row) and their monthly sums 33 MB, and a report of 2,000 outlets' month read ten times the pages it needed.
-- With half of each page kept free an update stays on its page without a new index entry (a HOT update) and the
-- page's dead versions are reclaimed as it fills, without a vacuum. A month row is one an outlet and month, not one a
-- day as the day rollups keep, so the room costs little: a year of 3,000 outlets is 72 MB at most instead of 36.
ALTER TABLE rollup_outlet_month_hours SET (fillfactor = 50);
ALTER TABLE rollup_outlet_monthly SET (fillfactor = 50);

-- The rows already there rewritten with that room, in their key's order; the versions left by earlier updates go.
CLUSTER rollup_outlet_month_hours USING rollup_outlet_month_hours_pkey;
CLUSTER rollup_outlet_monthly USING rollup_outlet_monthly_pkey;
