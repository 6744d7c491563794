-- Issue 34: a department's breakeven page as an Excel workbook. Whoever reads the breakeven targets may take them as
-- the workbook (the demo roles say the same from the contract's tags).
INSERT INTO role_api_permissions (role_id, permission)
SELECT DISTINCT role_id, '/api/mall_report/breakeven_target/workbook::Read' FROM role_api_permissions
WHERE permission = '/api/mall_report/breakeven_target::Read'
ON CONFLICT DO NOTHING;
