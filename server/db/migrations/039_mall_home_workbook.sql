-- Issue 34: Mall Home as an Excel workbook (GET /api/mall_report/mall_home/workbook). Whoever reads Mall Home's
-- figures may take them as a workbook (the demo roles say the same from the contract's tags).
INSERT INTO role_api_permissions (role_id, permission)
SELECT DISTINCT role_id, '/api/mall_report/mall_home/workbook::Read' FROM role_api_permissions
WHERE permission = '/api/mall_report/daily::Read'
ON CONFLICT DO NOTHING;
