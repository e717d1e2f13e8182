/**
 * Reed-Solomon erasure coding over GF(2^8): the codec every writer, reader and rebuild uses, with
 * scalar and Vector API coding loops chosen at start.
 */
package io.tessera.common.erasure;
