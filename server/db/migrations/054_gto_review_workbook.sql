-- Issue 34: Tenant Connect's GTO Review as an Excel workbook (the month's whole list). Whoever reads the GTO review
-- may take it as the workbook (the demo roles say the same from the contract's tags).
INSERT INTO role_api_permissions (role_id, permission)
SELECT DISTINCT role_id, '/api/gtoReport/summary/workbook::Read' FROM role_api_permissions
WHERE permission = '/api/gtoReport/summary::Read'
ON CONFLICT DO NOTHING;
