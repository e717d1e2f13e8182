/**
 * Byte regions of a file held shared or exclusive: the lock home's table per client and the
 * client's cache of what it holds keep the same sets.
 */
package io.tessera.common.region;
