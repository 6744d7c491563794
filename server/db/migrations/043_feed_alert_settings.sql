-- Issue 34: the client's rules of feed alerts and unusual days (clients.feed_silence_minutes, migration 034;
-- unusual_day_threshold and unusual_day_min_baseline, migration 038) are read and set through
-- /api/dataFeeds/settings. Whoever reads the data feeds reads the rules; whoever sets the client's GTO review rules
-- sets these too (the roles of an install; the demo roles take them from the contract's 'data-feeds' tag).
INSERT INTO role_api_permissions (role_id, permission)
SELECT DISTINCT role_id, '/api/dataFeeds/settings::Read' FROM role_api_permissions
WHERE permission = '/api/dataFeeds::Read'
ON CONFLICT DO NOTHING;
INSERT INTO role_api_permissions (role_id, permission)
SELECT DISTINCT role_id, '/api/dataFeeds/settings::Update' FROM role_api_permissions
WHERE permission = '/api/gtoReport/settings::Update'
ON CONFLICT DO NOTHING;
