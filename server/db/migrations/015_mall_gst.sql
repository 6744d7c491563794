-- The goods and services tax of each mall's country, in percent: receipts carry prices with it, and the breakeven
-- pages of departments that set targets without it (all but Marcom) take it out of the captured sales.
ALTER TABLE malls
  ADD COLUMN gst_percent numeric(5,2) NOT NULL DEFAULT 0 CHECK (gst_percent >= 0 AND gst_percent < 100);
