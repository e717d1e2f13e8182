/**
 * Tessera as a java.nio file system ({@code tessera://}): paths, byte and file channels, directory
 * streams, POSIX attributes, atomic moves and the cluster's space as a file store, all over {@link
 * io.tessera.client.VirtualFileSystem}.
 */
package io.tessera.client.nio;
