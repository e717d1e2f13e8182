/**
 * The Java file API: {@link io.tessera.client.TesseraFileSystem} (blocking) over {@link
 * io.tessera.client.AsyncTesseraFileSystem}, files, streams and channels, create options and
 * layouts, client settings. Administration is in {@code admin}; how bytes reach the data servers is
 * in {@code internal}.
 */
package io.tessera.client;
