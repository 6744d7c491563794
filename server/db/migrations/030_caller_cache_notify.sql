-- Each server instance keeps the sessions, users and grants of its callers in memory (server/auth/callerCache.ts).
-- Whatever changes what that cache holds notifies the channel caller_cache when its transaction commits, so that
-- every instance forgets the entries at once (server/auth/cacheInvalidation.ts listens), not up to the cache's
-- time to live later. Kept by triggers, so that no code path (nor a change made at the database) can forget it.
-- A payload is a kind and an id, never a secret: 'session:<token hash>' (the cache's key, the SHA-256 of the
-- cookie), 'user:<id>', 'role:<id>', 'domain:<e-mail domain>', 'clients:'. NOTIFY sends identical payloads of one
-- transaction once.

-- A session ended or changed. Ending sessions long expired (the hourly sweep) tells nobody anything: every cache
-- refuses a session past its expires_at already (a minute's grace for clocks that disagree).
CREATE FUNCTION notify_caller_cache_session() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('caller_cache', 'session:' || OLD.token_hash);
  RETURN NULL;
END $$;

CREATE TRIGGER sessions_caller_cache_delete AFTER DELETE ON sessions
  FOR EACH ROW WHEN (OLD.expires_at > now() - interval '1 minute')
  EXECUTE FUNCTION notify_caller_cache_session();
CREATE TRIGGER sessions_caller_cache_update
  AFTER UPDATE OF token_hash, user_id, csrf_token, mfa_pending, sso_logout_url, expires_at ON sessions
  FOR EACH ROW EXECUTE FUNCTION notify_caller_cache_session();

-- A user's columns that the cache holds (server/repositories/users.ts, UserRow), or the user gone.
CREATE FUNCTION notify_caller_cache_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('caller_cache', 'user:' || OLD.id);
  RETURN NULL;
END $$;

CREATE TRIGGER users_caller_cache_update
  AFTER UPDATE OF email, password_hash, password_expired, require_mfa, tenant_only, hide_top_bar, default_client_id,
    disabled ON users
  FOR EACH ROW WHEN ((OLD.email, OLD.password_hash, OLD.password_expired, OLD.require_mfa, OLD.tenant_only,
    OLD.hide_top_bar, OLD.default_client_id, OLD.disabled) IS DISTINCT FROM (NEW.email, NEW.password_hash,
    NEW.password_expired, NEW.require_mfa, NEW.tenant_only, NEW.hide_top_bar, NEW.default_client_id, NEW.disabled))
  EXECUTE FUNCTION notify_caller_cache_user();
CREATE TRIGGER users_caller_cache_delete AFTER DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION notify_caller_cache_user();

-- A user's roles, clients or outlets (the old and the new user of a row that moves).
CREATE FUNCTION notify_caller_cache_grant() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('caller_cache', 'user:' || OLD.user_id);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_notify('caller_cache', 'user:' || NEW.user_id);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER user_roles_caller_cache AFTER INSERT OR UPDATE OR DELETE ON user_roles
  FOR EACH ROW EXECUTE FUNCTION notify_caller_cache_grant();
CREATE TRIGGER user_clients_caller_cache AFTER INSERT OR UPDATE OR DELETE ON user_clients
  FOR EACH ROW EXECUTE FUNCTION notify_caller_cache_grant();
CREATE TRIGGER user_outlets_caller_cache AFTER INSERT OR UPDATE OR DELETE ON user_outlets
  FOR EACH ROW EXECUTE FUNCTION notify_caller_cache_grant();

-- A role's name, super admin flag or permissions: every holder of the role (the cache forgets them all).
CREATE FUNCTION notify_caller_cache_role() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('caller_cache', 'role:' || OLD.role_id);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_notify('caller_cache', 'role:' || NEW.role_id);
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION notify_caller_cache_role_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('caller_cache', 'role:' || OLD.id);
  RETURN NULL;
END $$;

CREATE TRIGGER roles_caller_cache_update AFTER UPDATE OF id, name, is_super_admin ON roles
  FOR EACH ROW EXECUTE FUNCTION notify_caller_cache_role_row();
CREATE TRIGGER roles_caller_cache_delete AFTER DELETE ON roles
  FOR EACH ROW EXECUTE FUNCTION notify_caller_cache_role_row();
CREATE TRIGGER role_route_permissions_caller_cache AFTER INSERT OR UPDATE OR DELETE ON role_route_permissions
  FOR EACH ROW EXECUTE FUNCTION notify_caller_cache_role();
CREATE TRIGGER role_api_permissions_caller_cache AFTER INSERT OR UPDATE OR DELETE ON role_api_permissions
  FOR EACH ROW EXECUTE FUNCTION notify_caller_cache_role();
CREATE TRIGGER role_component_permissions_caller_cache AFTER INSERT OR UPDATE OR DELETE ON role_component_permissions
  FOR EACH ROW EXECUTE FUNCTION notify_caller_cache_role();

-- Whether an e-mail domain hides receipts (UserRow.receiptsHidden of each of its users).
CREATE FUNCTION notify_caller_cache_domain() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('caller_cache', 'domain:' || OLD.domain);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_notify('caller_cache', 'domain:' || NEW.domain);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER email_domains_caller_cache_insert AFTER INSERT ON email_domains
  FOR EACH ROW WHEN (NEW.receipts_hidden) EXECUTE FUNCTION notify_caller_cache_domain();
CREATE TRIGGER email_domains_caller_cache_update AFTER UPDATE OF domain, receipts_hidden ON email_domains
  FOR EACH ROW WHEN ((OLD.domain, OLD.receipts_hidden) IS DISTINCT FROM (NEW.domain, NEW.receipts_hidden))
  EXECUTE FUNCTION notify_caller_cache_domain();
CREATE TRIGGER email_domains_caller_cache_delete AFTER DELETE ON email_domains
  FOR EACH ROW WHEN (OLD.receipts_hidden) EXECUTE FUNCTION notify_caller_cache_domain();

-- A super admin sees every client (UserGrants.clientIds): a client made or removed changes theirs.
CREATE FUNCTION notify_caller_cache_clients() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('caller_cache', 'clients:');
  RETURN NULL;
END $$;

CREATE TRIGGER clients_caller_cache AFTER INSERT OR DELETE ON clients
  FOR EACH STATEMENT EXECUTE FUNCTION notify_caller_cache_clients();
