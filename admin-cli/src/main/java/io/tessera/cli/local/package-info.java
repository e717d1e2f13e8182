/**
 * {@code tessera local}: starts a whole cluster on this machine with safe defaults, using the
 * local-cluster module, and writes its cluster.json.
 */
package io.tessera.cli.local;
