-- Issue 34: every subscribable report page as an Excel workbook, not only Mall Home. Whoever reads a page's figures
-- may take them as its workbook (the demo roles say the same from the contract's tags).
INSERT INTO role_api_permissions (role_id, permission)
SELECT DISTINCT role_id, workbook FROM role_api_permissions
JOIN (VALUES
  ('/api/mall_report/monthly::Read', '/api/mall_report/mall_gmv/workbook::Read'),
  ('/api/mall_report/peak_hour::Read', '/api/mall_report/peak_hour/workbook::Read'),
  ('/api/mall_report/payment_method/overall::Read', '/api/mall_report/payment_method/workbook::Read'),
  ('/api/mall_report/member/overall::Read', '/api/mall_report/member/workbook::Read')
) AS page (reads, workbook) ON permission = page.reads
ON CONFLICT DO NOTHING;
