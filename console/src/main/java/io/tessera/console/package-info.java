/**
 * The console of a meta replica: a REST API under {@code /api/v1}, the web page that uses it, and
 * the replica's {@code /metrics}, all on one HTTP port. It acts through the same {@code
 * ClusterAdmin} API as the CLI, authenticates every API call with a bearer token and records every
 * action in the replicated audit log.
 */
package io.tessera.console;
