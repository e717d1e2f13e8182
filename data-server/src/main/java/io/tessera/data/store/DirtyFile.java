package io.tessera.data.store;

/**
 * An entry of the dirty-file log: {@code fileId} was written here while data server {@code
 * missingServer} was skipped, so that server's shards of the file need rebuilding. {@code sequence}
 * changes with every such write, so a rebuild can tell whether the file was written around the
 * server again while it ran.
 */
public record DirtyFile(String missingServer, long fileId, long sequence) {}
