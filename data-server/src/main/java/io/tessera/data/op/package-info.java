/**
 * One class per operation of data.proto: what admission needs to know about it and how it runs
 * against the shard store; {@link io.tessera.data.op.DataOps} registers them.
 */
package io.tessera.data.op;
