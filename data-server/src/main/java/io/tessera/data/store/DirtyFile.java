package io.tessera.data.store;

/**
 * An entry of the dirty-file log: {@code fileId} was written here while data server
 * {@code missingServer} was down, so that server's shards of the file need rebuilding.
 */
public record DirtyFile(String missingServer, long fileId, long sinceMillis) {}
