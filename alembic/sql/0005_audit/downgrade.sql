-- Revision 0005 down: remove the policy audit.
SET ROLE scopedb_owner;
DROP SCHEMA IF EXISTS scopedb_audit CASCADE;
RESET ROLE;
