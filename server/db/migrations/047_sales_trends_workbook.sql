-- Issue 34: the Sales Trends page as an Excel workbook. Whoever reads its monthly figures may take them as the
-- workbook (the demo roles say the same from the contract's tags).
INSERT INTO role_api_permissions (role_id, permission)
SELECT DISTINCT role_id, '/api/mall_report/sales_trends/workbook::Read' FROM role_api_permissions
WHERE permission = '/api/mall_report/monthly::Read'
ON CONFLICT DO NOTHING;
