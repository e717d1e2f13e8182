package io.tessera.client;

/**
 * The cluster's raw space over the data servers that are up, before erasure coding: a file of n
 * bytes with layout k+m takes about n(k+m)/k of it.
 *
 * @param totalBytes the size of their disks
 * @param freeBytes free space on their disks
 * @param usedBytes what their shards take
 */
public record Capacity(long totalBytes, long freeBytes, long usedBytes) {}
