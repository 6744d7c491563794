-- A receipts PDF link is checked at each use against the user who made it (server/auth/downloadLinks.ts). It
-- carries the user's link_generation, which deactivation (or reactivation), a password change and any change of
-- the user's roles, clients or outlets bump, so that each of them ends every link the user made before, on every
-- server instance. Kept by triggers, so that no code path (nor a change made at the database) can forget it. A
-- new hash of the same password (password_hash alone) changes nothing.
ALTER TABLE users ADD COLUMN link_generation integer NOT NULL DEFAULT 0;

CREATE FUNCTION users_link_generation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.disabled IS DISTINCT FROM OLD.disabled OR NEW.password_changed_at IS DISTINCT FROM OLD.password_changed_at THEN
    NEW.link_generation := OLD.link_generation + 1;
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER users_link_generation BEFORE UPDATE OF disabled, password_changed_at ON users
  FOR EACH ROW EXECUTE FUNCTION users_link_generation();

CREATE FUNCTION user_grants_link_generation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    UPDATE users SET link_generation = link_generation + 1 WHERE id = OLD.user_id;
  END IF;
  IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.user_id <> OLD.user_id) THEN
    UPDATE users SET link_generation = link_generation + 1 WHERE id = NEW.user_id;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER user_roles_link_generation AFTER INSERT OR UPDATE OR DELETE ON user_roles
  FOR EACH ROW EXECUTE FUNCTION user_grants_link_generation();
CREATE TRIGGER user_clients_link_generation AFTER INSERT OR UPDATE OR DELETE ON user_clients
  FOR EACH ROW EXECUTE FUNCTION user_grants_link_generation();
CREATE TRIGGER user_outlets_link_generation AFTER INSERT OR UPDATE OR DELETE ON user_outlets
  FOR EACH ROW EXECUTE FUNCTION user_grants_link_generation();
