-- Issue 34: the tenant's Gross Turnover and Rent Statement as Excel workbooks. Whoever reads an outlet's months of
-- GTO, or its rent statement, may take the page as the workbook (the demo roles say the same from the contract's
-- tags).
INSERT INTO role_api_permissions (role_id, permission)
SELECT DISTINCT role_id, '/api/gtoReport/outletMonths/workbook::Read' FROM role_api_permissions
WHERE permission = '/api/gtoReport/outletMonths::Read'
ON CONFLICT DO NOTHING;
INSERT INTO role_api_permissions (role_id, permission)
SELECT DISTINCT role_id, '/api/tenant/rentStatement/workbook::Read' FROM role_api_permissions
WHERE permission = '/api/tenant/rentStatement::Read'
ON CONFLICT DO NOTHING;
