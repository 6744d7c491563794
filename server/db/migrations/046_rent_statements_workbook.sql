-- Issue 34: the Rent Statements page as an Excel workbook. Whoever reads the statements may take them as the
-- workbook (the demo roles say the same from the contract's tags).
INSERT INTO role_api_permissions (role_id, permission)
SELECT DISTINCT role_id, '/api/rentStatements/workbook::Read' FROM role_api_permissions
WHERE permission = '/api/rentStatements::Read'
ON CONFLICT DO NOTHING;
