-- Issue 34: Shopper Connect's Cross Spending as an Excel workbook. Whoever reads an outlet's cross spending may take
-- it as the workbook (the demo roles say the same from the contract's tags).
INSERT INTO role_api_permissions (role_id, permission)
SELECT DISTINCT role_id, '/api/mall_report/crossSpending/workbook::Read' FROM role_api_permissions
WHERE permission = '/api/mall_report/crossSpending::Read'
ON CONFLICT DO NOTHING;
