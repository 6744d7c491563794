-- Issue 34: Tenant Connect's Sales Review as an Excel workbook. Whoever reads an outlet's sales review may take it
-- as the workbook (the demo roles say the same from the contract's tags).
INSERT INTO role_api_permissions (role_id, permission)
SELECT DISTINCT role_id, '/api/salesReview/workbook::Read' FROM role_api_permissions
WHERE permission = '/api/salesReview/daily::Read'
ON CONFLICT DO NOTHING;
