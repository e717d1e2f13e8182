package io.tessera.client;

import io.tessera.client.internal.MetaClient;
import io.tessera.client.internal.StripedIo;
import io.tessera.client.region.RegionLocks;
import java.time.Duration;

/** What open files share with their file system. */
final class FsContext {
  final MetaClient meta;
  final StripedIo io;
  final AsyncTesseraFileSystem async;
  final long writeBufferBytes;
  final long readChunkBytes;
  final int writesInFlight;
  final int readsAhead;
  final RegionLocks regions;
  final Duration regionLockTimeout;

  /** Whether closing a handle that wrote makes its writes durable first. */
  final boolean syncOnClose;

  FsContext(
      MetaClient meta,
      StripedIo io,
      AsyncTesseraFileSystem async,
      long writeBufferBytes,
      long readChunkBytes,
      int writesInFlight,
      int readsAhead,
      RegionLocks regions,
      Duration regionLockTimeout,
      boolean syncOnClose) {
    this.syncOnClose = syncOnClose;
    this.regions = regions;
    this.regionLockTimeout = regionLockTimeout;
    this.meta = meta;
    this.io = io;
    this.async = async;
    this.writeBufferBytes = writeBufferBytes;
    this.readChunkBytes = readChunkBytes;
    this.writesInFlight = Math.max(1, writesInFlight);
    this.readsAhead = Math.max(1, readsAhead);
  }

  int writeBuffer(long stripeDataBytes) {
    return roundToStripes(writeBufferBytes, stripeDataBytes);
  }

  int readChunk(long stripeDataBytes) {
    return roundToStripes(readChunkBytes, stripeDataBytes);
  }

  private static int roundToStripes(long bytes, long stripe) {
    long n = Math.max(1, (bytes + stripe - 1) / stripe) * stripe;
    return (int) Math.min(n, Math.max(stripe, 64L << 20));
  }
}
