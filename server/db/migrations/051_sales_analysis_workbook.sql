-- Issue 34: Tenant Connect's Sales Analysis as an Excel workbook. Whoever reads an outlet's sales analysis (its key
-- figures' comparison) may take it as the workbook (the demo roles say the same from the contract's tags).
INSERT INTO role_api_permissions (role_id, permission)
SELECT DISTINCT role_id, '/outlets/salesAnalysis/workbook::Read' FROM role_api_permissions
WHERE permission = '/outlets/overallComparison::Read'
ON CONFLICT DO NOTHING;
