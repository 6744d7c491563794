-- Issue 34: Cross Spending Details as an Excel workbook. Whoever reads a pair's details may take them as the
-- workbook (the demo roles say the same from the contract's tags).
INSERT INTO role_api_permissions (role_id, permission)
SELECT DISTINCT role_id, '/api/mall_report/crossSpending/details/workbook::Read' FROM role_api_permissions
WHERE permission = '/api/mall_report/crossSpending/details::Read'
ON CONFLICT DO NOTHING;
