-- An outlet may have no code: the Outlet Code page clears one with an empty code, as the contract says. A code is
-- unique within its mall, case-insensitively; updateOutletCodes checks it under row locks on the mall's outlets
-- rather than a unique index, so that codes given twice before this rule do not stop the migration.
ALTER TABLE outlets ALTER COLUMN outlet_code DROP NOT NULL;
