package io.tessera.data.store;

import java.util.List;
import java.util.SortedMap;

/**
 * What a scan of one server's shard versions found: per retained snapshot epoch, the bytes of
 * versions that only that snapshot sees (what deleting it would free here); and the files with a
 * version stamped in the asked epoch range, sorted.
 */
public record VersionReport(SortedMap<Long, Long> exclusiveBytes, List<Long> writtenFiles) {}
