/**
 * Log-structured files (PLFS): each writer of a file appends to a data log and an index log of its
 * own, hidden striped files; readers merge the committed indexes into an extent map. The layout
 * kind {@code LOG}; {@code AsyncTesseraFileSystem} reaches this package through {@link
 * io.tessera.client.log.LogBody} only.
 */
package io.tessera.client.log;
