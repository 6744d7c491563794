-- Issue 34: the Mall Outlet page as an Excel workbook. Whoever reads an outlet's comparison (the page's own read) may
-- take it as the workbook (the demo roles say the same from the contract's tags).
INSERT INTO role_api_permissions (role_id, permission)
SELECT DISTINCT role_id, '/api/mall_report/outlet/workbook::Read' FROM role_api_permissions
WHERE permission = '/api/mall_report/outlet/overallComparison::Read'
ON CONFLICT DO NOTHING;
