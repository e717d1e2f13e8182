/**
 * A whole cluster on one machine for {@code tessera local} and the tests: one OS process per server
 * ({@link io.tessera.localcluster.ProcessCluster}) or all in one JVM ({@link
 * io.tessera.localcluster.InProcessCluster}), with the launch helpers that make starts cheap.
 */
package io.tessera.localcluster;
