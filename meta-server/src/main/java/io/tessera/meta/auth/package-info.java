/**
 * Who may ask the meta group for what: the caller identified from its certificate (or a trusted
 * proxy's user), admin-only and server-only requests, access tokens for the files it opens, the
 * audit trail of admin requests, and the upkeep of the replicated security state (rolled token
 * keys, the revocation list on this replica's ports).
 */
package io.tessera.meta.auth;
