/**
 * {@code tessera bench}: benchmark programs (IOR-shaped throughput, metadata rates, rebuild,
 * snapshot overhead) that print their figures with the command that made them; nothing here is a
 * test.
 */
package io.tessera.bench;
