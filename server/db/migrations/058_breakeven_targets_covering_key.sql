-- The breakeven page reads a department's targets of a month for every outlet of the malls asked (one index range:
-- client, department, month). The targets of a range are spread over the heap in the order they were saved (an
-- outlet's months and departments together when a year is uploaded), so that range touched about a heap page a
-- target: 878 pages for 2,000 outlets, 3.6 ms of a regional operator's 20 ms. The primary key now carries the
-- target (INCLUDE), so the read is an index-only scan (0.3 ms). The key is unchanged, so the editor's ON CONFLICT
-- target stays the same; a changed target is no longer a HOT update, which a table written a month at a time by hand
-- can afford.
ALTER TABLE breakeven_targets DROP CONSTRAINT breakeven_targets_pkey,
  ADD CONSTRAINT breakeven_targets_pkey PRIMARY KEY (client_id, department, month, outlet_id) INCLUDE (target);
