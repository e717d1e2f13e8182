/**
 * Where a file's bytes live: stripe units, data and parity units per stripe, the servers of each
 * unit, and the redundancy rule fsck and recovery share.
 */
package io.tessera.common.layout;
